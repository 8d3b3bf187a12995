/**
 * An import that fails and that nothing uses: drop it. Old notebooks import far more than they use
 * (`from pandas import Panel`, `import lightgbm as lgb` next to an xgboost model, a
 * `sklearn.cross_validation` helper left from an earlier draft). When the import is what fails and the
 * bound name is never referenced anywhere in the notebook, removing it changes nothing the notebook
 * computes; the smallest edit that lets it run.
 *
 * Recognised from the runtime error (the message names the module or the name), so a library that
 * is merely absent but unused costs one run; used imports are left to the other mechanisms.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { deleteStatement, err, rule } from './helpers.js';

/** What the error says is missing: a module (`No module named 'a.b'`) or a name from a module. */
function missingFromMessage(evalue: string): { module?: string; name?: string } | undefined {
  const mod = /No module named '([\w.]+)'/.exec(evalue);
  if (mod) return { module: mod[1] };
  const name = /cannot import name '(\w+)'(?: from '([\w.]+)')?/.exec(evalue);
  if (name) return { name: name[1], ...(name[2] ? { module: name[2] } : {}) };
  // A library's own ImportError for a removed name, raised from the module when the name is looked
  // up (scikit-learn 1.2+: "`load_boston` has been removed from scikit-learn since version 1.2").
  const quoted = /`(\w+)`/.exec(evalue);
  if (quoted) return { name: quoted[1] };
  return undefined;
}

/** Is `name` referenced anywhere in the notebook outside import statements (as a variable, not an attribute member)? */
function used(ctx: CellContext, name: string): boolean {
  for (const { node } of ctx.nb.identifiers(name)) {
    if (insideImport(node)) continue;
    const p = node.parent;
    if (p?.type === 'attribute' && p.childForFieldName('attribute')?.startIndex === node.startIndex) continue;
    if (p?.type === 'keyword_argument' && p.childForFieldName('name')?.startIndex === node.startIndex) continue;
    return true;
  }
  return false;
}

function insideImport(node: SyntaxNode): boolean {
  for (let n: SyntaxNode | null = node.parent; n; n = n.parent) {
    if (n.type === 'import_statement' || n.type === 'import_from_statement') return true;
    if (n.type === 'module' || n.type === 'block') return false;
  }
  return false;
}

/** The local name an import item binds: `a.b` -> `a`, `a.b as c` -> `c`, `X as Y` -> `Y`. */
function boundName(item: SyntaxNode, fromImport: boolean): string | undefined {
  if (item.type === 'aliased_import') return item.childForFieldName('alias')?.text;
  if (item.type === 'dotted_name') return fromImport ? item.text.split('.').pop() : item.text.split('.')[0];
  return undefined;
}

/** Remove one item of an import list, or the whole statement when it is the only one. */
function removeItem(ctx: CellContext, stmt: SyntaxNode, items: SyntaxNode[], item: SyntaxNode): TextEdit {
  if (items.length === 1) return deleteStatement(ctx, stmt);
  const i = items.indexOf(item);
  // Take the separating comma with it: the one after (or, for the last item, the one before).
  if (i < items.length - 1) return { start: item.startIndex, end: items[i + 1].startIndex, text: '' };
  return { start: items[i - 1].endIndex, end: item.endIndex, text: '' };
}

export const dropUnusedFailingImport: Rule = rule({
  id: 'env-drop-unused-failing-import',
  library: 'environment',
  title: 'a failing import nothing uses',
  old: 'from pandas import Panel  # never used',
  new: '(removed)',
  trigger: 'error',
  errors: [err('ImportError', /No module named '[\w.]+'|cannot import name '\w+'|`\w+`/)],
  link: 'https://docs.python.org/3/reference/import.html',
  message: 'this import fails in the environment and the notebook never uses the name it binds: removed',
  fixtures: [{
    before: 'import numpy as np\nimport lightgbm as lgb\nfrom pandas import DataFrame\nprint(DataFrame({"a": [1]}).shape, np.zeros(2).shape)',
    after: 'import numpy as np\nfrom pandas import DataFrame\nprint(DataFrame({"a": [1]}).shape, np.zeros(2).shape)',
    expect: '(1, 1) (2,)',
    beforeError: 'ModuleNotFoundError',
  }, {
    before: 'from sklearn.datasets import make_classification, load_boston\nX, y = make_classification(n_samples=20, random_state=0)\nprint(X.shape)',
    after: 'from sklearn.datasets import make_classification\nX, y = make_classification(n_samples=20, random_state=0)\nprint(X.shape)',
    expect: '(20, 20)',
    beforeError: 'ImportError',
    context: { runtime: { ename: 'ImportError', evalue: '\n`load_boston` has been removed from scikit-learn since version 1.2.', lines: [1] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const rt = ctx.nb.info.runtime;
    // Without a runtime error, only imports of libraries the environment is known not to ship fail for sure.
    const missing = rt ? missingFromMessage(rt.evalue) : undefined;
    if (rt && !missing) return;
    const unavailable = new Set(Object.keys(ctx.nb.info.environment.unavailable).map((n) => n.replace(/-/g, '_')));
    for (const stmt of [...ctx.nodes('import_statement'), ...ctx.nodes('import_from_statement')]) {
      const fromImport = stmt.type === 'import_from_statement';
      const modNode = fromImport ? stmt.childForFieldName('module_name') : undefined;
      const items = stmt.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
      for (const item of items) {
        const dn = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        if (!dn) continue;
        const module = fromImport ? modNode?.text.replace(/\s/g, '') ?? '' : dn.text.replace(/\s/g, '');
        const name = fromImport ? dn.text : undefined;
        const fails = missing
          ? (missing.name ? name === missing.name && (!missing.module || module === missing.module || module.endsWith(`.${missing.module}`) || missing.module.endsWith(module))
            : module === missing.module || module.startsWith(`${missing.module}.`))
          : unavailable.has(module.split('.')[0]);
        if (!fails) continue;
        const bound = boundName(item, fromImport);
        if (!bound || used(ctx, bound)) continue;
        yield { node: item, edits: [removeItem(ctx, stmt, items, item)] };
        break; // one item per statement per pass (the engine re-parses and comes back for the rest)
      }
    }
  },
});
