/**
 * Tables a notebook showed, made comparable across library versions.
 *
 * - parseHtmlTables: the `text/html` of a pandas DataFrame (`<table class="dataframe">`, or a
 *   Styler's table) read into column labels, row labels and cell texts. Multi-level headers and
 *   row indexes (colspan/rowspan) are expanded; levels are joined with " / ". Truncation markers
 *   ("..." rows and columns) are dropped.
 * - unwrapFrameReprs: a text/plain DataFrame repr that pandas wrapped into column blocks (every
 *   block but the last ends its first line with " \", blocks are separated by a blank line, each
 *   repeats the index) joined back into one block with one line per row, whatever width the
 *   original run wrapped at.
 * - parseFrameRepr, parseSeriesRepr, findTextTable: printed DataFrames (plain layout) and Series
 *   read into the same Table shape, so text and HTML tables compare with each other.
 *
 * Pure string processing; comparing tables is the oracle's business (align.ts, compare-tables.ts).
 */

export interface TableRow {
  /** Index label(s), levels joined with " / ", normalized (see normalizeLabel); "#2" etc. for repeats. */
  label: string;
  cells: string[];
}

export interface Table {
  /** Column labels, levels joined with " / ", normalized; "#2" etc. for repeats. */
  columns: string[];
  rows: TableRow[];
  /** The "N rows × M columns" note pandas adds under a truncated (or wide) frame. */
  shape?: { rows: number; columns: number };
  /** Rows or columns were left out ("..." markers, or a text repr read only in part). */
  rowsTruncated?: boolean;
  columnsTruncated?: boolean;
}

/** Tables this big are not parsed (pandas truncates to 60 rows x 20 columns by default). */
export const MAX_TABLE_CELLS = 50_000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', times: '×', minus: '-' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function cellText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** Labels that are numbers compare as numbers ("22.0" = "22"); other labels as trimmed text. */
export function normalizeLabel(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return String(Number(t));
  return t;
}

interface RawCell { kind: 'th' | 'td'; text: string; colspan: number; rowspan: number }

function attr(attrs: string, name: string): number {
  const m = new RegExp(`\\b${name}\\s*=\\s*["']?(\\d+)`, 'i').exec(attrs);
  const n = m ? parseInt(m[1]!, 10) : 1;
  return n >= 1 && n <= 1000 ? n : 1;
}

function rowsOf(html: string): RawCell[][] {
  const rows: RawCell[][] = [];
  for (const tr of html.matchAll(/<tr\b[^>]*>([\s\S]*?)(?=<tr\b|<\/tr>|<\/thead>|<\/tbody>|<\/table>|$)/gi)) {
    const cells: RawCell[] = [];
    for (const c of tr[1]!.matchAll(/<(th|td)\b([^>]*)>([\s\S]*?)(?=<\/?t[hd]\b|$)/gi)) {
      cells.push({ kind: c[1]!.toLowerCase() as 'th' | 'td', text: cellText(c[3]!), colspan: attr(c[2]!, 'colspan'), rowspan: attr(c[2]!, 'rowspan') });
    }
    rows.push(cells);
  }
  return rows;
}

/** Expand colspan/rowspan into a rectangular grid (spanned positions repeat the cell). */
function expand(rows: RawCell[][]): RawCell[][] {
  const grid: RawCell[][] = rows.map(() => []);
  rows.forEach((cells, r) => {
    let col = 0;
    for (const c of cells) {
      while (grid[r]![col]) col++;
      for (let dr = 0; dr < c.rowspan && r + dr < rows.length; dr++) {
        for (let dc = 0; dc < c.colspan; dc++) grid[r + dr]![col + dc] = c;
      }
      col += c.colspan;
    }
  });
  return grid.map((row) => Array.from(row, (c) => c ?? { kind: 'td', text: '', colspan: 1, rowspan: 1 }));
}

function uniquify(labels: string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((l) => {
    const k = (seen.get(l) ?? 0) + 1;
    seen.set(l, k);
    return k === 1 ? l : `${l}#${k}`;
  });
}

const TRUNCATED = /^(\.\.\.|…|\.\.)$/;

