/**
 * Parameter dicts as notebooks spell them, for the rules that rewrite an estimator's parameter
 * values wherever they are written (constructor keywords, and the dicts passed to GridSearchCV,
 * `clf(**params)`, `set_params(**p)`, `xgb.train(params)`):
 *
 *   {'max_features': ['auto', 'sqrt']}            a dict display
 *   dict(max_features=['auto', 'sqrt'])           the dict() constructor
 *   max_features = ['auto', 'sqrt']               a list bound to a name earlier in the cell,
 *   {'max_features': max_features}                then used as a value (either spelling)
 *
 * The last form is common in grids (one variable per parameter, then the dict), and a rule that read
 * only literal values missed it; a grid search then fails every candidate that holds a removed value,
 * scores it NaN (error_score) and silently picks another, so the notebook drifts without an error.
 * The value behind a name is followed only within the cell, and only when the name is assigned once
 * there, by a plain `name = <literal>` before the dict: what the rule rewrites is then exactly what
 * the dict held.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import { stringValue } from './tree.js';

export interface ParamEntry {
  /** The key as written: 'max_features', or 'clf__max_features' for a pipeline step. */
  key: string;
  /** The value: the literal the dict holds (followed through a name bound in the cell). */
  value: SyntaxNode;
  /** The pair or keyword argument the entry is. */
  node: SyntaxNode;
}

const LITERALS = new Set(['list', 'tuple', 'set', 'string', 'concatenated_string', 'integer', 'float', 'true', 'false', 'none']);

/** Every parameter-dict entry of the cell, in document order. */
export function paramEntries(ctx: CellContext): ParamEntry[] {
  return ctx.nb.memo(`param-entries:${ctx.index}`, () => {
    const out: ParamEntry[] = [];
    for (const pair of ctx.nodes('pair')) {
      const key = stringValue(pair.childForFieldName('key'));
      const value = pair.childForFieldName('value');
      if (key !== undefined && value) out.push({ key, value: literalBehind(ctx, value), node: pair });
    }
    for (const { call } of ctx.callsNamed(['dict'])) {
      // The builtin only: `dict` rebound by the notebook is something else.
      if (ctx.nb.isBound('dict')) break;
      const args = call.childForFieldName('arguments');
      for (const kw of args?.namedChildren ?? []) {
        if (kw?.type !== 'keyword_argument') continue;
        const key = kw.childForFieldName('name')?.text;
        const value = kw.childForFieldName('value');
        if (key && value) out.push({ key, value: literalBehind(ctx, value), node: kw });
      }
    }
    return out.sort((a, b) => a.node.startIndex - b.node.startIndex);
  });
}

/** A param-grid key naming `param`, directly or through a pipeline step (`clf__param`). */
export function isParamKey(key: string | undefined, param: string): boolean {
  return !!key && (key === param || key.endsWith(`__${param}`));
}

/**
 * Entries whose key names `param`, each value once: a list two keys share (`{'a__p': ps, 'b__p': ps}`,
 * one name bound to it) is one value to rewrite, not two overlapping edits.
 */
export function paramEntriesFor(ctx: CellContext, param: string): ParamEntry[] {
  const seen = new Set<number>();
  return paramEntries(ctx).filter((e) => isParamKey(e.key, param) && !seen.has(e.value.startIndex) && seen.add(e.value.startIndex));
}

/**
 * The literal a value stands for: the value itself, or, for a bare name, the right-hand side of its
 * one plain assignment in the cell before this use (a literal, of `kinds`), else the name.
 */
export function literalBehind(ctx: CellContext, value: SyntaxNode, kinds: ReadonlySet<string> = LITERALS): SyntaxNode {
  if (value.type !== 'identifier') return value;
  let found: SyntaxNode | undefined;
  let count = 0;
  for (const a of ctx.nodes('assignment')) {
    const left = a.childForFieldName('left');
    if (left?.type !== 'identifier' || left.text !== value.text) continue;
    count++;
    if (a.endIndex <= value.startIndex) found = a.childForFieldName('right') ?? undefined;
  }
  // Also rebound by `+=`, a loop or a function parameter in the cell: not one value.
  const rebound = ctx.nodes('augmented_assignment').some((a) => a.childForFieldName('left')?.text === value.text);
  if (count !== 1 || rebound || !found || !kinds.has(found.type)) return value;
  return found;
}

/**
 * Whether a value reaches cell `cell` by name: the statement holding `node` binds it with
 * `name = ...` (the value itself, or a call or list around it: `pipe = Pipeline([('lr', LR())])`)
 * and `cell`, later, mentions that name; or `node` is in `cell` itself. A runtime error raised in
 * `cell` by the search or fit that used the value then speaks for it (it names the estimator, the
 * parameter, the value it rejected).
 */
export function flowsInto(ctx: CellContext, node: SyntaxNode, cell: number): boolean {
  if (cell === ctx.index) return true;
  if (cell < ctx.index) return false;
  let assign: SyntaxNode | null = node.parent;
  while (assign && assign.type !== 'assignment' && !STATEMENT_BOUNDARY.has(assign.type)) assign = assign.parent;
  const left = assign?.type === 'assignment' ? assign.childForFieldName('left') : undefined;
  if (left?.type !== 'identifier') return false;
  return ctx.nb.identifiers(left.text).some((i) => i.cell === cell);
}

const STATEMENT_BOUNDARY = new Set(['module', 'block', 'expression_statement', 'function_definition', 'class_definition', 'lambda']);

/** Whether the entry's dict reaches cell `cell` by name (flowsInto of the dict display or dict() call). */
export function dictFlowsInto(ctx: CellContext, entry: ParamEntry, cell: number): boolean {
  // The pair's dictionary, or the keyword's dict() call.
  const dict = entry.node.parent?.type === 'argument_list' ? entry.node.parent.parent : entry.node.parent;
  return !!dict && flowsInto(ctx, dict, cell);
}
