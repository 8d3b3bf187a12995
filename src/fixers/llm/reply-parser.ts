/**
 * The reply contract: how a model's free text becomes a Patch. Three accepted forms:
 *
 * 1. single block (the default, most reliable): a short plan, then exactly ONE fenced
 *    ```python block = the complete new source of the target cell.
 * 2. cell sections: a plan, then one `## === cell N` header per changed cell, each followed
 *    by exactly one ```python block = the complete new source of cell N.
 * 3. search/replace: one or more blocks
 *        cell N                (optional; default: the target cell)
 *        <<<<<<< SEARCH
 *        exact lines of the current cell
 *        =======
 *        replacement lines
 *        >>>>>>> REPLACE
 *    optionally inside a fence. SEARCH must occur exactly once in the cell (checked by the
 *    validator, which knows the notebook).
 *
 * Cell numbers are positions in notebook.cells (markdown cells count), as shown in the prompt.
 * Errors are precise and come with a `reflection` message to send back to the model.
 *
 * Besides a patch, a reply may be an ACTION (`replyAction`): `GIVE_UP: reason` (the model says the
 * problem cannot be fixed faithfully; work on it stops) or `VIEW_CELL: N` (the model asks for a cell
 * it was not shown). A reply with no code block that plainly asks for a cell counts as a request too:
 * rejecting it as "no code block" only makes the model ask again.
 */
import type { CellEdit, FixType, Patch, PatchSource } from '../../core/patch.js';

export type ReplyFormat = 'single-block' | 'cell-sections' | 'search-replace';

export interface ParseReplyOptions {
  targetCell: number;
  fixType: FixType;
  source: PatchSource;
  /** Set when the provider reported the reply was cut off by max tokens (improves the error). */
  truncated?: boolean;
}

export type ParsedReply =
  | { ok: true; patch: Patch; plan: string; format: ReplyFormat }
  | { ok: false; error: string; reflection: string };

const PY_LANGS = new Set(['', 'python', 'py', 'python3', 'py3', 'ipython', 'ipython3', 'jupyter']);
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+.-]*)[^`]*$/;
const SECTION = /^\s*#{1,6}\s*={2,}\s*cell\s*\[?\s*(\d+)\s*\]?\s*(?:={2,}\s*)?:?\s*$/i;
/** Structural sections: "## === insert before|after cell N" (+ one block), "## === move cell N before cell M", "## === delete cell N: reason". */
const INSERT = /^\s*#{1,6}\s*={2,}\s*insert\s+(?:a\s+new\s+cell\s+)?(before|after)\s+cell\s*\[?\s*(\d+)\s*\]?\s*(?:={2,}\s*)?:?\s*$/i;
const MOVE = /^\s*#{1,6}\s*={2,}\s*move\s+cell\s*\[?\s*(\d+)\s*\]?\s+(?:to\s+)?before\s+cell\s*\[?\s*(\d+)\s*\]?\s*(?:={2,}\s*)?$/i;
const DELETE = /^\s*#{1,6}\s*={2,}\s*delete\s+cell\s*\[?\s*(\d+)\s*\]?\s*(?:={2,})?\s*(?:[:\-\u2013\u2014]|because\b)?\s*(.*?)\s*(?:={2,})?\s*$/i;
const SR_START = /^\s*<{5,9}\s*SEARCH\s*$/;
const SR_MID = /^\s*={5,9}\s*$/;
const SR_END = /^\s*>{5,9}\s*REPLACE\s*$/;
const CELL_LINE = /^\s*(?:#{1,6}\s*)?(?:={2,}\s*)?cell\s*\[?\s*(\d+)\s*\]?\s*(?:={2,})?\s*:?\s*$/i;

interface Block {
  lang: string;
  /** Line index of the opening fence. */
  open: number;
  /** Line index of the closing fence. */
  close: number;
  code: string;
}

interface Scan {
  lines: string[];
  blocks: Block[];
  /** lines[i] is inside (or is) a fence. */
  fenced: boolean[];
  unclosed?: number;
}

function scan(text: string): Scan {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  const fenced = lines.map(() => false);
  let i = 0;
  while (i < lines.length) {
    const m = FENCE.exec(lines[i]!);
    if (!m) { i++; continue; }
    const indent = m[1]!.length;
    const marker = m[2]!;
    const lang = m[3]!.toLowerCase();
    let j = i + 1;
    const closeRe = new RegExp(`^\\s*${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    while (j < lines.length && !closeRe.test(lines[j]!)) j++;
    if (j >= lines.length) {
      for (let k = i; k < lines.length; k++) fenced[k] = true;
      return { lines, blocks, fenced, unclosed: i };
    }
    const body = lines.slice(i + 1, j).map((l) => (indent && l.startsWith(' '.repeat(indent)) ? l.slice(indent) : l));
    blocks.push({ lang, open: i, close: j, code: body.join('\n') });
    for (let k = i; k <= j; k++) fenced[k] = true;
    i = j + 1;
  }
  return { lines, blocks, fenced };
}

