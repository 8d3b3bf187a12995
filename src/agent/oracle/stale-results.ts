/**
 * Stored results a cell's current source cannot have produced. IPython shows an `execute_result`
 * only for a cell whose last statement is an expression with a value; a stored one under a cell that
 * ends in an assignment, an import, a loop, `print(...)` or a pandas call with `inplace=True` (which
 * returns None) was printed by an earlier version of the cell, which the author edited and did not
 * re-run. Such a value is stale: reported, never judged.
 *
 * The last top-level statement comes from the cell's parse tree (fixers/python/statements.ts).
 */
import { lastTopLevelStatement } from '../../fixers/python/statements.js';

/** Calls whose value is None whatever they are given. */
const NONE_CALL = /^(print|exec|display|plt\.(show|close|clf|tight_layout)|sns\.set(_style|_palette|_context|_theme)?|warnings\.filterwarnings|np\.random\.seed|random\.seed)$/;

/** The last top-level statement of a cell's source as written (comments aside), or undefined. */
export function lastStatement(source: string): string | undefined {
  return lastTopLevelStatement(source)?.text;
}

/** False for a cell of comments and blank lines only (what an author leaves after commenting code out). */
export function hasStatements(source: string): boolean {
  return source.trim() !== '' && lastTopLevelStatement(source) !== undefined;
}

/**
 * The cell only asks for documentation: every non-comment line is `help(...)`, `X?` / `X??`, `?X`,
 * `print(X.__doc__)` or `inspect.signature(...)`. What it shows is the installed library's
 * docstring and defaults (xgboost 0.x's `__init__(self, max_depth=3, ...)` then), never a result.
 */
export function showsLibraryDocs(source: string): boolean {
  const lines = source.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const doc = /^(?:help\(.*\)|\?{1,2}[\w.]+|[\w.()]+\?{1,2}|print\(\s*[\w.]+\.__doc__\s*\)|[\w.]+\.__doc__|(?:inspect\.)?signature\(.*\))\s*;?$/;
  return lines.length > 0 && lines.every((l) => doc.test(l));
}

/** True when the cell's last statement cannot give IPython a value to show as its result. */
export function cannotHaveResult(source: string): boolean {
  const last = lastTopLevelStatement(source);
  if (last === undefined) return true;
  if (last.ipython && last.ipython !== 'magic-assignment') return false; // a magic may return a value
  if (last.type === 'ERROR') return false; // unreadable: judged as usual
  // A trailing semicolon suppresses the result.
  if (last.semicolon || last.type !== 'expression_statement') return true;
  if (last.expression === 'assignment' || last.expression === 'augmented_assignment') return true;
  if (last.expression !== 'call') return false;
  // A pandas method called with inplace=True returns None.
  return NONE_CALL.test(last.callee ?? '') || (!!last.method && last.keywords?.inplace === 'True');
}

/** Methods whose result has at most n rows, n their first argument (or keyword), with pandas' default when none is given. */
const ROW_LIMITED: Record<string, { keyword: string; default?: number }> = {
  head: { keyword: 'n', default: 5 }, tail: { keyword: 'n', default: 5 }, nlargest: { keyword: 'n' }, nsmallest: { keyword: 'n' }, sample: { keyword: 'n', default: 1 },
};

/**
 * The most rows the cell's result can have, when its last statement is `x.head(10)`, `x.tail()`,
 * `x.nlargest(5, col)`, `x.sample(n=3)` with a literal count; else undefined.
 */
export function resultRowLimit(source: string): number | undefined {
  const last = lastTopLevelStatement(source);
  if (!last || last.semicolon || last.expression !== 'call' || !last.method) return undefined;
  const method = /\.(\w+)$/.exec(last.callee ?? '')?.[1] ?? '';
  const spec = ROW_LIMITED[method];
  if (!spec) return undefined;
  const given = last.keywords?.[spec.keyword] ?? last.positional?.[0];
  if (given === undefined) return spec.default;
  return /^\d+$/.test(given) ? Number(given) : undefined;
}

/** The row count a stored frame's repr states: `[1460 rows x 13 columns]` (text) or `1460 rows × 13 columns` (HTML). */
export function statedRows(text: string): number | undefined {
  const m = /\[(\d+) rows x \d+ columns\]|<p>(\d+) rows × \d+ columns<\/p>/.exec(text);
  return m ? Number(m[1] ?? m[2]) : undefined;
}
