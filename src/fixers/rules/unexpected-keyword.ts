/**
 * "X.__init__() got an unexpected keyword argument 'k'" for a keyword no rule knows: the callee's
 * current signature (the symbol index, keyed by the `__qualname__` Python names in the message) says
 * what it accepts now. Candidates, in order: `k` renamed to a current parameter of a similar name that
 * the call does not pass yet (`n_iter` -> `max_iter`, `sparse` -> `sparse_output`, `colors` ->
 * `color`), then `k` dropped (most removed keywords were no-ops at the end: `presort`, `silent`,
 * `min_impurity_split`). Generate-and-verify keeps the first that runs and agrees with the stored
 * outputs; a keyword whose removal changed the results is rejected there.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import { callArgs, removeArgument, removeListItem, renameKeyword, stringValue } from './tree.js';
import type { RuntimeFrame } from './context.js';
import type { TextEdit } from './types.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';

const UNEXPECTED = /([\w.]+)\(\) got an unexpected keyword argument '(\w+)'/;

/** At most this many renames are tried before the drop. */
const MAX_RENAMES = 3;

export interface KeywordCandidate {
  patch: Patch;
  label: string;
}

/** How alike two parameter names are (0 = unrelated); higher is tried first. */
export function nameSimilarity(old: string, now: string): number {
  if (old === now) return 0;
  const a = old.toLowerCase(), b = now.toLowerCase();
  const ta = a.split('_'), tb = b.split('_');
  const last = ta[ta.length - 1]!;
  if (last.length > 2 && last === tb[tb.length - 1] && ta.length === tb.length) return 6; // n_iter -> max_iter
  if (a === `${b}s` || b === `${a}s`) return 5; // colors -> color
  // sparse -> sparse_output (one more word); n_iter -> n_iter_no_change is a different setting.
  if (b.startsWith(`${a}_`) || a.startsWith(`${b}_`)) return Math.abs(ta.length - tb.length) === 1 ? 5 : 2;
  const d = editDistance(a, b);
  if (d <= 2 && Math.min(a.length, b.length) > 3) return 3 - d / 2;
  if (ta.some((t) => t.length > 3 && tb.includes(t))) return 1;
  return 0;
}

