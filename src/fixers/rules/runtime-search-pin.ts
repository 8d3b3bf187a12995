/**
 * Runtime reduction from the author's record: a hyperparameter search that is over the time budget
 * here (authors ran them on 4 to 12 cores, for minutes to hours) is restricted to the candidates
 * its stored outputs name. A notebook prints what its search found (`best_params_` as a dict, a
 * `best_estimator_` repr, a "best parameters" line, a ranked report); every parameter value printed
 * for a grid key that is one of the grid's values is kept, the rest of the grid is not run. The
 * candidates kept are scored exactly as in the full search (each candidate's cross-validation is
 * independent of the others), so the best of the kept ones is the author's best when this
 * environment still scores it best among them; the other candidates are not re-checked, which the
 * patch summary says. It is a candidate the loop keeps only when the run then gets past the slow
 * cell and no stored value disagrees (the printed best score is the check).
 *
 * Limits: every key of the grid needs evidence (a key nothing printed leaves the grid as it is);
 * a grid reached only through an unresolvable expression is left alone.
 */
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { applyTextEdits } from '../python/edits.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import type { ParsedCell } from './context.js';
import { calleeName as callName, replaceNode, sameNode, stringValue } from './tree.js';
import { escapeRe } from './helpers.js';
import type { TextEdit } from './types.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';

export const SEARCH_PIN_RULE = 'sklearn-search-pin-stored-best';

/** Calls that run a grid of candidates (scikit-learn's and the common add-ons' searches). */
const SEARCH_CALL = /(SearchCV|^ParameterGrid|^ParameterSampler)$/;

/** Code cells after the slow one whose stored outputs may print what its search found. */
export const EVIDENCE_CELLS = 4;

/**
 * A printed Python value: a quoted string, a number (possibly wrapped as np.float64(...)),
 * True/False/None, or a flat tuple or dict (`hidden_layer_sizes: (19,)`, `class_weight: {0: 2, 1: 3}`).
 */
const VALUE = String.raw`(?:np\.\w+\()?('[^'\n]*'|"[^"\n]*"|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)|True|False|None|\([^()\n]*\)|\{[^{}\n]*\})\)?`;

/** A compound value (tuple, dict) is compared by its text without spaces and with one kind of quote: the repr and the source then agree. */
type Scalar = { kind: 'str'; v: string } | { kind: 'num'; v: number } | { kind: 'const'; v: string } | { kind: 'text'; v: string; source: string };

const compact = (t: string): string => t.replace(/\s+/g, '').replace(/"/g, "'").replace(/,([)}])/g, (m, c: string) => (c === '}' ? c : m));

