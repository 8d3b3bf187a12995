/**
 * The notebook's era read from its stored outputs: what the author's libraries printed is evidence
 * of which versions they were. Pins of old defaults apply only when the era predates the change, and
 * a notebook's metadata rarely says more than the Python version; the outputs often say much more:
 *
 *  - scikit-learn estimator reprs listing every parameter (`RandomForestClassifier(bootstrap=True,
 *    class_weight=None, ...)`) come from before 0.23, which made `print_changed_only=True` the default
 *    (whatsnew v0.23, "Changed display of estimators");
 *  - such a repr shows the defaults the author's run really used: `n_estimators=10` on a forest, or
 *    `solver='liblinear'` on a LogisticRegression the source never configured, are 0.21-or-older
 *    defaults (changed in 0.22); deprecation-period values (`'warn'`, `'auto_deprecated'`) are 0.20–0.21;
 *  - a long frame shown truncated with more than 10 rows comes from before pandas 1.0, which added
 *    `display.min_rows` (10 rows: 5 and 5; 0.x showed display.max_rows of them);
 *  - library warnings name their file (`.../sklearn/ensemble/forest.py:246: FutureWarning: ... will
 *    change from 10 in version 0.20 to 100 in 0.22`): the library was older than the version announced.
 *
 * Every bound carries its reason, which the pins quote in their messages.
 */
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import type { EraBound, EraHint, Library } from './types.js';
import type { Finding } from '../../core/patch.js';
import { ruleById } from './registry.js';

/** Python package directory names -> the rule engine's library names. */
const PACKAGE_LIBRARY: Record<string, Library> = {
  sklearn: 'scikit-learn', pandas: 'pandas', numpy: 'numpy', matplotlib: 'matplotlib', seaborn: 'seaborn',
  xgboost: 'xgboost', scipy: 'scipy', statsmodels: 'statsmodels',
};

/** Estimator classes whose full repr has these parameters (a handful is enough to recognise one). */
const FULL_REPR_PARAMS = ['class_weight=', 'verbose=', 'n_jobs=', 'random_state=', 'warm_start=', 'copy_X=', 'fit_intercept=', 'max_iter=', 'tol=', 'bootstrap=', 'criterion=', 'min_samples_split='];

/** Defaults that changed in scikit-learn 0.22, as the old repr shows them: class, param, old value. */
const OLD_DEFAULTS_022: Array<{ classes: RegExp; param: string; value: RegExp }> = [
  { classes: /^(RandomForest|ExtraTrees)(Classifier|Regressor)$/, param: 'n_estimators', value: /^10$/ },
  { classes: /^LogisticRegression$/, param: 'solver', value: /^'liblinear'$/ },
  { classes: /^LogisticRegression$/, param: 'multi_class', value: /^'ovr'$/ },
  { classes: /^(SVC|SVR|NuSVC|NuSVR|OneClassSVM)$/, param: 'gamma', value: /^'auto'$/ },
];

const WARN_VALUES = /=\s*'(warn|auto_deprecated)'/;

export function eraFromStoredOutputs(nb: Notebook): Partial<Record<Library, EraBound>> {
  const bounds: Partial<Record<Library, EraBound>> = {};
  const bound = (lib: Library, version: string, reason: string) => {
    const cur = bounds[lib];
    if (!cur || versionLess(version, cur.version)) bounds[lib] = { version, reason };
  };
  const source = nb.cells.filter((c) => c.cell_type === 'code').map((c) => sourceText(c.source)).join('\n');
  for (const cell of nb.cells) {
    if (cell.cell_type !== 'code') continue;
    for (const text of outputTexts(cell.outputs as any[])) {
      // A repr may be wrapped over several lines; join them so a call's parameters are one string.
      const joined = text.replace(/,\s*\n\s*/g, ', ');
      for (const m of joined.matchAll(/\b([A-Z][A-Za-z0-9]*)\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g)) {
        const [, cls, params] = m;
        const hits = FULL_REPR_PARAMS.filter((p) => params.includes(p)).length;
        if (hits < 3) continue;
        bound('scikit-learn', '0.23', `its stored output shows a full ${cls}(...) repr, printed by scikit-learn before 0.23`);
        if (WARN_VALUES.test(params)) bound('scikit-learn', '0.22', `its stored ${cls} repr shows a deprecation-period default ('warn'), scikit-learn 0.20–0.21`);
        for (const d of OLD_DEFAULTS_022) {
          if (!d.classes.test(cls)) continue;
          const v = new RegExp(`\\b${d.param}=([^,)]+)`).exec(params)?.[1]?.trim();
          // Only a default the author did not set: the source never passes this parameter.
          if (v && d.value.test(v) && !new RegExp(`\\b${d.param}\\s*=`).test(source)) {
            bound('scikit-learn', '0.22', `its stored ${cls} repr shows the old default ${d.param}=${v} (changed in scikit-learn 0.22)`);
          }
        }
      }
      // A long frame shown truncated with more than 10 rows: pandas 1.0's display.min_rows (10) shows 5 + 5;
      // 0.x showed display.max_rows of them (unless the notebook set min_rows, which only 1.0+ has).
      const footer = /\n\[(\d+) rows x \d+ columns\]\s*$/.exec(text);
      if (footer && !/min_rows/.test(source)) {
        const lines = text.slice(0, footer.index).split('\n');
        const truncated = lines.some((l) => /^\s*\.\.\.?(\s+\.\.\.?)*\s*$/.test(l));
        const shown = lines.filter((l) => l.trim() && !/^\s*\.\.\.?(\s+\.\.\.?)*\s*$/.test(l)).length - 1;
        if (truncated && shown > 12 && shown < Number(footer[1])) bound('pandas', '1.0', `its stored output shows ${shown} rows of a truncated ${footer[1]}-row frame, as pandas before 1.0 did (1.0 shows 10: display.min_rows)`);
      }
      for (const m of text.matchAll(/[\\/](sklearn|pandas|numpy|matplotlib|seaborn|xgboost|scipy|statsmodels)[\\/][\w\\/.]*\.py:\d+: (?:Future|Deprecation|PendingDeprecation)Warning: ([^\n]*)/g)) {
        const lib = PACKAGE_LIBRARY[m[1]];
        // "will be removed in 0.22", "will change from 10 in version 0.20 to 100 in 0.22": the last version named is the future one.
        const versions = [...m[2].matchAll(/\b(?:in|from)\s+(?:version\s+)?v?(\d+\.\d+(?:\.\d+)?)/gi)].map((x) => x[1]);
        const future = versions[versions.length - 1];
        // A library file may warn about Python itself ("... and in 3.8 it will stop working"): only
        // versions that library could have announced count.
        if (lib && future && /\b(removed|change|changed|deprecated|will)\b/i.test(m[2]) && !/\bpython\b|collections/i.test(m[2]) && plausible(lib, future)) bound(lib, future, `a ${m[1]} warning in its stored output announces a change in ${m[1]} ${future}`);
      }
    }
  }
  return bounds;
}