function parseTable(inner: string, after: string): Table | undefined {
  const headHtml = /<thead\b[^>]*>([\s\S]*?)(<\/thead>|(?=<tbody\b))/i.exec(inner)?.[1];
  const bodyHtml = headHtml !== undefined ? inner.slice(inner.search(/<\/thead>|<tbody\b/i)) : inner;
  let head = headHtml !== undefined ? rowsOf(headHtml) : [];
  let body = rowsOf(bodyHtml);
  if (headHtml === undefined) {
    // No <thead>: leading rows of <th> only are the header.
    let k = 0;
    while (k < body.length && body[k]!.length > 0 && body[k]!.every((c) => c.kind === 'th')) k++;
    head = body.slice(0, k);
    body = body.slice(k);
  }
  const all = expand([...head, ...body].filter((r) => r.length > 0));
  const nHead = head.filter((r) => r.length > 0).length;
  const headRows = all.slice(0, nHead);
  const bodyRows = all.slice(nHead);
  const width = Math.max(0, ...all.map((r) => r.length));
  if (width === 0 || width * bodyRows.length > MAX_TABLE_CELLS) return undefined;
  // Index columns: the leading <th> cells of body rows.
  const leading = (r: RawCell[]): number => { let k = 0; while (k < r.length && r[k]!.kind === 'th') k++; return k; };
  let nIdx = bodyRows.length ? Math.min(...bodyRows.map(leading)) : headRows.length ? 1 : 0;
  // The index written as <td> (notebooks saved through a sanitizer that rewrote the cells, e.g. old
  // Kaggle kernels): every header row leaves the first column's label empty, as pandas does for the index,
  // except the row of index names (`Pclass` over an empty data part) pandas adds for a named index.
  const indexNames = (r: RawCell[]): boolean => r[0]!.text !== '' && r.slice(1).every((c) => c.text === '');
  if (nIdx === 0 && bodyRows.length && headRows.some((r) => r.length > 1 && r[0]!.text === '') && headRows.every((r) => r.length > 1 && (r[0]!.text === '' || indexNames(r)))) nIdx = 1;
  const pad = (r: RawCell[]): string[] => Array.from({ length: width }, (_, i) => r[i]?.text ?? '');
  const header = headRows.map(pad).filter((r) => {
    // The row of index names (data part empty) is not a level of column labels.
    const data = r.slice(nIdx);
    return !(data.every((t) => t === '') && r.slice(0, nIdx).some((t) => t !== ''));
  });
  const rawColumns = Array.from({ length: width - nIdx }, (_, k) => {
    const levels: string[] = [];
    for (const h of header) {
      const t = h[nIdx + k]!;
      if (t !== '' && levels[levels.length - 1] !== t) levels.push(normalizeLabel(t));
    }
    return levels.length ? levels.join(' / ') : String(k);
  });
  const keepCol = rawColumns.map((c) => !TRUNCATED.test(c));
  const columns = uniquify(rawColumns.filter((_, k) => keepCol[k]));
  const rowLabels: string[] = [];
  const rows: Array<{ cells: string[] }> = [];
  let rowsTruncated = false;
  bodyRows.forEach((r, i) => {
    const texts = pad(r);
    const idx = texts.slice(0, nIdx);
    if (idx.some((t) => TRUNCATED.test(t)) || (nIdx > 0 && texts.slice(nIdx).every((t) => TRUNCATED.test(t)))) { rowsTruncated = true; return; }
    rowLabels.push(nIdx ? idx.map(normalizeLabel).join(' / ') : String(i));
    rows.push({ cells: texts.slice(nIdx).filter((_, k) => keepCol[k]) });
  });
  const labels = uniquify(rowLabels);
  const table: Table = { columns, rows: rows.map((r, i) => ({ label: labels[i]!, cells: r.cells })) };
  if (rowsTruncated) table.rowsTruncated = true;
  if (keepCol.some((k) => !k)) table.columnsTruncated = true;
  const shape = /^\s*(?:<\/?div>\s*)*<p>\s*([\d,]+)\s+rows\s*(?:×|x|&times;)\s*([\d,]+)\s+columns\s*<\/p>/i.exec(after);
  if (shape) table.shape = { rows: Number(shape[1]!.replace(/,/g, '')), columns: Number(shape[2]!.replace(/,/g, '')) };
  return table;
}

