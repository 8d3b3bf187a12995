/**
 * Numbers a notebook printed, made comparable. From a code cell's outputs we read stdout streams
 * and the text/plain of results and displays (not stderr, images), then drop what is not a
 * result: timings, dates, memory sizes and addresses, object, estimator and plot-object reprs,
 * warnings, progress bars, df.info() blocks, execution counts, versions, file:line references, listings of
 * the author's directories (ls -l, dir, du),
 * and the index column and header of printed DataFrames/Series. Presentation is normalized first:
 * wrapped DataFrame reprs are unwrapped (tables.ts), bracketed reprs spread over several
 * lines (numpy arrays, lists, dicts) are joined into one line, thousand separators are read.
 * Each remaining line keeps a template (the line with its numbers replaced by '#') so lines can
 * be aligned between two runs. A result or display whose text/html holds one DataFrame table
 * also yields the parsed table, which the oracle compares by row and column label when the other
 * run has a table there too.
 */
import type { CodeCell, Output } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import { findTextTable, frameFooter, parseHtmlTables, unwrapFrameReprs, type Table } from './tables.js';

export interface NumberLine {
  /** The line with numbers replaced by '#', whitespace collapsed. */
  template: string;
  numbers: number[];
  /** The cleaned line, for reports. */
  raw: string;
  /** Set when the line comes from the text/plain of an output whose HTML table is tables[table]. */
  table?: number;
}

export interface CellNumbers {
  lines: NumberLine[];
  /**
   * Tables, to compare by label: the DataFrame of an output whose text/html shows exactly one,
   * and DataFrame and Series reprs found in text (results and printed streams).
   */
  tables: Table[];
  /** Outputs reported but not judged. */
  images: number;
  htmlOnly: number;
  /** Templates of text lines without numbers (to report text changes). */
  textLines: string[];
  hasError: boolean;
}

