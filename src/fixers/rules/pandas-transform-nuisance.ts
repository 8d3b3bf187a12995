/**
 * Until pandas 2.0, `DataFrameGroupBy.transform` with a function left out the columns the function
 * failed on: the general path caught each column's TypeError and dropped that column. 1.3 deprecated
 * it together with the same dropping in `agg` and `apply` (GH 41475: "Deprecated ignoring nuisance
 * columns in DataFrameGroupBy.agg, apply and transform; select valid columns before calling the
 * method"), 2.0 removed it. So the era's `df.groupby('Company').transform(lambda x: x - x.mean())` on a
 * frame with a text column printed the numeric columns; today it raises
 * "Could not convert string ... to numeric".
 *
 * Which columns fail depends on the data, so no call can be rewritten ahead of the run: one shim after
 * the notebook's first pandas import runs `transform` as today first, and only on a TypeError with a
 * function (not a named kernel such as 'mean', which never dropped columns silently) keeps the columns
 * the function works on, as 1.x did. The sibling for list aggregations is pandas-list-agg-nuisance.ts.
 * Recognised from the runtime error, whose traceback passes through the general transform path.
 */
import type { Rule } from './types.js';
import { tracebackShimRule } from './traceback-shim.js';

const MARK = '_pd_transform_nuisance_';

export const TRANSFORM_NUISANCE_SHIM = [
  "# pandas before 2.0 left out the columns a groupby's transform with a function failed on",
  `import pandas as ${MARK}`,
  `def ${MARK}old_(today):`,
  '    def transform(self, func, *args, **kwargs):',
  '        try:',
  '            return today(self, func, *args, **kwargs)',
  '        except TypeError:',
  '            if isinstance(func, str) or not callable(func):',
  '                raise',
  '            keep = []',
  '            for c in self._obj_with_exclusions.columns:',
  '                try:',
  '                    today(self[[c]], func, *args, **kwargs)',
  '                    keep.append(c)',
  '                except TypeError:',
  '                    pass',
  '            if not keep:',
  '                raise',
  '            return today(self[keep], func, *args, **kwargs)',
  `    transform.${MARK}today_ = today`,
  '    return transform',
  `${MARK}f_ = ${MARK}.core.groupby.DataFrameGroupBy.transform`,
  `${MARK}.core.groupby.DataFrameGroupBy.transform = ${MARK}old_(getattr(${MARK}f_, '${MARK}today_', ${MARK}f_))`,
].join('\n');

/** A frame of the traceback in the general (function) path of a frame groupby's transform. */
const IN_TRANSFORM = /\bDataFrameGroupBy\._transform_general\b/;


const FIXTURE = [
  'import pandas as pd',
  "df = pd.DataFrame({'k': ['a', 'b', 'a', 'b'], 'dev': ['x', 'y', 'x', 'z'], 'n': [1.0, 2.0, 3.0, 6.0]})",
  "out = df.groupby('k').transform(lambda x: x - x.mean())",
  'print(list(out.columns), out["n"].tolist())',
].join('\n');

export const pandasTransformNuisance: Rule = tracebackShimRule({
  id: 'pandas-groupby-transform-nuisance-columns',
  library: 'pandas',
  pkg: 'pandas',
  title: "a groupby's transform with a function left out the columns it failed on (until 2.0)",
  old: "df.groupby('Company').transform(lambda x: x - x.mean())  # a frame with text columns",
  new: '# a shim after the first pandas import keeps what pandas 1.x kept: the columns the function works on',
  removedIn: '2.0',
  deprecatedIn: '1.3',
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.3.0.html#deprecations',
  message: "until pandas 2.0 a frame groupby's transform with a function dropped the columns the function failed on (deprecated 1.3, GH 41475); today it raises: a shim after the first pandas import keeps what the old release kept",
  mark: MARK,
  shim: TRANSFORM_NUISANCE_SHIM,
  frame: IN_TRANSFORM,
  fixture: { code: FIXTURE, expect: "['n'] [-1.0, -2.0, 1.0, 2.0]", evalue: "Could not convert string 'xx' to numeric", tracebackLine: 'File /usr/lib/python3/dist-packages/pandas/core/groupby/generic.py:1732, in DataFrameGroupBy._transform_general(self, func, engine, engine_kwargs, *args, **kwargs)' },
});