function editDistance(a: string, b: string): number {
  const dp = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]!;
    dp[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = dp[j]!;
      dp[j] = Math.min(dp[j]! + 1, dp[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return dp[b.length]!;
}

export async function unexpectedKeywordPatches(
  nb: Notebook,
  failingCell: number,
  error: { ename: string; evalue: string },
  signatures: Readonly<Record<string, readonly string[]>>,
  frames: readonly RuntimeFrame[] = [],
): Promise<KeywordCandidate[]> {
  // TypeError from Python's own check; matplotlib's Artist.set raises AttributeError with the same words.
  if (error.ename !== 'TypeError' && error.ename !== 'AttributeError') return [];
  const m = UNEXPECTED.exec(error.evalue);
  if (!m) return [];
  const [, callee, kw] = m as unknown as [string, string, string];
  const params = signatures[callee];
  // Only a callee the index knows: its parameters are the rename candidates.
  if (!params) return [];
  const lines = new Map<number, number[]>();
  for (const f of frames) lines.set(f.cell, [...(lines.get(f.cell) ?? []), f.line]);
  const cells = await parseNotebookCells(nb);
  try {
    // The calls passing `kw`: on the traceback's notebook lines, else anywhere in the failing cell.
    const sites: Array<{ cell: number; call: SyntaxNode; kwNode: SyntaxNode }> = [];
    for (const c of cells) {
      const at = lines.get(c.index);
      if (c.index !== failingCell && !at) continue;
      for (const call of c.tree.rootNode.descendantsOfType('call')) {
        if (!call) continue;
        const node = callArgs(call)?.keywords.get(kw);
        if (!node) continue;
        if (at?.length && !at.some((l) => call.startPosition.row + 1 <= l && call.endPosition.row + 1 >= l)) continue;
        sites.push({ cell: c.index, call, kwNode: node });
      }
    }
    if (!sites.length) return splattedEntryPatches(nb, cells, failingCell, lines, callee, kw, params);
    const used = new Set(sites.flatMap(({ call }) => [...(callArgs(call)?.keywords.keys() ?? [])]));
    const renames = similarParams(kw, params, used);
    const patchOf = (edit: (s: (typeof sites)[number]) => TextEdit, summary: string): Patch => sitesPatch(nb, sites, edit, summary);
    const out: KeywordCandidate[] = renames.map(({ p }) => ({
      label: `${kw}= -> ${p}=`,
      patch: patchOf(({ kwNode }) => renameKeyword(kwNode, p), `${callee}() no longer takes ${kw}=; its current parameter ${p}= has a similar name`),
    }));
    out.push({
      label: `drop ${kw}=`,
      patch: patchOf(({ cell, call, kwNode }) => removeArgument(callArgs(call)!, kwNode, sourceText(nb.cells[cell]!.source)), `${callee}() no longer takes ${kw}=; dropped (kept only if the stored outputs agree)`),
    });
    return out;
  } finally {
    disposeCells(cells);
  }
}

/**
 * The keyword came from a dict splatted into the call (`GridSearchCV(**grid_params)` in a helper,
 * `grid_params = {'estimator': m, 'iid': False, ...}` in the failing cell): when a call on the
 * traceback's lines has a `**` argument, the dict literals' entries keyed by the keyword, in the
 * failing cell and the traceback's cells, are the sites: renamed to a similar current parameter,
 * or dropped, as a keyword would be.
 */
function splattedEntryPatches(
  nb: Notebook, cells: ReadonlyArray<{ index: number; tree: { rootNode: SyntaxNode } }>, failingCell: number,
  lines: ReadonlyMap<number, number[]>, callee: string, kw: string, params: readonly string[],
): KeywordCandidate[] {
  const onLines = (c: number, n: SyntaxNode) => (lines.get(c) ?? []).some((l) => n.startPosition.row + 1 <= l && n.endPosition.row + 1 >= l);
  const splatted = cells.some((c) => lines.has(c.index) && c.tree.rootNode.descendantsOfType('dictionary_splat').some((d) => !!d && d.parent?.type === 'argument_list' && onLines(c.index, d)));
  if (!splatted) return [];
  // The dicts that reach the call: written on a traceback line (`f(**{...})`), or bound to a name
  // the traceback's lines use (`run_model(grid_params)` calling `GridSearchCV(**params)`).
  const named = new Set<string>();
  for (const c of cells) {
    if (!lines.has(c.index)) continue;
    for (const id of c.tree.rootNode.descendantsOfType('identifier')) if (id && onLines(c.index, id)) named.add(id.text);
  }
  const reaches = (c: number, dict: SyntaxNode) => {
    if (onLines(c, dict)) return true;
    const a = dict.parent;
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : undefined;
    return left?.type === 'identifier' && named.has(left.text);
  };
  const entries: Array<{ cell: number; pair: SyntaxNode }> = [];
  for (const c of cells) {
    if (c.index !== failingCell && !lines.has(c.index)) continue;
    for (const pair of c.tree.rootNode.descendantsOfType('pair')) {
      if (pair?.parent?.type === 'dictionary' && stringValue(pair.childForFieldName('key')) === kw && reaches(c.index, pair.parent)) entries.push({ cell: c.index, pair });
    }
  }
  if (!entries.length) return [];
  const used = new Set(entries.flatMap(({ pair }) => pair.parent!.namedChildren.map((p) => (p?.type === 'pair' ? stringValue(p.childForFieldName('key')) : undefined)).filter((k): k is string => !!k)));
  const patchOf = (edit: (pair: SyntaxNode, cell: number) => TextEdit, summary: string): Patch => sitesPatch(nb, entries, ({ pair, cell }) => edit(pair, cell), summary);
  const renames = similarParams(kw, params, used);
  const out: KeywordCandidate[] = renames.map(({ p }) => ({
    label: `'${kw}' -> '${p}' in the dict passed as **kwargs`,
    patch: patchOf((pair) => { const key = pair.childForFieldName('key')!; return { start: key.startIndex, end: key.endIndex, text: key.text.replace(kw, p) }; }, `${callee}() no longer takes ${kw}= (from a dict passed as **kwargs); its current parameter ${p}= has a similar name`),
  }));
  out.push({
    label: `drop '${kw}' from the dict passed as **kwargs`,
    patch: patchOf((pair, cell) => removeEntry(pair, sourceText(nb.cells[cell]!.source)), `${callee}() no longer takes ${kw}= (from a dict passed as **kwargs); the entry is dropped (kept only if the stored outputs agree)`),
  });
  return out;
}

/** Remove one entry of a dict literal with its separating comma (removeListItem). */
function removeEntry(pair: SyntaxNode, source: string): TextEdit {
  const dict = pair.parent!;
  return removeListItem(dict.namedChildren.filter((n): n is SyntaxNode => !!n && n.type !== 'comment'), pair, source, dict.endIndex - 1);
}

/** The callee's current parameters the call does not pass yet that are named like `kw`, most alike first. */
function similarParams(kw: string, params: readonly string[], used: ReadonlySet<string>): Array<{ p: string; s: number }> {
  return params
    .filter((p) => p !== '**' && !used.has(p))
    .map((p) => ({ p, s: nameSimilarity(kw, p) }))
    .filter((x) => x.s > 0)
    .sort((x, y) => y.s - x.s || x.p.localeCompare(y.p))
    .slice(0, MAX_RENAMES);
}

/** One patch editing every site (a keyword or a dict entry) the same way, cell by cell. */
function sitesPatch<S extends { cell: number }>(nb: Notebook, sites: readonly S[], edit: (s: S) => TextEdit, summary: string): Patch {
  const byCell = new Map<number, TextEdit[]>();
  for (const s of sites) addCellEdit(byCell, s.cell, edit(s));
  return { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['unexpected-keyword'] }, edits: cellReplacements(nb, byCell), summary };
}

/**
 * scikit-learn's own check of a parameter name (`set_params`, a grid search's parameter grid):
 * "Invalid parameter 'base_estimator' for estimator AdaBoostClassifier(...). Valid parameters are:
 * [...]". The message lists what the estimator takes now, so the candidates are renames to a similar
 * valid name, applied wherever the notebook spells the old one: the keys of its parameter grids
 * (`'base_estimator__max_depth'`, `'clf__base_estimator__max_depth'`) and `set_params(...)` keywords.
 */
const INVALID_PARAMETER = /Invalid parameter '(\w+)' for estimator [\s\S]*?Valid parameters are: \[([^\]]*)\]/;