function scalarOfText(t: string): Scalar | undefined {
  if (/^[({]/.test(t)) return { kind: 'text', v: compact(t), source: t };
  if (/^['"]/.test(t)) return { kind: 'str', v: t.slice(1, -1) };
  if (t === 'True' || t === 'False' || t === 'None') return { kind: 'const', v: t };
  const n = Number(t);
  return Number.isFinite(n) ? { kind: 'num', v: n } : undefined;
}

function scalarOfNode(n: SyntaxNode): Scalar | undefined {
  if (n.type === 'string') { const s = stringValue(n); return s === undefined ? undefined : { kind: 'str', v: s }; }
  if (n.type === 'true' || n.type === 'false' || n.type === 'none') return { kind: 'const', v: n.text };
  if ((n.type === 'tuple' || n.type === 'dictionary') && !/[\n#]/.test(n.text)) return { kind: 'text', v: compact(n.text), source: n.text };
  if (n.type === 'integer' || n.type === 'float' || (n.type === 'unary_operator' && /^[-+]\s*[\d.]/.test(n.text))) {
    const v = Number(n.text.replace(/\s+/g, '').replace(/_/g, ''));
    return Number.isFinite(v) ? { kind: 'num', v } : undefined;
  }
  return undefined;
}

function sameScalar(a: Scalar, b: Scalar): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'num') return Math.abs(a.v - (b.v as number)) <= 1e-12 * Math.max(1, Math.abs(a.v));
  return a.v === b.v;
}


/** The text a code cell's stored outputs show (stdout, results and displays; not stderr, errors, search reprs or `[CV]` log lines). */
export function storedResultText(cell: Notebook['cells'][number] | undefined): string {
  if (!cell || cell.cell_type !== 'code') return '';
  const parts: string[] = [];
  for (const o of cell.outputs ?? []) {
    let t = '';
    if (o.output_type === 'stream') { if (o.name === 'stdout') t = sourceText(o.text); }
    else if (o.output_type === 'execute_result' || o.output_type === 'display_data') t = sourceText(o.data['text/plain'] as string | string[] | undefined);
    // A search's own repr lists its grid and its base estimator's defaults, not what it found.
    if (/^\s*\w*SearchCV\(/.test(t)) continue;
    // A verbose search's per-fit lines name every candidate tried, not the one found.
    if (t) parts.push(t.split('\n').filter((l) => !/^\s*\[CV\b/.test(l)).join('\n'));
  }
  return parts.join('\n');
}

/** Values printed for `key` in `text`: `'key': v` (dict reprs) and `key=v` (estimator reprs). */
export function printedValues(text: string, key: string): Scalar[] {
  const k = escapeRe(key);
  const out: Scalar[] = [];
  const res = [new RegExp(String.raw`(['"])${k}\1\s*:\s*${VALUE}`, 'g'), new RegExp(String.raw`(?<![\w.])()${k}\s*=\s*${VALUE}`, 'g')];
  for (const re of res) {
    for (const m of text.matchAll(re)) {
      const s = scalarOfText(m[2]!);
      if (s && !out.some((x) => sameScalar(x, s))) out.push(s);
    }
  }
  return out;
}

/** A dict literal whose values are candidate lists (a parameter grid), with string keys. */
function gridPairs(dict: SyntaxNode): Array<{ key: string; value: SyntaxNode }> | undefined {
  const pairs: Array<{ key: string; value: SyntaxNode }> = [];
  let searched = false;
  for (const p of dict.namedChildren) {
    if (!p) continue;
    if (p.type === 'comment') continue;
    if (p.type !== 'pair') return undefined;
    const key = stringValue(p.childForFieldName('key'));
    const value = p.childForFieldName('value');
    if (key === undefined || !value) return undefined;
    if (!['list', 'tuple', 'call', 'identifier', 'attribute', 'list_comprehension', 'subscript'].includes(value.type)) return undefined;
    if (value.type !== 'list' && value.type !== 'tuple') searched = true;
    else if (value.namedChildren.filter((c) => c && c.type !== 'comment').length > 1) searched = true;
    pairs.push({ key, value });
  }
  return pairs.length && searched ? pairs : undefined;
}

/**
 * The author's values of a grid's lists, by key, where the rules rewrote some (scikit-learn 1.3
 * removed `max_features='auto'`: the grid now holds `1.0` where the author's held the `'auto'` its
 * stored outputs print). Taken from the same dict of the author's cell (the same position among the
 * cell's dicts, the same keys, lists of the same lengths); element i of a list there is element i here.
 */
type AuthorValues = ReadonlyMap<string, ReadonlyArray<Scalar | undefined>>;

function authorValues(current: SyntaxNode, cell: ParsedCell, authorCell: ParsedCell | undefined): AuthorValues | undefined {
  if (!authorCell || authorCell.source === cell.source) return undefined;
  const dicts = (c: ParsedCell) => c.tree.rootNode.descendantsOfType('dictionary').filter((d): d is SyntaxNode => !!d);
  const mine = dicts(cell);
  const theirs = dicts(authorCell);
  const at = mine.findIndex((d) => sameNode(d, current));
  if (at < 0 || mine.length !== theirs.length) return undefined;
  const pairs = gridPairs(theirs[at]!);
  if (!pairs) return undefined;
  const out = new Map<string, Array<Scalar | undefined>>();
  for (const { key, value } of pairs) {
    if (value.type !== 'list' && value.type !== 'tuple') continue;
    out.set(key, value.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map(scalarOfNode));
  }
  return out;
}

/** The edits that restrict one grid dict to the printed values, or undefined when a key has no evidence or nothing shrinks. */
function pinDict(pairs: ReadonlyArray<{ key: string; value: SyntaxNode }>, evidence: string, author?: AuthorValues): { edits: TextEdit[]; before: number; after: number } | undefined {
  // `before` is NaN when a computed grid's size is not known from the source.
  const edits: TextEdit[] = [];
  let before = 1, after = 1;
  for (const { key, value } of pairs) {
    const printed = printedValues(evidence, key);
    if (!printed.length) return undefined;
    const literal = value.type === 'list' || value.type === 'tuple';
    const elems = literal ? value.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment') : [];
    const scalars = elems.map(scalarOfNode);
    if (literal && scalars.every((s) => s !== undefined)) {
      const theirs = author?.get(key);
      const was = theirs && theirs.length === elems.length ? theirs : undefined;
      const kept = elems.filter((_, i) => printed.some((p) => sameScalar(p, scalars[i]!) || (!!was?.[i] && sameScalar(p, was[i]!))));
      if (!kept.length) return undefined;
      before *= elems.length; after *= kept.length;
      if (kept.length < elems.length) edits.push(replaceNode(value, `[${kept.map((e) => e.text).join(', ')}]`));
      continue;
    }
    if (literal && elems.length <= 1) continue; // `[seed]`: one candidate already
    // A computed grid (np.logspace(...), a name, a distribution): the printed values, as printed.
    before = NaN; after *= printed.length;
    edits.push(replaceNode(value, `[${printed.map(scalarSource).join(', ')}]`));
  }
  return edits.length && (Number.isNaN(before) || after < before) ? { edits, before, after } : undefined;
}

/** The number of candidates of one grid dict, NaN when a value is computed (a name, a call). */
function gridSize(pairs: ReadonlyArray<{ value: SyntaxNode }>): number {
  return pairs.reduce((n, { value }) => n * (value.type === 'list' || value.type === 'tuple' ? value.namedChildren.filter((c) => c && c.type !== 'comment').length : NaN), 1);
}

function size(n: number): string {
  return Number.isNaN(n) ? '?' : String(n);
}

function scalarSource(s: Scalar): string {
  if (s.kind === 'text') return s.source;
  if (s.kind === 'str') return `'${s.v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return String(s.v);
}

/**
 * A grid a search the slow cell runs receives: its literal (`dicts`: one dict, or a list of dicts),
 * and where to write the restricted grid (`at`, in `cell`): the literal itself when the search call
 * holds it, else the name the call receives (so the grid's other uses, a print of it, another
 * search, keep the author's grid).
 */
interface Grid { cell: ParsedCell; literal: SyntaxNode; dicts: SyntaxNode[]; at: SyntaxNode }

function gridOf(node: SyntaxNode): SyntaxNode[] | undefined {
  if (node.type === 'dictionary') return gridPairs(node) ? [node] : undefined;
  if (node.type === 'list') {
    const ds = node.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
    return ds.length && ds.every((d) => d.type === 'dictionary' && gridPairs(d)) ? ds : undefined;
  }
  return undefined;
}

function enclosingFunction(node: SyntaxNode): SyntaxNode | undefined {
  for (let n: SyntaxNode | null = node.parent; n; n = n.parent) if (n.type === 'function_definition') return n;
  return undefined;
}

/** The name a statement binds its call's result to (`gs = GridSearchCV(...)`, `gs = GridSearchCV(...).fit(X, y)`). */
function boundName(call: SyntaxNode): string | undefined {
  let n: SyntaxNode | null = call;
  while (n?.parent && (n.parent.type === 'attribute' || n.parent.type === 'call')) n = n.parent;
  const asg = n?.parent;
  if (asg?.type !== 'assignment' || !sameNode(asg.childForFieldName('right'), n)) return undefined;
  const left = asg.childForFieldName('left');
  return left?.type === 'identifier' ? left.text : undefined;
}

/** The literal `name` holds where `call` reads it (by default a grid): the last `name = <literal>` before it, in its function or at top level. */
function resolveName(cells: readonly ParsedCell[], cell: ParsedCell, call: SyntaxNode, name: string, accept: (n: SyntaxNode) => boolean = (n) => !!gridOf(n)): SyntaxNode | undefined {
  return resolveBinding(cells, cell, call, name, accept)?.node;
}

function resolveBinding(cells: readonly ParsedCell[], cell: ParsedCell, call: SyntaxNode, name: string, accept: (n: SyntaxNode) => boolean): { node: SyntaxNode; cell: ParsedCell } | undefined {
  const fn = enclosingFunction(call);
  let found: { node: SyntaxNode; cell: ParsedCell } | undefined;
  for (const c of cells) {
    if (c.index > cell.index) break;
    if (fn && c !== cell) continue;
    for (const asg of c.idx.byType.get('assignment')) {
      if (asg.childForFieldName('left')?.text !== name) continue;
      if (c === cell && asg.startIndex >= call.startIndex) continue;
      const inner = enclosingFunction(asg);
      if (fn ? !(inner && sameNode(inner, fn)) : !!inner) continue;
      const right = asg.childForFieldName('right');
      found = right && accept(right) ? { node: right, cell: c } : undefined;
    }
  }
  return found;
}

/**
 * The grids of a search inside a loop over a list of model descriptions, the tutorial idiom
 * `for model in models: GridSearchCV(model["estimator"], param_grid=model["hyperparameters"])`
 * (or `params = model["params"]` above the call): each dict of the list holds one grid under that
 * key, searched in turn. Each grid is its own search, so each is pinned on its own and none is
 * dropped. The list is a literal in the loop header or bound to a name above the loop.
 */
function loopGrids(cells: readonly ParsedCell[], cell: ParsedCell, call: SyntaxNode, arg: SyntaxNode): Array<{ cell: ParsedCell; dict: SyntaxNode }> | undefined {
  let sub: SyntaxNode | null | undefined = arg;
  if (arg.type === 'identifier') {
    sub = undefined;
    for (let n: SyntaxNode | null = call.parent; n && !sub; n = n.parent) {
      if (n.type !== 'for_statement') continue;
      for (const asg of n.descendantsOfType('assignment')) {
        if (asg && asg.startIndex < call.startIndex && asg.childForFieldName('left')?.text === arg.text) sub = asg.childForFieldName('right');
      }
    }
  }
  if (sub?.type !== 'subscript') return undefined;
  const holder = sub.childForFieldName('value');
  const key = stringValue(sub.childForFieldName('subscript'));
  if (holder?.type !== 'identifier' || key === undefined) return undefined;
  let loop: SyntaxNode | undefined;
  for (let n: SyntaxNode | null = call.parent; n && !loop; n = n.parent) {
    if (n.type === 'for_statement' && n.childForFieldName('left')?.text === holder.text) loop = n;
  }
  const iterable = loop?.childForFieldName('right');
  if (!loop || !iterable) return undefined;
  const isModels = (n: SyntaxNode) => n.type === 'list' && n.namedChildren.some((d) => d?.type === 'dictionary');
  const list = iterable.type === 'identifier' ? resolveBinding(cells, cell, loop, iterable.text, isModels) : isModels(iterable) ? { node: iterable, cell } : undefined;
  if (!list) return undefined;
  const out: Array<{ cell: ParsedCell; dict: SyntaxNode }> = [];
  for (const d of list.node.namedChildren) {
    if (d?.type !== 'dictionary') continue;
    for (const p of d.namedChildren) {
      if (p?.type !== 'pair' || stringValue(p.childForFieldName('key')) !== key) continue;
      const v = p.childForFieldName('value');
      if (v?.type === 'dictionary' && gridPairs(v)) out.push({ cell: list.cell, dict: v });
    }
  }
  return out.length ? out : undefined;
}

/**
 * The grids the slow cell runs. A search call (a `*SearchCV`, or a notebook function whose body
 * runs one) is run by the slow cell when it is in it, when its result is bound to a name the slow
 * cell uses (built above, fitted here), or when it sits in a function the slow cell calls. Its
 * arguments that are grid literals, or names bound to one, are its grids.
 */
function gridsRun(cells: readonly ParsedCell[], slow: ParsedCell): Grid[] {
  const upTo = cells.filter((c) => c.index <= slow.index);
  const used = new Set<string>();
  for (const id of slow.tree.rootNode.descendantsOfType('identifier')) if (id) used.add(id.text);
  const searchFns = new Set<string>();
  for (const c of upTo) {
    for (const f of c.idx.byType.get('function_definition')) {
      if (f.descendantsOfType('call').some((k) => !!k && SEARCH_CALL.test(callName(k) ?? ''))) searchFns.add(f.childForFieldName('name')?.text ?? '');
    }
  }
  const grids: Grid[] = [];
  for (const c of upTo) {
    for (const call of c.idx.byType.get('call')) {
      const name = callName(call) ?? '';
      if (!SEARCH_CALL.test(name) && !searchFns.has(name)) continue;
      const fn = enclosingFunction(call);
      const bound = boundName(call);
      const run = c === slow || (!!bound && used.has(bound)) || (!!fn && used.has(fn.childForFieldName('name')?.text ?? ''));
      if (!run) continue;
      for (const a of call.childForFieldName('arguments')?.namedChildren ?? []) {
        const v = a?.type === 'keyword_argument' ? a.childForFieldName('value') : a;
        if (!v) continue;
        const literal = v.type === 'identifier' ? resolveName(cells, c, call, v.text) : gridOf(v) ? v : undefined;
        const dicts = literal && gridOf(literal);
        if (literal && dicts) grids.push({ cell: c, literal, dicts, at: v });
        // One search per model description: each grid pinned where it is written.
        else for (const g of loopGrids(cells, c, call, v) ?? []) grids.push({ cell: g.cell, literal: g.dict, dicts: [g.dict], at: g.dict });
      }
    }
  }
  return grids;
}

/** The code cells from `slow` on whose stored outputs may show its search's result. */
function evidenceText(original: Notebook, cells: readonly ParsedCell[], slow: number): string {
  const after = cells.filter((c) => c.index > slow);
  const texts = [storedResultText(original.cells[slow])];
  for (const [i, c] of after.entries()) {
    // Stop at the next grid or search: what follows is another search's.
    if ([...c.tree.rootNode.descendantsOfType('dictionary')].some((d) => !!d && gridPairs(d))) break;
    if (c.tree.rootNode.descendantsOfType('call').some((k) => !!k && SEARCH_CALL.test(callName(k) ?? ''))) break;
    // Past the cells right after the search, only a cell that reads what a search found
    // (`grid.best_params_` shown ten cells later, after a prediction and a score).
    if (i >= EVIDENCE_CELLS && !BEST_READ.test(c.source)) continue;
    texts.push(storedResultText(original.cells[c.index]));
  }
  return texts.join('\n');
}

/** What a fitted search found, read back. */
const BEST_READ = /\.best_(?:params|estimator)_\b/;

/** A node's text with edits (offsets in its cell) applied. */
function withEdits(node: SyntaxNode, edits: readonly TextEdit[]): string {
  return applyTextEdits(node.text, edits.map((e) => ({ ...e, start: e.start - node.startIndex, end: e.end - node.startIndex })));
}

/** A grid dict's pairs on one line, with the edits of its values applied (written at a call site). */
function compactDict(dict: SyntaxNode, edits: readonly TextEdit[]): string {
  const pairs = gridPairs(dict)!.map(({ value }) => {
    const pair = value.parent!;
    const key = pair.childForFieldName('key')!.text;
    const e = edits.find((x) => x.start === value.startIndex && x.end === value.endIndex);
    return `${key}: ${e ? e.text : value.text}`;
  });
  return `{${pairs.join(', ')}}`;
}

/** The search-pin patch for the slow cell, or none. `original` holds the author's stored outputs. */
export async function searchPinPatch(nb: Notebook, original: Notebook, slowCell: number): Promise<Patch | undefined> {
  // Cells inserted or removed since (structural edits) would misalign the stored outputs.
  if (nb.cells.length !== original.cells.length) return undefined;
  const cells = await parseNotebookCells(nb);
  // The author's cells are parsed only when there is evidence to pin by (for grids a rule rewrote).
  let authorCells: ParsedCell[] = [];
  const authorCell = (c: ParsedCell) => authorCells.find((a) => a.index === c.index);
  try {
    const slow = cells.find((c) => c.index === slowCell);
    if (!slow) return undefined;
    const evidence = evidenceText(original, cells, slowCell);
    if (!evidence.trim()) return undefined;
    authorCells = await parseNotebookCells(original);
    const edits = new Map<number, TextEdit[]>();
    const counts: string[] = [];
    for (const g of gridsRun(cells, slow)) {
      const inPlace = sameNode(g.at, g.literal);
      if (g.dicts.length === 1 && g.literal.type === 'dictionary') {
        const pin = pinDict(gridPairs(g.literal)!, evidence, authorValues(g.literal, g.cell, authorCell(g.cell)));
        if (!pin) continue;
        if (inPlace) for (const e of pin.edits) addCellEdit(edits, g.cell.index, e);
        else addCellEdit(edits, g.cell.index, replaceNode(g.at, compactDict(g.literal, pin.edits)));
        counts.push(`${size(pin.before)} -> ${pin.after}`);
        continue;
      }
      // A list of grids: the grids the evidence covers, each pinned; the others not run.
      const kept: string[] = [];
      let before = 0, after = 0;
      for (const d of g.dicts) {
        const pairs = gridPairs(d)!;
        const size = gridSize(pairs);
        before += size;
        const pin = pinDict(pairs, evidence, authorValues(d, g.cell, authorCell(g.cell)));
        const covered = pin ?? (pairs.every((p) => printedValues(evidence, p.key).length) ? { edits: [], before: size, after: size } : undefined);
        if (!covered) continue;
        after += covered.after;
        kept.push(inPlace ? withEdits(d, covered.edits) : compactDict(d, covered.edits));
      }
      if (!kept.length || after >= before) continue; // (NaN when a size is computed: the comparison is false)
      addCellEdit(edits, g.cell.index, replaceNode(g.at, `[${kept.join(', ')}]`));
      counts.push(`${size(before)} -> ${after}`);
    }
    if (!edits.size) return undefined;
    const changed = [...edits.keys()].sort((a, b) => a - b);
    return {
      fixType: 'runtime-reduction',
      source: { kind: 'rule', ruleIds: [SEARCH_PIN_RULE] },
      edits: cellReplacements(nb, edits),
      summary: `the search run by cell ${slowCell} restricted to the candidates its stored outputs name (candidates ${counts.join(', ')}; in cells ${changed.join(', ')}); the others were not re-scored`,
    };
  } finally {
    disposeCells(cells);
    disposeCells(authorCells);
  }
}
