/**
 * Up to scikit-learn 1.0, `check_array(X, dtype='numeric')` converted an object array to float64:
 * a frame holding numbers written as strings (`data['year'] = dt.split('-')[0]`, then
 * `.astype('category')`, as the Bike Sharing tutorials do) reached a linear model's `predict` as
 * numbers. 0.24 deprecated converting strings ("Arrays of bytes/strings is being converted to decimal
 * numbers if dtype='numeric' ... will be removed in 1.1"); since 1.1 the object array passes through,
 * and `predict` multiplies the strings by the coefficients: TypeError "can't multiply sequence by
 * non-int of type 'float'". (`fit` of the same models asks for float64 and still converts: the
 * notebook fits, then fails to predict.)
 *
 * The faithful repair does the conversion the old release did, at the failing call: the feature
 * matrix becomes `X.astype(float)` (same values, same column names), at the traced call and at every
 * other estimator call given the same matrix (matrixRepairSites). Recognised from the runtime error;
 * a candidate the run then verifies.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { paren, replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';
import type { SyntaxNode } from '../python/parser.js';
import { LITERAL_TYPES, matrixRepairSites, X_FIRST, X_SECOND } from './sklearn-mixed-feature-names.js';

const STRINGS_TIMES_FLOAT = /can't multiply sequence by non-int of type 'float'|unsupported operand type\(s\) for [-+*/@]: '(?:str|float)' and '(?:str|float)'/;

export const sklearnNumericStrings: Rule = rule({
  id: 'sklearn-numeric-strings',
  library: 'scikit-learn',
  title: "feature matrices holding numbers as strings (converted by check_array(dtype='numeric') until 1.1)",
  old: 'lModel.predict(dataTrain)',
  new: 'lModel.predict(dataTrain.astype(float))',
  removedIn: '1.1',
  deprecatedIn: '0.24',
  trigger: 'error',
  errors: [err('TypeError', STRINGS_TIMES_FLOAT)],
  link: 'https://scikit-learn.org/stable/whats_new/v0.24.html',
  message: "until scikit-learn 1.1 an object feature matrix (numbers held as strings) was converted to float by check_array(dtype='numeric'); it now passes through and the model multiplies strings: convert it at this call, as the old release did",
  triggers: [...X_FIRST, ...X_SECOND],
  errorScope: 'notebook',
  fixtures: [{
    before: "import pandas as pd\nfrom sklearn.linear_model import LinearRegression\ndf = pd.DataFrame({'temp': [9.8, 9.0, 13.1, 14.8], 'year': ['2011', '2012', '2011', '2012']})\ndf['year'] = df['year'].astype('category')\nm = LinearRegression().fit(df, [1.0, 3.0, 2.0, 4.0])\nprint(m.predict(df).round(3))",
    after: "import pandas as pd\nfrom sklearn.linear_model import LinearRegression\ndf = pd.DataFrame({'temp': [9.8, 9.0, 13.1, 14.8], 'year': ['2011', '2012', '2011', '2012']})\ndf['year'] = df['year'].astype('category')\nm = LinearRegression().fit(df.astype(float), [1.0, 3.0, 2.0, 4.0])\nprint(m.predict(df.astype(float)).round(3))",
    expect: '[1.163 2.907 1.837 4.093]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: "can't multiply sequence by non-int of type 'float'", lines: [6] } },
  }],
  *find(ctx) {
    if (!atRuntimeError(ctx, STRINGS_TIMES_FLOAT)) return;
    // Literals and values already converted are not the frame of strings.
    const skip = (x: SyntaxNode) => /\.astype\(\s*(float|'float\d*'|"float\d*"|np\.float\w*)\s*\)/.test(x.text) || LITERAL_TYPES.includes(x.type);
    for (const { call, x } of matrixRepairSites(ctx, skip)) yield { node: call, edits: [replaceNode(x, `${paren(x)}.astype(float)`)] };
  },
});