export async function invalidParameterPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string }): Promise<KeywordCandidate[]> {
  const m = error.ename === 'ValueError' ? INVALID_PARAMETER.exec(error.evalue) : null;
  if (!m) return [];
  const [, old, list] = m as unknown as [string, string, string];
  const valid = [...list.matchAll(/'(\w+)'/g)].map((x) => x[1]!);
  const renames = valid.map((p) => ({ p, s: nameSimilarity(old, p) })).filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.p.localeCompare(b.p)).slice(0, MAX_RENAMES).map((x) => x.p);
  if (!renames.length) return [];
  const segment = new RegExp(`(^|__)${old}(?=__|$)`);
  const cells = await parseNotebookCells(nb);
  try {
    const sites: Array<{ cell: number; node: SyntaxNode; kind: 'string' | 'keyword' }> = [];
    for (const c of cells) {
      if (c.index > failingCell) continue;
      for (const s of c.tree.rootNode.descendantsOfType('string')) {
        const v = s ? stringValue(s) : undefined;
        if (s && v !== undefined && segment.test(v)) sites.push({ cell: c.index, node: s, kind: 'string' });
      }
      for (const call of c.tree.rootNode.descendantsOfType('call')) {
        const fn = call?.childForFieldName('function');
        const kw = call && fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'set_params' ? callArgs(call)?.keywords.get(old) : undefined;
        if (kw) sites.push({ cell: c.index, node: kw, kind: 'keyword' });
      }
    }
    if (!sites.length) return [];
    return renames.map((p) => {
      const byCell = new Map<number, TextEdit[]>();
      for (const s of sites) {
        addCellEdit(byCell, s.cell, s.kind === 'keyword' ? renameKeyword(s.node, p)
          : { start: s.node.startIndex, end: s.node.endIndex, text: s.node.text.replace(new RegExp(`(^['"]|__)${old}(?=__|['"]$)`), `$1${p}`) });
      }
      return {
        label: `parameter ${old} -> ${p}`,
        patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['invalid-parameter'] }, edits: cellReplacements(nb, byCell), summary: `the estimator no longer has a parameter ${old}; its similar parameter ${p} where the notebook names it (grid keys, set_params)` },
      };
    });
  } finally {
    disposeCells(cells);
  }
}