/** Newest release line each library could announce from the notebooks' era on (a guard against other projects' versions). */
const NEWEST: Partial<Record<Library, string>> = {
  'scikit-learn': '1.6', pandas: '3.0', numpy: '2.3', matplotlib: '3.10', seaborn: '0.14', xgboost: '3.1', scipy: '1.16', statsmodels: '0.15',
};

function plausible(lib: Library, version: string): boolean {
  const newest = NEWEST[lib];
  return !newest || !versionLess(newest, version);
}

function outputTexts(outputs: any[] | undefined): string[] {
  const out: string[] = [];
  for (const o of outputs ?? []) {
    if (o.output_type === 'stream') out.push(sourceText(o.text));
    else if (o.output_type === 'execute_result' || o.output_type === 'display_data') {
      const t = o.data?.['text/plain'];
      if (t !== undefined) out.push(sourceText(t));
    }
  }
  return out;
}

function versionLess(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** Bounds from the notebook's own findings: an API removed in version V, used, means the library was older than V. */
/**
 * The author's shell as the stored outputs show it. IPython displays one value per cell, the last
 * expression's (`ast_node_interactivity = 'last_expr'`); a cell that stored two or more
 * `execute_result` outputs ran in a shell set to display every expression statement's value
 * (`'all'`, a profile setting many authors kept in `ipython_config.py`). Here the same cell shows
 * only its last value, and the oracle would read the earlier ones as missing or drifted. A notebook
 * that sets the option itself needs nothing.
 */
export function shellFromStoredOutputs(nb: Notebook): NonNullable<EraHint['shell']> {
  const code = nb.cells.filter((c) => c.cell_type === 'code');
  if (code.some((c) => sourceText(c.source).includes('ast_node_interactivity'))) return {};
  for (const [i, cell] of nb.cells.entries()) {
    if (cell.cell_type !== 'code') continue;
    const results = ((cell.outputs ?? []) as Array<{ output_type?: string }>).filter((o) => o.output_type === 'execute_result').length;
    if (results >= 2) return { displayAll: `cell ${i} stored ${results} expression values, which IPython shows only when ast_node_interactivity is 'all'` };
  }
  return {};
}

export function eraFromRemovedApis(findings: readonly Finding[]): Partial<Record<Library, EraBound>> {
  const bounds: Partial<Record<Library, EraBound>> = {};
  for (const f of findings) {
    const r = ruleById(f.ruleId);
    if (!r || r.kind !== 'error-repair' || !r.removedIn || r.library === 'python' || r.library === 'environment' || r.library === 'data') continue;
    // Only a name that no longer exists proves the era; a call whose behaviour changed may be modern code too.
    if (!r.errors.some((e) => ['AttributeError', 'ImportError', 'ModuleNotFoundError'].includes(e.ename) || /unexpected keyword/.test(e.pattern.source))) continue;
    const cur = bounds[r.library];
    if (!cur || versionLess(r.removedIn, cur.version)) bounds[r.library] = { version: r.removedIn, reason: `it uses ${r.old} (removed in ${r.library} ${r.removedIn})` };
  }
  return bounds;
}

export function versionLessThan(a: string, b: string): boolean {
  return versionLess(a, b);
}
