/**
 * Until pandas 2.0, a list of reductions (`df.agg(['mean', 'min'])`, `df.groupby(k).agg(['mean',
 * 'std'])`) left out what it failed on instead of raising: `Apply.agg_list_like` caught the
 * TypeError of each column (of a frame or a groupby) and dropped that column, and for a series
 * dropped each function that failed. 1.3 deprecated it ("['Name', 'Sex'] did not aggregate
 * successfully ... Drop these columns/ops to avoid this warning"), 2.0 removed it ("Removal of prior
 * version deprecations": nuisance columns in list-like aggregations now raise). So a Titanic frame
 * with its text columns, aggregated by a list, fails today where it printed the numeric columns.
 *
 * The columns dropped depend on the data, so no call can be rewritten ahead of the run: one shim after
 * the notebook's first pandas import restores the old choice at the API the notebook calls —
 * `Series.agg`, `DataFrame.agg` and `DataFrameGroupBy.agg` (and their `aggregate` spellings) still run
 * as today first and only on a TypeError with a list of functions keep what the old code kept: a
 * series the functions that work, a frame per column the functions that work, a groupby the columns
 * every function works on (its per-column step, `SeriesGroupBy.agg`, raised then as now).
 * Recognised from the runtime error, whose traceback passes through pandas' list-like aggregation.
 */
import type { Rule } from './types.js';
import { tracebackShimRule } from './traceback-shim.js';

const MARK = '_pd_list_agg_';

export const LIST_AGG_SHIM = [
  '# pandas before 2.0 left out what a list of reductions failed on: a frame\'s or groupby\'s columns, a series\' functions',
  `import pandas as ${MARK}`,
  `def ${MARK}kept_(self, func, kind, today, kwargs):`,
  '    def works(call):',
  '        try:',
  '            call()',
  '            return True',
  '        except (TypeError, ValueError):',
  '            return False',
  "    if kind == 'series':",
  '        good = [f for f in func if works(lambda f=f: today(self, [f], **kwargs))]',
  '        return today(self, good, **kwargs) if good else None',
  "    if kind == 'groupby':",
  '        cols = [c for c in self._obj_with_exclusions.columns if works(lambda c=c: self[c].aggregate(list(func)))]',
  '        return today(self[cols], func, **kwargs) if cols else None',
  '    parts, keys = [], []',
  '    for i, col in enumerate(self.columns):',
  '        try:',
  '            parts.append(self.iloc[:, i].aggregate(list(func)))',
  '            keys.append(col)',
  '        except (TypeError, ValueError):',
  '            pass',
  '    if not parts:',
  '        return None',
  `    out = ${MARK}.concat(parts, keys=keys, axis=1, sort=False)`,
  '    return out.reindex(next(p.index for p in parts if p.index.size == out.index.size))',
  `def ${MARK}old_(today, kind):`,
  '    def agg(self, func=None, *args, **kwargs):',
  '        try:',
  '            return today(self, func, *args, **kwargs)',
  '        except TypeError:',
  "            if not isinstance(func, (list, tuple)) or args or kwargs.get('axis', 0) not in (0, 'index'):",
  '                raise',
  `            kept = ${MARK}kept_(self, func, kind, today, {k: v for k, v in kwargs.items() if k != 'axis'})`,
  '            if kept is None:',
  '                raise',
  '            return kept',
  `    agg.${MARK}today_ = today`,
  '    return agg',
  `for ${MARK}cls_, ${MARK}kind_ in ((${MARK}.Series, 'series'), (${MARK}.DataFrame, 'frame'), (${MARK}.core.groupby.DataFrameGroupBy, 'groupby')):`,
  "    for name in ('agg', 'aggregate'):",
  `        ${MARK}f_ = getattr(${MARK}cls_, name)`,
  `        setattr(${MARK}cls_, name, ${MARK}old_(getattr(${MARK}f_, '${MARK}today_', ${MARK}f_), ${MARK}kind_))`,
].join('\n');

/** A frame of the traceback inside pandas' list-like aggregation (IPython prints the qualified name). */
const IN_LIST_AGG = /\b(?:compute_list_like|agg_list_like|agg_or_apply_list_like)\b/;


const FIXTURE = [
  'import pandas as pd',
  "df = pd.DataFrame({'k': [1, 1, 2], 'v': [1.0, 3.0, 5.0], 'name': ['a', 'b', 'c']})",
  "g = df.groupby('k').agg(['mean', 'max'])",
  "f = df.agg(['mean', 'min'])",
  "print(list(g.columns), g[('v', 'mean')].tolist(), f.loc['min', 'name'], f['v'].tolist())",
].join('\n');

export const pandasListAggNuisance: Rule = tracebackShimRule({
  id: 'pandas-list-agg-nuisance-columns',
  library: 'pandas',
  pkg: 'pandas',
  title: 'a list of reductions left out the columns (or functions) it failed on (until 2.0)',
  old: "df.groupby('Pclass').agg(['mean', 'std'])  # a frame with text columns",
  new: '# a shim after the first pandas import keeps what pandas 1.x kept: the columns / functions that work',
  removedIn: '2.0',
  deprecatedIn: '1.3',
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#removal-of-prior-version-deprecations-changes',
  message: 'until pandas 2.0 a list of reductions (agg([...])) dropped the columns of a frame or groupby, and the functions of a series, it failed on; today it raises: a shim after the first pandas import keeps what the old release kept',
  mark: MARK,
  shim: LIST_AGG_SHIM,
  frame: IN_LIST_AGG,
  fixture: { code: FIXTURE, expect: "[('v', 'mean'), ('v', 'max')] [2.0, 5.0] a [3.0, 1.0]", evalue: 'agg function failed [how->mean,dtype->object]', tracebackLine: 'File /usr/lib/python3/dist-packages/pandas/core/apply.py:345, in Apply.compute_list_like(self, op_name, selected_obj, kwargs)' },
});