/** The DataFrame tables of an HTML output (pandas' `class="dataframe"` tables and Styler tables). */
export function parseHtmlTables(html: string): Table[] {
  const out: Table[] = [];
  for (const m of html.matchAll(/<table\b([^>]*)>([\s\S]*?)<\/table>/gi)) {
    const attrs = m[1]!;
    if (!/class\s*=\s*["'][^"']*\bdataframe\b/i.test(attrs) && !/\bid\s*=\s*["']?T_/i.test(attrs)) continue;
    const after = html.slice(m.index! + m[0].length, m.index! + m[0].length + 200);
    const t = parseTable(m[2]!, after);
    if (t && t.columns.length > 0 && (t.rows.length > 0 || t.shape)) out.push(t);
  }
  return out;
}

// ---------------------------------------------------------------- wrapped text/plain reprs

const CONTINUED = /\s\\$/;

/** Length of the index part two column blocks of one wrapped frame share on every line. */
function sharedIndexWidth(first: string[], other: string[]): number {
  let w = Infinity;
  other.forEach((l, r) => {
    const a = first[r]!;
    let k = 0;
    while (k < a.length && k < l.length && a[k] === l[k]) k++;
    w = Math.min(w, k);
  });
  if (!Number.isFinite(w)) return 0;
  // Back off to a position every line of the block has a space (or its end) just before.
  while (w > 0 && other.some((l) => w <= l.length && l[w - 1] !== ' ')) w--;
  return w;
}

/**
 * Join wrapped DataFrame reprs (pandas `expand_frame_repr`) back into one block: a group of
 * blocks separated by single blank lines, all of the same height, where every block but the
 * last ends its first line with " \". Other lines pass through unchanged.
 */
export function unwrapFrameReprs(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  const blockAt = (s: number): [number, number] => { let e = s; while (e < lines.length && lines[e]!.trim() !== '') e++; return [s, e]; };
  while (i < lines.length) {
    if (!CONTINUED.test(lines[i]!.trimEnd())) { out.push(lines[i]!); i++; continue; }
    const blocks: string[][] = [];
    let s = i;
    for (;;) {
      const [bs, be] = blockAt(s);
      const block = lines.slice(bs, be);
      if (blocks.length && block.length !== blocks[0]!.length) break;
      blocks.push(block);
      if (!CONTINUED.test(block[0]!.trimEnd())) break;
      if (be + 1 >= lines.length || lines[be]!.trim() !== '' || lines[be + 1]!.trim() === '') { blocks.push([]); break; }
      s = be + 1;
    }
    const last = blocks[blocks.length - 1]!;
    if (blocks.length < 2 || last.length !== blocks[0]!.length || CONTINUED.test(last[0]!.trimEnd())) {
      out.push(lines[i]!); i++; continue; // not a wrapped frame after all
    }
    const merged = blocks[0]!.map((l, r) => (r === 0 ? l.trimEnd().replace(/\\$/, '') : l).trimEnd());
    for (const b of blocks.slice(1)) {
      const w = sharedIndexWidth(blocks[0]!, b);
      const width = maxLen(merged);
      b.forEach((l, r) => {
        const part = (r === 0 ? l.trimEnd().replace(/\\$/, '') : l).slice(w).trimEnd();
        merged[r] = `${merged[r]!.padEnd(width)}  ${part}`;
      });
    }
    out.push(...merged.map((l) => l.trimEnd()));
    i += blocks.reduce((n, b) => n + b.length + 1, 0) - 1;
  }
  return out;
}

function maxLen(ls: string[]): number {
  return ls.reduce((m, l) => Math.max(m, l.length), 0);
}

// ---------------------------------------------------------------- Series reprs