/** A number; "1,234,567.5" (thousand separators) reads as one number. */
const NUMBER = /(?<![\w.#/\\])[-+]?(?:[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?|\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])(?!\.\w)/g;

const WARNING = /\b[A-Z][A-Za-z]*Warning\b|\bWARNING\b|^\s*warnings\.warn\(/;

const SKIP_LINE = [
  /\b(wall time|cpu times?|elapsed|time taken|took|runtime|run time|duration)\b/i,
  /\bper loop\b|\bloops?, best of\b|\bmean ± std\b/i,
  /\bmemory usage\b/i,
  /\d+%\|/, // tqdm
  // tqdm drawn without its bar (a notebook widget's text, a downloader's log): elapsed<remaining, and any transfer rate
  /\[\d+:\d{2}(:\d{2})?<[\d:?]+/,
  /(?<![\w.])\d+(\.\d+)?\s?[kKMG]i?B\/s\b/,
  /\[[=>.\-]{5,}\]/, // keras progress
  /\bETA\b|\bit\/s\b|\bs\/it\b/,
  /\.(py|pyx|c|cc|cpp|cu|h|hpp):\d+|File ".*", line \d+/, // source references (warnings, native library logs)
  /\b(version|python \d)/i,
  /^\s*(In|Out)\s*\[\d*\]:/,
  /^\s*(Name: .*, )?(Length: \d+, )?dtype: \w+\s*$/, // Series footer
  WARNING, // warnings printed to stdout (a new run's deprecation notices are not results)
  // A search's verbose log: its counts are the grid's size (a runtime reduction may restrict it), its
  // per-fit lines changed format in scikit-learn 0.24 and interleave in any order on several workers.
  /^\s*Fitting \d+ folds? for each of \d+ candidates?/,
  /^\s*\[CV\b/,
  // "Saving train.csv to train (5).csv": Colab's upload widget (and the like) naming files, not results.
  /^\s*Saving \S.* to \S.*$/,
];

const REMOVE = [
  /,?\s*shape=\(\d+(?:,\s*\d+)*,?\)/g, // numpy 2 adds the shape to summarized array reprs
  /<[A-Za-z_][^<>\n]*>/g, // object reprs: <Figure size 640x480 with 1 Axes>, <... at 0x7f..>, <class '...'>
  /\b0x[0-9a-fA-F]+\b/g,
  // Wall-clock stamps written with a weekday: statsmodels' summary "Date: Thu, 16 May 2019", RFC 2822
  // "Thu, 16 May 2019 10:20:30", ctime "Thu May 16 10:20:30 2019". A weekday is never part of data.
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+(?:\d{1,2}\s+[A-Z][a-z]{2,8}\.?|[A-Z][a-z]{2,8}\.?\s+\d{1,2}),?(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?\s+\d{4}\b/g,
  /\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/g,
  /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g,
  /\b\d+(?:\.\d+)?\s*(?:ms|µs|us|ns|sec|secs|seconds?|mins?|minutes?|hours?|h|s)\b/g,
  /\b\d+(?:\.\d+)?\+?\s*(?:bytes|KB|MB|GB|KiB|MiB|GiB)\b/g,
  /\u001b\[[0-9;?]*[ -\/]*[@-~]/g,
  // A URL (an OAuth link a Colab mount printed, a download link): its digits are ids and ports, not results.
  /\b(?:https?|ftp|file):\/\/[^\s'"<>]+/g,
];

/**
 * Reprs that are configuration or plot objects, not results, and whose format changed across
 * versions: scikit-learn estimators (`RandomForestClassifier(bootstrap=True, ...)` then,
 * `RandomForestClassifier()` now), pipelines and searches, matplotlib artists (`Text(0.5, 1.0,
 * 'Age')`), and what `plt.xticks(rotation=90)` returns when it ends a cell: the tick positions and
 * their labels (`(array([0, 1, 2]), <a list of 3 Text xticklabel objects>)` until matplotlib 3.3,
 * `([0, 1, 2], [Text(0, 0, 'a'), ...])` now), an axis' layout, not a result. Matched on a whole
 * (joined) line.
 */
const CONFIG_REPR = [
  /^\s*[A-Z][A-Za-z0-9_]*\((\w+=|\)|steps=|\s*$)/,
  /^\s*[[(]?\s*(Text|Line2D|Axes|AxesSubplot|Figure|Legend|Rectangle|Annotation|PathCollection|BarContainer|Polygon|Circle|Wedge|ErrorbarContainer|LineCollection|QuadMesh|AxesImage)\(/,
  /^\s*\((?:array\()?\[[^\]]*\]\)?,\s*(?:<a list of \d+ Text (?:major |minor )?[xy]?ticklabel objects>|\[Text\()/,
];

/** Lines joined into one (a long printed array or list) at most. */
export const MAX_JOINED_LINES = 400;

export function textOf(src: unknown): string {
  return sourceText(src as string | string[] | undefined);
}

/** Terminal semantics: only what follows the last carriage return of a line is visible. */
function visibleLines(text: string): string[] {
  return text.split('\n').map((l) => {
    const t = l.replace(/\r+$/, '');
    const k = t.lastIndexOf('\r');
    return k >= 0 ? t.slice(k + 1) : t;
  });
}

function bracketDepth(l: string): number {
  let d = 0;
  for (const ch of l) {
    if (ch === '[' || ch === '(' || ch === '{') d++;
    else if (ch === ']' || ch === ')' || ch === '}') d--;
  }
  return d;
}

/**
 * A repr whose brackets open on one line and close on a later one (numpy arrays, lists, dicts,
 * estimator reprs) becomes one line, so its numbers pair up however each version wrapped it.
 * Continuation lines must be indented or start with a bracket; a blank line is allowed inside
 * (between the slices of a 3-d array).
 */
function joinBracketed(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    let depth = bracketDepth(line);
    if (depth > 0) {
      let j = i + 1;
      while (depth > 0 && j < lines.length && j - i < MAX_JOINED_LINES) {
        const next = lines[j]!;
        if (next.trim() === '') {
          if (j + 1 < lines.length && /^\s+[[(]/.test(lines[j + 1]!)) { j++; continue; }
          break;
        }
        if (!/^[\s[\]()]/.test(next)) break;
        line += ' ' + next.trim();
        depth += bracketDepth(next);
        j++;
      }
      if (j > i + 1) { out.push(line); i = j - 1; continue; }
    }
    out.push(line);
  }
  return out;
}

/**
 * Lines of a block that is a printed DataFrame (header line indented, rows start with an index
 * label) or a Series (rows "label  value", a dtype footer): header lines are skipped and the
 * index label is cut from rows.
 */
function stripTableIndex(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.trim() === '') { out.push(lines[i]!); i++; continue; }
    let j = i;
    while (j < lines.length && lines[j]!.trim() !== '') j++;
    const block = lines.slice(i, j);
    out.push(...tableBlock(block));
    i = j;
  }
  return out;
}

/** In a table's rows, booleans are 1 and 0 (get_dummies gave uint8 0/1, it now gives bools). */
function boolsAsNumbers(l: string): string {
  return l.replace(/(?<![\w'"])True(?![\w'"])/g, '1').replace(/(?<![\w'"])False(?![\w'"])/g, '0');
}

/** The first line of a df.info() report (its class line, or the index line when printed alone). */
const INFO_START = /^<class 'pandas|^(RangeIndex|Int64Index|Float64Index|DatetimeIndex|Index): \d+ entries/;
/** The last lines an info() report can have. */
const INFO_END = /^(dtypes: |memory usage: )/;

function tableBlock(block: string[]): string[] {
  // df.info(): a description of the data, whose layout changed across pandas versions (pandas 1.0
  // made it a table with a "#" column and "Non-Null Count"). It may share a block with other
  // output (a printed path just before it, a print after it): only the report itself is dropped.
  const info = block.findIndex((l) => INFO_START.test(l));
  if (info > 0) return [...tableBlock(block.slice(0, info)), ...tableBlock(block.slice(info))];
  if (info === 0) {
    let end = block.length - 1;
    for (let k = block.length - 1; k > 0; k--) if (INFO_END.test(block[k]!)) { end = k; break; }
    // Only up to the report's footer when it has one; without one, all of the block.
    const footer = block.slice(1, end + 1).some((l) => INFO_END.test(l));
    return footer && end + 1 < block.length ? tableBlock(block.slice(end + 1)) : [];
  }
  const isSeries = block.length >= 2 && /^\s*(Name: .*, )?(Length: \d+, )?dtype: \w+\s*$/.test(block[block.length - 1]!);
  if (isSeries) {
    // index label, dtype footer; pandas 2 adds the index name as a first line (value_counts)
    return block.map((l, i) => (i === block.length - 1 ? '' : boolsAsNumbers(l.replace(/^\S+\s*/, ''))));
  }
  // A printed DataFrame: an indented header line, maybe a line of index names ("Sex    Pclass
  // Title", or "Pclass" alone), then rows that start with an index label (with a MultiIndex,
  // rows repeat only the levels that change, so they may be indented).
  const row = /^\S+\s{2,}\S/;
  const header = /^\s+\S/;
  const footer = /^\[\d+ rows x \d+ columns\]$/;
  const isNames = (l: string): boolean => /^\S/.test(l) && !/\d/.test(l);
  let names = -1;
  const h = block.findIndex((l, i) => {
    if (!header.test(l) || i + 1 >= block.length) return false;
    const named = isNames(block[i + 1]!) && i + 2 < block.length;
    if (!named && !row.test(block[i + 1]!)) return false;
    const rowRe = named ? /^\S+\s+\S/ : row;
    const ok = block.slice(named ? i + 2 : i + 1).every((x) => rowRe.test(x) || header.test(x) || /^\S+\s*$/.test(x) || footer.test(x.trim()));
    if (ok && named) names = i + 1;
    return ok;
  });
  if (h < 0) return block;
  // Index levels are left-aligned under their names: the last level starts where its name does.
  const lastLevel = names >= 0 ? block[names]!.search(/\S+\s*$/) : -1;
  let inRows = false;
  return block.map((l, i) => {
    if (i < h || i === names) return i < h ? l : '';
    if (footer.test(l.trim())) return l;
    if (!inRows && header.test(l)) return ''; // column labels
    inRows = true;
    // The index label(s); with a MultiIndex, rows repeat only the levels that change (indented).
    const cut = lastLevel > 0 ? l.slice(lastLevel) : l;
    return boolsAsNumbers(cut.replace(/^\s*\S+\s*/, ''));
  });
}

/**
 * NumPy 2.0 (NEP 51) shows scalars with their type: `np.float64(0.5)`, `np.int64(3)`, `np.str_('a')`,
 * `np.True_`, where NumPy 1 printed `0.5`, `3`, `'a'`, `True` (in lists, dicts and tuples of scalars).
 * Presentation, not a result: read as NumPy 1 printed it, so lines align by the same template.
 */
export function numpy1Scalars(l: string): string {
  return l.replace(/\bnp\.(?:float|int|uint|complex|str|bytes|bool|longdouble|clongdouble)(?:\d+|_)?\(((?:[^()]|\([^()]*\))*)\)/g, '$1').replace(/\bnp\.(True|False)_/g, '$1');
}

/**
 * SciPy's test results, read as the tuples they were. `pearsonr` returned a plain tuple
 * `(0.398, 0.0)` until 1.9 and prints `PearsonRResult(statistic=0.398, pvalue=0.0)` now; the
 * namedtuples of other tests (`Ttest_indResult(statistic=..., pvalue=...)`) became result objects
 * with fields added since: `TtestResult` has `df` (1.10), `KstestResult` `statistic_location` and
 * `statistic_sign` (1.11), `LinregressResult` `intercept_stderr` (1.6). A `...Result(field=value, ...)`
 * line is read as the tuple of its values, without those later fields, so the old and new forms
 * align by the same template; otherwise the line would be taken for an estimator's configuration
 * repr and not compared at all. Presentation, not a result.
 */
const RESULT_FIELDS_THEN: Record<string, number> = { TtestResult: 2, KstestResult: 2, LinregressResult: 5 };

export function scipyResultTuples(l: string): string {
  const m = /^(\s*)([A-Z][A-Za-z0-9_]*Result)\((.*)\)\s*$/.exec(l);
  if (!m) return l;
  const parts: string[] = [];
  let depth = 0, start = 0;
  const body = m[3]!;
  for (let i = 0; i <= body.length; i++) {
    const ch = body[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if ((ch === ',' && depth === 0) || i === body.length) {
      parts.push(body.slice(start, i).trim().replace(/^[A-Za-z_]\w*\s*=\s*/, ''));
      start = i + 1;
    }
    if (depth < 0) return l;
  }
  const keep = RESULT_FIELDS_THEN[m[2]!] ?? parts.length;
  return `${m[1]}(${parts.slice(0, keep).join(', ')})`;
}

/**
 * scikit-learn's classification_report rows, read in today's layout. Before 0.20 its last row was
 * "avg / total" (the support-weighted mean, "weighted avg" since); 0.20 added "micro avg", which for
 * a multiclass report (precision = recall = f1 = accuracy) 0.21 replaced with an "accuracy" row holding
 * the f1 and support columns only. Presentation, not a result: the old rows become the new ones, so
 * they align. A "micro avg" whose three values differ (multilabel, a subset of labels) is kept.
 */
export function classificationReportRows(l: string): string {
  const total = /^(\s*)avg \/ total(\s)/.exec(l);
  if (total) return l.replace('avg / total', 'weighted avg');
  const m = /^(\s*)micro avg(\s+)(\S+)\s+(\S+)\s+(\S+)(\s+)(\d+)\s*$/.exec(l);
  if (!m || m[3] !== m[4] || m[4] !== m[5]) return l;
  return `${m[1]}accuracy${m[2]}${m[5]}${m[6]}${m[7]}`;
}

/** The numbers of one piece of text (a line or a table cell), after removing timings, dates, addresses... */
export function extractNumbers(text: string): number[] {
  let l = numpy1Scalars(text);
  for (const re of REMOVE) l = l.replace(re, ' ');
  const numbers: number[] = [];
  for (const m of l.matchAll(NUMBER)) {
    const v = Number(m[0].replace(/,/g, ''));
    if (Number.isFinite(v)) numbers.push(v);
  }
  return numbers;
}

/**
 * A listing of the author's directories (`!ls -l`, `check_output(['ls', '-alh', '.'])`, Windows
 * `!dir`, `!du -sh`): its sizes, link counts, dates and block totals describe the author's disk at
 * the time, not a result, and no repair can make them agree. (A plain `ls` shows only names.)
 */
const LISTING_LINE = [
  /^\s*[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s+\S+/, // ls -l
  /^\s*\d{2}[/.-]\d{2}[/.-]\d{4}\s+\d{1,2}:\d{2}(\s*[AP]M)?\s+(<DIR>|<JUNCTION>|[\d,.]+)\s+\S/, // dir
  /^\s*(Volume in drive|Volume Serial Number is|Directory of)\b/, // dir's header
  /^\s*\d+ (File|Dir)\(s\)\s+[\d,.]+ bytes/, // dir's footer
  /^\s*\d+(\.\d+)?[KMGT]?\t\S/, // du
];
const LISTING_TOTAL = /^\s*total \d+(\.\d+)?[KMGT]?\s*$/;

function withoutFileListings(ls: string[]): string[] {
  const listing = ls.map((l) => LISTING_LINE.some((re) => re.test(l)));
  return ls.map((l, i) => (listing[i] || (LISTING_TOTAL.test(l) && listing[i + 1]) ? '' : l));
}

export function numberLines(text: string, opts: { tables?: boolean } = {}): { lines: NumberLine[]; textLines: string[] } {
  let ls = withoutFileListings(joinBracketed(unwrapFrameReprs(visibleLines(text)))).map((l) => scipyResultTuples(numpy1Scalars(l)));
  ls = ls.map((l) => (CONFIG_REPR.some((re) => re.test(l)) ? '' : l));
  if (opts.tables !== false) ls = stripTableIndex(ls);
  const lines: NumberLine[] = [];
  const textLines: string[] = [];
  for (let l of ls) {
    if (l.trim() === '' || SKIP_LINE.some((re) => re.test(l))) continue;
    l = classificationReportRows(numpy1Scalars(l));
    for (const re of REMOVE) l = l.replace(re, ' ');
    const numbers: number[] = [];
    const template = l
      .replace(NUMBER, (m) => {
        const v = Number(m.replace(/,/g, ''));
        if (Number.isFinite(v)) numbers.push(v);
        return '#';
      })
      .replace(/\s+/g, ' ')
      .trim();
    if (!template) continue;
    if (numbers.length) lines.push({ template, numbers, raw: l.replace(/\s+/g, ' ').trim() });
    else textLines.push(template);
  }
  return { lines, textLines };
}

function isImageBundle(data: Record<string, unknown>): boolean {
  return Object.keys(data).some((k) => k.startsWith('image/'));
}

/** Blocks of lines separated by blank lines (not inside brackets: the slices of a 3-d array stay together). */
function segments(lines: string[]): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  let depth = 0;
  for (const l of lines) {
    if (l.trim() === '' && depth <= 0) {
      if (cur.length) out.push(cur);
      cur = [];
      depth = 0;
      continue;
    }
    cur.push(l);
    depth += bracketDepth(l);
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * The lines (and tables) of one text output. With an HTML table, all its lines belong to that
 * table; otherwise each block that is a printed DataFrame or Series (findTextTable) becomes a
 * table whose lines are tagged with it, and a "[N rows x M columns]" block gives its shape.
 */
function addText(res: CellNumbers, text: string, htmlTable: Table | undefined): void {
  const add = (t: string, table: number | undefined): void => {
    const { lines, textLines } = numberLines(t);
    res.lines.push(...(table === undefined ? lines : lines.map((l) => ({ ...l, table }))));
    res.textLines.push(...textLines);
  };
  if (htmlTable) {
    res.tables.push(htmlTable);
    add(text, res.tables.length - 1);
    return;
  }
  let last: number | undefined;
  for (const seg of segments(unwrapFrameReprs(visibleLines(text)))) {
    const shape = seg.length === 1 ? frameFooter(seg[0]!) : undefined;
    if (shape && last !== undefined) {
      res.tables[last]!.shape ??= shape;
      add(seg[0]!, last);
      continue;
    }
    let rest = seg;
    last = undefined;
    while (rest.length) {
      const found = findTextTable(rest);
      if (!found) { add(rest.join('\n'), undefined); last = undefined; break; }
      if (found.start > 0) add(rest.slice(0, found.start).join('\n'), undefined);
      res.tables.push(found.table);
      last = res.tables.length - 1;
      add(rest.slice(found.start, found.end).join('\n'), last);
      rest = rest.slice(found.end);
    }
  }
}

export function cellNumbers(cell: CodeCell): CellNumbers {
  const res: CellNumbers = { lines: [], tables: [], images: 0, htmlOnly: 0, textLines: [], hasError: false };
  for (const o of cell.outputs as Output[]) {
    let text: string | undefined;
    let table: Table | undefined;
    if (o.output_type === 'stream') {
      if (o.name !== 'stdout') continue;
      text = textOf(o.text);
    } else if (o.output_type === 'execute_result' || o.output_type === 'display_data') {
      const data = o.data ?? {};
      if (isImageBundle(data)) { res.images++; continue; }
      if (data['text/html'] !== undefined) {
        const tables = parseHtmlTables(textOf(data['text/html']));
        if (tables.length === 1) table = tables[0];
      }
      if (data['text/plain'] === undefined) {
        if (data['text/html'] !== undefined) res.htmlOnly++;
        if (table) res.tables.push(table);
        continue;
      }
      text = textOf(data['text/plain']);
    } else if (o.output_type === 'error') {
      res.hasError = true;
      continue;
    }
    if (text !== undefined) addText(res, text, table);
  }
  return res;
}

/**
 * Numbers of one table cell: booleans are 1/0; a number, a percentage, an interval or a list of
 * numbers gives its numbers; text ("CA. 2343", a ticket), NaN and dates have none.
 */
export function tableCellNumbers(text: string): number[] {
  const t = text.trim();
  if (t === 'True') return [1];
  if (t === 'False') return [0];
  const bare = t.replace(/\b(np\.)?(float|int|uint)(16|32|64)\(/g, '(');
  if (/[A-Za-z_]/.test(bare.replace(/(?<=\d)[eE](?=[-+]?\d)/g, ''))) return [];
  return extractNumbers(bare);
}

export function tableNumberCount(t: Table): number {
  return t.rows.reduce((s, r) => s + r.cells.reduce((k, c) => k + tableCellNumbers(c).length, 0), 0) + (t.shape ? 2 : 0); // shape: when the other has one
}
