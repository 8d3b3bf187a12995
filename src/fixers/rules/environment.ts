/** Imports that cannot work in the environment: libraries it does not ship (with candidates), and unknown modules. */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { PY2_MODULE_NAMES } from './py2.js';

/** Top-level module names of pip distributions whose import name differs. */
const IMPORT_NAMES: Record<string, string> = {
  'scikit-optimize': 'skopt', 'pandas-profiling': 'pandas_profiling', 'scikit-learn': 'sklearn', 'Pillow': 'PIL',
  'opencv-python': 'cv2', 'beautifulsoup4': 'bs4', 'PyYAML': 'yaml',
};

function importedTopModules(ctx: CellContext): Array<{ module: string; full: string; node: SyntaxNode }> {
  const out: Array<{ module: string; full: string; node: SyntaxNode }> = [];
  for (const stmt of ctx.nodes('import_statement')) {
    for (const item of stmt.childrenForFieldName('name')) {
      if (!item) continue;
      const dn = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
      if (dn?.type === 'dotted_name') out.push({ module: dn.text.split('.')[0].trim(), full: dn.text.replace(/\s/g, ''), node: item });
    }
  }
  for (const stmt of ctx.nodes('import_from_statement')) {
    const mod = stmt.childForFieldName('module_name');
    if (mod?.type === 'dotted_name') out.push({ module: mod.text.split('.')[0].trim(), full: mod.text.replace(/\s/g, ''), node: stmt });
  }
  return out;
}

function unavailableIndex(ctx: CellContext): Map<string, { name: string; candidates: string[] }> {
  return ctx.nb.memo('unavailable-index', () => buildUnavailableIndex(ctx));
}

function buildUnavailableIndex(ctx: CellContext): Map<string, { name: string; candidates: string[] }> {
  const map = new Map<string, { name: string; candidates: string[] }>();
  for (const [name, candidates] of Object.entries(ctx.nb.info.environment.unavailable)) {
    map.set(IMPORT_NAMES[name] ?? name.replace(/-/g, '_'), { name, candidates });
  }
  return map;
}

const unavailable = rule({
  id: 'env-unavailable-library',
  gate: { nodeTypes: ['import_statement', 'import_from_statement'] },
  library: 'environment',
  title: 'library not in the environment',
  old: 'import lightgbm as lgb',
  new: 'a library the environment has (candidates listed per library)',
  autoFixable: false,
  errors: [err('ModuleNotFoundError', /No module named '\w+'/)],
  link: 'https://packages.debian.org/trixie/',
  message: 'this library is not available in the environment',
  fixtures: [{
    before: 'import lightgbm as lgb\nprint(lgb.LGBMClassifier().__class__.__name__)',
    manual: 'from sklearn.ensemble import HistGradientBoostingClassifier\nprint(HistGradientBoostingClassifier().__class__.__name__)',
    expect: 'HistGradientBoostingClassifier',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const index = unavailableIndex(ctx);
    const env = ctx.nb.info.environment.name;
    for (const { module, node } of importedTopModules(ctx)) {
      const u = index.get(module);
      if (!u) continue;
      const cands = u.candidates.length ? `; candidates: ${u.candidates.join('; ')}` : '';
      yield { node, message: `${u.name} is not available in ${env}${cands}` };
    }
  },
});

/** Modules a cell writes with %%writefile (local helpers defined in the notebook itself). */
function writtenModules(ctx: CellContext): Set<string> {
  return ctx.nb.memo('written-modules', () => new Set(ctx.nb.info.writtenFiles.filter((f) => f.endsWith('.py')).map((f) => f.split('/').pop()!.slice(0, -3))));
}

const missingModule = rule({
  id: 'env-missing-module',
  gate: { nodeTypes: ['import_statement', 'import_from_statement'] },
  library: 'environment',
  title: 'module not installed',
  old: 'import xlwt',
  new: 'an installed module, or the missing helper file',
  autoFixable: false,
  errors: [err('ModuleNotFoundError', /No module named '[\w.]+'/)],
  link: 'https://packages.debian.org/trixie/',
  message: 'this module is not installed in the environment',
  fixtures: [{
    before: "import xlwt\nwb = xlwt.Workbook()\nprint('ok')",
    manual: "import openpyxl\nwb = openpyxl.Workbook()\nprint('ok')",
    expect: 'ok',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const info = ctx.nb.info.environment;
    if (info.modules.size === 0) return;
    const unavail = unavailableIndex(ctx);
    const local = writtenModules(ctx);
    for (const { module, full, node } of importedTopModules(ctx)) {
      if (!module || info.modules.has(module) || unavail.has(module) || local.has(module) || module === '__future__') continue;
      // Colab's own package: env-colab-only removes what uses it.
      if (full === 'google.colab' || full.startsWith('google.colab.')) continue;
      // Python 2 module names are handled by the py2 rules.
      if (module === 'imp' || PY2_MODULE_NAMES.includes(module)) continue;
      yield { node, message: `${module} is not installed in ${info.name} and is not one of its Debian-packaged libraries; if it is a helper module from the author's repository, that file is missing` };
    }
  },
});

const magicSpace = rule({
  id: 'env-ipython-magic-space',
  library: 'environment',
  title: 'a space after % in a magic',
  old: '% matplotlib inline',
  new: '%matplotlib inline',
  editsIPython: true,
  errors: [err('UsageError', /Line magic function `%` not found|Cell magic `%%` not found/)],
  link: 'https://ipython.readthedocs.io/en/stable/whatsnew/version7.html',
  message: "the IPython in the environment (7+) does not accept a space between % and the magic's name",
  fixtures: [{
    before: "% matplotlib inline\nprint('ok')",
    after: "%matplotlib inline\nprint('ok')",
    expect: 'ok',
    beforeError: 'UsageError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const [s, e] of ctx.cell.masked) {
      const m = /^(%{1,2})([ \t]+)(?=[A-Za-z_])/.exec(ctx.cell.source.slice(s, e).replace(/^[ \t]+/, ''));
      if (!m) continue;
      const lead = ctx.cell.source.slice(s, e).length - ctx.cell.source.slice(s, e).replace(/^[ \t]+/, '').length;
      const at = s + lead + m[1].length;
      const node = ctx.root.descendantForIndex(s) ?? ctx.root;
      yield { node, edits: [{ start: at, end: at + m[2].length, text: '' }] };
    }
  },
});

export const environmentRules: Rule[] = [unavailable, missingModule, magicSpace];