function contractReminder(targetCell: number): string {
  return (
    `Reply again with a short plan and then exactly one \`\`\`python block holding the COMPLETE new source of cell ${targetCell}. ` +
    'To change several cells, put a "## === cell N" header before each cell\'s single ```python block. ' +
    'For a small edit you may instead use SEARCH/REPLACE blocks ("cell N", "<<<<<<< SEARCH", exact current lines, "=======", new lines, ">>>>>>> REPLACE"). ' +
    'Structure: "## === insert before|after cell N" + one ```python block, "## === move cell N before cell M", "## === delete cell N: reason".'
  );
}

function fail(error: string, opts: ParseReplyOptions): ParsedReply {
  return { ok: false, error, reflection: `Your previous reply could not be used: ${error}\n${contractReminder(opts.targetCell)}` };
}

function summarize(plan: string, opts: ParseReplyOptions, cells: number[]): string {
  const first = plan
    .split('\n')
    .map((l) => l.replace(/\*\*/g, '').replace(/^\s*(?:#+|[-*]|\d+[.)])\s*/, '').replace(/^plan\s*:\s*/i, '').trim())
    .find((l) => l.length > 0);
  const fallback = `LLM ${opts.fixType} of cell${cells.length > 1 ? 's' : ''} ${cells.join(', ')}`;
  if (!first) return fallback;
  return first.length > 200 ? first.slice(0, 197) + '...' : first;
}

function planText(s: Scan, skip: (i: number) => boolean): string {
  return s.lines.filter((_, i) => !s.fenced[i] && !skip(i)).join('\n').trim();
}

function patchOf(edits: CellEdit[], plan: string, opts: ParseReplyOptions, format: ReplyFormat): ParsedReply {
  const cells = [...new Set(edits.map((e) => e.cell))];
  return {
    ok: true,
    format,
    plan,
    patch: { fixType: opts.fixType, source: opts.source, edits, summary: summarize(plan, opts, cells) },
  };
}

export type ReplyAction =
  | { kind: 'give-up'; reason: string }
  | { kind: 'view'; cells: number[] };

const GIVE_UP = /^[\s*_>#-]*GIVE[_ ]UP[*_]*\s*[:\-\u2013\u2014][*_]*\s*(.+)$/i;
const VIEW_CELL = /^[\s*_>#-]*VIEW[_ ]CELLS?[*_]*\s*[:\-]?[*_]*\s*((?:\d+)(?:\s*(?:,|and|&)\s*\d+)*)\s*\.?\s*$/i;
/** A plain-language request for a cell ("could you show me cell 95", "I need to see cells 3 and 95"). */
const ASKS_FOR_CELL = /\b(?:show|see|share|provide|send|paste|view|need|give)\b[^.?\n]{0,40}?\bcells?\s*#?\s*((?:\d+)(?:\s*(?:,|and|&)\s*\d+)*)/i;

function cellList(text: string): number[] {
  return [...new Set((text.match(/\d+/g) ?? []).map(Number))];
}

/** A give-up or a request for cells, or undefined when the reply should be read as a patch. */
export function replyAction(text: string): ReplyAction | undefined {
  const s = scan(text);
  const free = s.lines.filter((_, i) => !s.fenced[i]);
  for (const l of free) {
    const m = GIVE_UP.exec(l);
    if (m) return { kind: 'give-up', reason: m[1]!.replace(/[*_`]+$/, '').trim() };
  }
  for (const l of free) {
    const m = VIEW_CELL.exec(l);
    if (m) return { kind: 'view', cells: cellList(m[1]!) };
  }
  // Only a reply that carries no code at all can be a plain request; one with code is read as a patch.
  if (s.blocks.length === 0 && !s.lines.some((l) => SR_START.test(l))) {
    const m = ASKS_FOR_CELL.exec(free.join('\n'));
    if (m) return { kind: 'view', cells: cellList(m[1]!) };
  }
  return undefined;
}

export function parseReply(text: string, opts: ParseReplyOptions): ParsedReply {
  if (text.trim() === '') return fail('the reply is empty.', opts);
  const s = scan(text);
  if (s.lines.some((l) => SR_START.test(l))) return parseSearchReplace(s, opts);
  if (s.unclosed !== undefined) {
    return fail(
      `the reply ends inside a code block opened on line ${s.unclosed + 1} that is never closed with \`\`\`` +
        (opts.truncated ? ' (the reply was cut off at the token limit: keep the plan shorter and send only the changed cell)' : '') + '.',
      opts,
    );
  }
  const sectionLines = s.lines.map((l, i) => (!s.fenced[i] ? header(l) : null));
  if (sectionLines.some((m) => m)) return parseSections(s, sectionLines, opts);

  const py = s.blocks.filter((b) => PY_LANGS.has(b.lang));
  if (s.blocks.length === 0) return fail('the reply has no fenced ```python code block.', opts);
  if (py.length === 0) {
    return fail(`the reply has no python code block (found a \`\`\`${s.blocks[0]!.lang} block instead).`, opts);
  }
  if (py.length > 1) {
    return fail(
      `the reply has ${py.length} fenced code blocks (on lines ${py.map((b) => b.open + 1).join(', ')}); the single-block form needs exactly one, the complete new source of cell ${opts.targetCell}.`,
      opts,
    );
  }
  const code = py[0]!.code;
  if (code.trim() === '') return fail('the python block is empty.', opts);
  return patchOf([{ cell: opts.targetCell, op: 'replace', newSource: code }], planText(s, () => false), opts, 'single-block');
}

type Header =
  | { kind: 'cell'; cell: number }
  | { kind: 'insert'; cell: number; position: 'before' | 'after' }
  | { kind: 'move'; cell: number; before: number }
  | { kind: 'delete'; cell: number; reason: string };

/** A section header line (outside fences), or null. */
function header(line: string): Header | null {
  let m = SECTION.exec(line);
  if (m) return { kind: 'cell', cell: Number(m[1]) };
  m = INSERT.exec(line);
  if (m) return { kind: 'insert', position: m[1]!.toLowerCase() as 'before' | 'after', cell: Number(m[2]) };
  m = MOVE.exec(line);
  if (m) return { kind: 'move', cell: Number(m[1]), before: Number(m[2]) };
  m = DELETE.exec(line);
  if (m) return { kind: 'delete', cell: Number(m[1]), reason: m[2]!.trim() };
  return null;
}

function describe(h: Header): string {
  switch (h.kind) {
    case 'cell': return `"## === cell ${h.cell}"`;
    case 'insert': return `"## === insert ${h.position} cell ${h.cell}"`;
    case 'move': return `"## === move cell ${h.cell} before cell ${h.before}"`;
    case 'delete': return `"## === delete cell ${h.cell}"`;
  }
}

function parseSections(s: Scan, headers: Array<Header | null>, opts: ParseReplyOptions): ParsedReply {
  const starts = headers.map((m, i) => (m ? i : -1)).filter((i) => i >= 0);
  const before = s.blocks.filter((b) => b.open < starts[0]! && PY_LANGS.has(b.lang));
  if (before.length) {
    return fail(`a code block (line ${before[0]!.open + 1}) comes before the first "## === cell N" header; every block must follow its cell's header.`, opts);
  }
  const edits: CellEdit[] = [];
  const seen = new Set<number>();
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!;
    const to = k + 1 < starts.length ? starts[k + 1]! : s.lines.length;
    const h = headers[from]!;
    const inSection = s.blocks.filter((b) => b.open > from && b.open < to && PY_LANGS.has(b.lang));
    if (h.kind === 'move' || h.kind === 'delete') {
      if (inSection.length) return fail(`the section ${describe(h)} (line ${from + 1}) takes no code block; put changed code under a "## === cell N" header.`, opts);
      if (h.kind === 'move') edits.push({ cell: h.cell, op: 'move', before: h.before });
      else {
        if (!h.reason) return fail(`"## === delete cell ${h.cell}" (line ${from + 1}) needs a reason: "## === delete cell ${h.cell}: why it must go".`, opts);
        edits.push({ cell: h.cell, op: 'delete', reason: h.reason });
      }
      continue;
    }
    if (h.kind === 'cell') {
      if (seen.has(h.cell)) return fail(`cell ${h.cell} has two "## === cell ${h.cell}" sections; give each cell once.`, opts);
      seen.add(h.cell);
    }
    if (inSection.length === 0) return fail(`the section ${describe(h)} (line ${from + 1}) has no \`\`\`python block.`, opts);
    if (inSection.length > 1) {
      return fail(`the section ${describe(h)} has ${inSection.length} code blocks; give exactly one block with the complete source of the cell.`, opts);
    }
    const code = inSection[0]!.code;
    if (code.trim() === '') return fail(`the python block of ${describe(h)} is empty.`, opts);
    edits.push(h.kind === 'cell' ? { cell: h.cell, op: 'replace', newSource: code } : { cell: h.cell, op: 'insert', position: h.position, newSource: code });
  }
  return patchOf(edits, planText(s, (i) => headers[i] !== null), opts, 'cell-sections');
}

function parseSearchReplace(s: Scan, opts: ParseReplyOptions): ParsedReply {
  const { lines } = s;
  const edits: CellEdit[] = [];
  const used = new Set<number>();
  let i = 0;
  let n = 0;
  while (i < lines.length) {
    if (!SR_START.test(lines[i]!)) { i++; continue; }
    n++;
    // The optional "cell N" line: the nearest non-blank, non-fence line above the marker.
    let cell = opts.targetCell;
    for (let k = i - 1; k >= 0 && k >= i - 4; k--) {
      const l = lines[k]!;
      if (l.trim() === '' || FENCE.test(l)) continue;
      const m = CELL_LINE.exec(l);
      if (m) { cell = Number(m[1]); used.add(k); }
      break;
    }
    const mid = findFrom(lines, i + 1, SR_MID, SR_START);
    if (mid < 0) return fail(`search/replace block ${n} (line ${i + 1}) has no "=======" line after its SEARCH part.`, opts);
    const end = findFrom(lines, mid + 1, SR_END, SR_START);
    if (end < 0) return fail(`search/replace block ${n} (line ${i + 1}) is not closed with ">>>>>>> REPLACE".`, opts);
    const search = lines.slice(i + 1, mid).join('\n');
    const replace = lines.slice(mid + 1, end).join('\n');
    if (search.trim() === '') {
      return fail(`search/replace block ${n} has an empty SEARCH part; to rewrite a whole cell use a "## === cell N" section with one \`\`\`python block.`, opts);
    }
    if (search === replace) return fail(`search/replace block ${n} replaces text with the same text.`, opts);
    edits.push({ cell, op: 'search-replace', search, replace });
    for (let k = i; k <= end; k++) used.add(k);
    i = end + 1;
  }
  // Code blocks that hold no search/replace markers are a second format mixed in.
  const stray = s.blocks.filter((b) => PY_LANGS.has(b.lang) && b.code.trim() !== '' && !lines.slice(b.open + 1, b.close).some((l) => SR_START.test(l)));
  if (stray.length) {
    return fail(`the reply mixes search/replace blocks with a plain code block (line ${stray[0]!.open + 1}); use one format.`, opts);
  }
  // Moves and deletes carry no code, so they go with search/replace blocks too.
  for (let k = 0; k < lines.length; k++) {
    const h = used.has(k) || s.fenced[k] ? null : header(lines[k]!);
    if (!h || h.kind === 'cell') continue;
    if (h.kind === 'insert') return fail(`"## === insert ${h.position} cell ${h.cell}" needs its \`\`\`python block; use the "## === ..." sections for the whole reply instead of search/replace.`, opts);
    if (h.kind === 'delete' && !h.reason) return fail(`"## === delete cell ${h.cell}" (line ${k + 1}) needs a reason: "## === delete cell ${h.cell}: why it must go".`, opts);
    edits.push(h.kind === 'move' ? { cell: h.cell, op: 'move', before: h.before } : { cell: h.cell, op: 'delete', reason: h.reason });
    used.add(k);
  }
  const plan = lines
    .filter((l, k) => !used.has(k) && !FENCE.test(l))
    .join('\n')
    .trim();
  return patchOf(edits, plan, opts, 'search-replace');
}

function findFrom(lines: string[], from: number, re: RegExp, stop: RegExp): number {
  for (let k = from; k < lines.length; k++) {
    if (re.test(lines[k]!)) return k;
    if (stop.test(lines[k]!)) return -1;
  }
  return -1;
}