const SERIES_FOOTER = /^(?:Name: (.*?), )?(?:Freq: \w+, )?(?:Length: (\d+), )?dtype: \w+$/;
const GAP = /^(\S(?:.*?\S)?)\s{2,}(\S(?:.*\S)?)$/;

/**
 * A pandas Series repr (text/plain of a result, or a whole printed stream) as a one-column table:
 * rows "label   value" and the "Name: ..., dtype: ..." footer, maybe a first line with the index
 * name (pandas 2's value_counts). The column is called "value" whatever the Series' name (pandas
 * 2 calls value_counts "count"). Undefined for anything else, including MultiIndex Series.
 */
export function parseSeriesRepr(text: string): Table | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (lines.length < 2) return undefined;
  const footer = SERIES_FOOTER.exec(lines[lines.length - 1]!.trim());
  if (!footer) return undefined;
  let body = lines.slice(0, -1);
  if (body.length && /^\S+$/.test(body[0]!) && (body.length === 1 || GAP.test(body[1]!))) body = body.slice(1); // index name
  const labels: string[] = [];
  const cells: string[] = [];
  let truncated = false;
  for (const l of body) {
    if (/^(\.\.\.?|…)(\s+(\.\.\.?|…))?$/.test(l.trim())) { truncated = true; continue; } // the truncation row
    if (/^\s/.test(l) || l === '') return undefined;
    const m = GAP.exec(l);
    if (!m) return undefined;
    if (TRUNCATED.test(m[1]!)) { truncated = true; continue; }
    labels.push(normalizeLabel(m[1]!));
    cells.push(m[2]!);
  }
  if (!labels.length) return undefined;
  const unique = uniquify(labels);
  const table: Table = { columns: ['value'], rows: unique.map((label, i) => ({ label, cells: [cells[i]!] })) };
  if (footer[2]) table.shape = { rows: Number(footer[2]), columns: 1 };
  if (truncated) table.rowsTruncated = true;
  return table;
}

// ---------------------------------------------------------------- DataFrame text reprs

const FRAME_FOOTER = /^\[(\d+) rows x (\d+) columns\]$/;

/** The "[N rows x M columns]" line under a truncated text repr. */
export function frameFooter(line: string): { rows: number; columns: number } | undefined {
  const m = FRAME_FOOTER.exec(line.trim());
  return m ? { rows: Number(m[1]), columns: Number(m[2]) } : undefined;
}

/**
 * A printed DataFrame (text/plain or print(df)), unwrapped already: an indented header line of
 * column labels, maybe a line with the index name alone, then rows "label  v1  v2 ..." whose
 * values end under the end of their column label (pandas right-aligns both). The frame ends at
 * the first line that is not such a row (`end`: lines used). Undefined for any other layout
 * (MultiIndex, column labels with spaces, values out of alignment...).
 */
export function parseFrameRepr(lines: string[]): (Table & { end: number }) | undefined {
  const ls = lines.map((l) => l.replace(/\s+$/, ''));
  if (ls.length < 2 || !/^\s+\S/.test(ls[0]!)) return undefined;
  const header = ls[0]!;
  const ends: number[] = [];
  const labels: string[] = [];
  for (const m of header.matchAll(/\S+/g)) { ends.push(m.index! + m[0].length - 1); labels.push(m[0]); }
  let first = 1;
  if (ls.length >= 3 && /^\S+$/.test(ls[1]!) && ls[1]!.length <= ends[0]! - labels[0]!.length) first = 2; // index name
  const keep = labels.map((l) => !TRUNCATED.test(l));
  const rowLabels: string[] = [];
  const cells: string[][] = [];
  let rowsTruncated = false;
  let end = first;
  for (; end < ls.length; end++) {
    const row = ls[end]!;
    if (/^\s/.test(row) || row === '' || row.length > ends[ends.length - 1]! + 1) break;
    // Each value ends at its column's end (a string value may end in spaces), never beyond it.
    if (ends.some((e, k) => (row[e + 1] !== undefined && row[e + 1] !== ' ') || row.slice(k ? ends[k - 1]! + 1 : 0, e + 1).trim() === '')) break;
    const gap = /^(.*\S)\s{2,}(\S.*)$/.exec(row.slice(0, ends[0]! + 1));
    if (!gap) break;
    const label = gap[1]!.trim();
    if (TRUNCATED.test(label)) { rowsTruncated = true; continue; }
    const values = [gap[2]!.trim(), ...ends.slice(1).map((e, k) => row.slice(ends[k]! + 1, e + 1).trim())];
    rowLabels.push(normalizeLabel(label));
    cells.push(values.filter((_, k) => keep[k]));
  }
  if (!rowLabels.length) return undefined;
  // Stopped at a line that looks like a row after all (out of alignment): read in part.
  if (end < ls.length && /^\S+\s{2,}\S/.test(ls[end]!)) rowsTruncated = true;
  const rowIds = uniquify(rowLabels);
  const table: Table & { end: number } = { columns: uniquify(labels.filter((_, k) => keep[k]).map(normalizeLabel)), rows: rowIds.map((label, i) => ({ label, cells: cells[i]! })), end };
  if (rowsTruncated) table.rowsTruncated = true;
  if (keep.some((k) => !k)) table.columnsTruncated = true;
  return table;
}

