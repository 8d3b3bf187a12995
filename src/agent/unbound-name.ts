/**
 * A NameError for a name no cell of the notebook binds is not an API break: the author ran a cell
 * that was later deleted (or defined the name in a console session), so the code that made the
 * value is missing and no rewrite can restore it. Said plainly, it is `unfixable`, not
 * `no-fix-available`. Anything that could bind a name invisibly (a star import, `%run`, `exec`,
 * writes to `globals()`, `%store -r`) keeps the claim back, as do Python 2 builtins and loop
 * targets (a Python 2 comprehension leaked its variable): those are rules' business.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';

const PY2_BUILTINS = new Set(['unicode', 'xrange', 'raw_input', 'reduce', 'file', 'long', 'basestring', 'unichr', 'execfile', 'cmp', 'reload', 'buffer', 'apply', 'intern', 'coerce']);
const INVISIBLE_BINDING = /^\s*%(run|store)\b|^\s*from\s+\S+\s+import\s+\*|\bexec\s*\(|\bexecfile\s*\(|\bglobals\s*\(\s*\)\s*\[|\bglobals\s*\(\s*\)\s*\.update|\bvars\s*\(\s*\)\s*\[|\bsetattr\s*\(\s*(sys\.modules|__builtins__)/m;

/** The name a NameError names, when no cell binds it and nothing could bind it invisibly. */
export function unboundName(nb: Notebook, error: { ename: string; evalue: string }): string | undefined {
  if (error.ename !== 'NameError') return undefined;
  const name = /name '(\w+)' is not defined/.exec(error.evalue)?.[1];
  if (!name || PY2_BUILTINS.has(name)) return undefined;
  const sources = nb.cells.filter((c) => c.cell_type === 'code').map((c) => sourceText(c.source));
  if (sources.some((s) => INVISIBLE_BINDING.test(s))) return undefined;
  // Python 2 leaked a list comprehension's variable into the enclosing scope: a name that is a
  // loop target anywhere may be one of those, which a rule could still repair.
  const loopTarget = new RegExp(`\\bfor\\s+[\\w\\s,()]*\\b${name}\\b[\\w\\s,()]*\\bin\\b`);
  if (sources.some((s) => loopTarget.test(s))) return undefined;
  const analysis = analyzeNotebook(nb);
  if (analysis.cells.some((c) => c.hasSyntaxErrors || c.defines.includes(name))) return undefined;
  return name;
}