// ---------------------------------------------------------------- dict reprs

/** Split at top-level separators (not inside brackets or quotes). */
function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0, quote = '', start = 0;
  for (let k = 0; k < s.length; k++) {
    const ch = s[k]!;
    if (quote) { if (ch === '\\') k++; else if (ch === quote) quote = ''; continue; }
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === sep && depth === 0) { out.push(s.slice(start, k)); start = k + 1; }
  }
  out.push(s.slice(start));
  return out;
}

/**
 * A dict repr ({'Capt': 70.0, 'Col': np.float64(54.0)}) as a one-column table keyed by its keys:
 * old IPython sorted keys, new IPython keeps insertion order (which for keys from a set is not
 * even stable across Python versions). Keys must be strings or numbers.
 */
export function parseDictRepr(text: string): Table | undefined {
  const t = text.replace(/\s*\n\s*/g, ' ').trim();
  if (!t.startsWith('{') || !t.endsWith('}') || t.length < 3) return undefined;
  const labels: string[] = [];
  const cells: string[] = [];
  for (const item of splitTop(t.slice(1, -1), ',')) {
    if (!item.trim()) continue;
    const kv = splitTop(item, ':');
    if (kv.length !== 2) return undefined;
    const key = kv[0]!.trim();
    const q = /^(['"])(.*)\1$/.exec(key);
    if (!q && !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(key)) return undefined;
    labels.push(q ? q[2]! : normalizeLabel(key));
    cells.push(kv[1]!.trim());
  }
  if (!labels.length) return undefined;
  return { columns: ['value'], rows: uniquify(labels).map((label, i) => ({ label, cells: [cells[i]!] })) };
}

/** The first table (DataFrame, Series or dict repr) in a block of lines: where it starts and ends. */
export function findTextTable(lines: string[], maxStarts = 8): { start: number; end: number; table: Table } | undefined {
  for (let s = 0; s < Math.min(lines.length, maxStarts); s++) {
    const part = lines.slice(s);
    const frame = parseFrameRepr(part);
    // Not in the middle of a larger layout (the indented rows of a MultiIndex frame).
    const inside = (l: string | undefined): boolean => l !== undefined && /^\s+\S/.test(l);
    if (frame && !(s > 0 && inside(lines[s - 1])) && !inside(lines[s + frame.end])) {
      const { end, ...table } = frame;
      return { start: s, end: s + end, table };
    }
    // A Series ends at its footer; what follows in the same block (print(s) then print(arr), no
    // blank line between) is other output.
    const k = part.findIndex((l) => SERIES_FOOTER.test(l.trim()));
    const series = k >= 1 ? parseSeriesRepr(part.slice(0, k + 1).join('\n')) : undefined;
    if (series) return { start: s, end: s + k + 1, table: series };
    const dict = /^\s*\{/.test(part[0]!) ? parseDictRepr(part.join('\n')) : undefined;
    if (dict) return { start: s, end: lines.length, table: dict };
  }
  return undefined;
}
