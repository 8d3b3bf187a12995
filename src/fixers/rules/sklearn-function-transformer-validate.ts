/**
 * FunctionTransformer validated its input by default until scikit-learn 0.22 (`validate=True`; 0.20
 * announced the change): a DataFrame reached the function as a 2-D float array. Since 0.22 the
 * default is `validate=False` and the function gets the frame itself, so the functions of that era,
 * written for arrays (`lambda data: data[:, mask]`, `X.reshape(...)`, `X[:, 0]`), fail inside the
 * transformer with what a frame answers to array indexing (InvalidIndexError for `[:, mask]`, a
 * TypeError or KeyError naming the slice) or to an array method (AttributeError).
 *
 * Recognised from the runtime error: the traceback passes through FunctionTransformer's module (the
 * function raised while the transformer called it). Every FunctionTransformer the notebook builds
 * without `validate` gets `validate=True`, the value its run had. A notebook written for 0.22 or later
 * whose function expects a frame does not fail, so it never gets here.
 */
import type { Rule } from './types.js';
import { err, rule } from './helpers.js';
import { addArgument, callArgs } from './tree.js';

/** A frame of the traceback in FunctionTransformer's module (IPython prints the file path). */
const IN_FUNCTION_TRANSFORMER = /sklearn[\\/]preprocessing[\\/]_function_transformer\.py/;

const ANY = /[\s\S]*/;

const FIXTURE = (validate: string) => [
  'import numpy as np, pandas as pd',
  'from sklearn.preprocessing import FunctionTransformer',
  'from sklearn.pipeline import make_pipeline',
  'from sklearn.linear_model import LinearRegression',
  "df = pd.DataFrame({'a': [1.0, 2.0, 3.0, 4.0], 'b': [0.0, 1.0, 0.0, 1.0]})",
  'mask = np.array([True, False])',
  `pipe = make_pipeline(FunctionTransformer(lambda data: data[:, mask]${validate}), LinearRegression())`,
  'print(pipe.fit(df, [2.0, 4.0, 6.0, 8.0]).predict(df[:1]).round(2))',
].join('\n');

export const sklearnFunctionTransformerValidate: Rule = rule({
  id: 'sklearn-function-transformer-validate',
  triggers: ['FunctionTransformer'],
  library: 'scikit-learn',
  title: 'FunctionTransformer passes the frame itself (validate=True by default until 0.22)',
  old: 'FunctionTransformer(lambda data: data[:, mask])',
  new: 'FunctionTransformer(lambda data: data[:, mask], validate=True)',
  removedIn: '0.22',
  deprecatedIn: '0.20',
  trigger: 'error',
  // What a frame raises for array indexing and array methods; the traceback then decides (the
  // signatures stay narrow: other code asks whether any rule knows an error).
  errors: [
    err('InvalidIndexError', ANY),
    err('KeyError', /slice\(|^\(/),
    err('TypeError', /slice\(|unhashable type|is an invalid key/),
    err('AttributeError', /'(DataFrame|Series)' object has no attribute/),
  ],
  errorScope: 'notebook',
  link: 'https://scikit-learn.org/stable/whats_new/v0.22.html#sklearn-preprocessing',
  message: "until scikit-learn 0.22 FunctionTransformer validated its input by default (validate=True): the function got a 2-D array, not the DataFrame; pass validate=True as the notebook's run had it",
  fixtures: [{
    before: FIXTURE(''),
    after: FIXTURE(', validate=True'),
    expect: '[2.]',
    beforeError: 'InvalidIndexError',
    context: {
      runtime: {
        ename: 'InvalidIndexError',
        evalue: '(slice(None, None, None), array([ True, False]))',
        traceback: ['File /usr/lib/python3/dist-packages/sklearn/preprocessing/_function_transformer.py:384, in FunctionTransformer._transform(self, X, func, kw_args)'],
      },
    },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    if (!rt || !rt.traceback.some((l) => IN_FUNCTION_TRANSFORMER.test(l))) return;
    for (const { call } of ctx.callsTo(['sklearn.preprocessing.FunctionTransformer'])) {
      const args = callArgs(call);
      // validate is the third parameter (func, inverse_func, validate, ...).
      if (!args || args.splat || args.keywords.has('validate') || args.positional.length >= 3) continue;
      yield { node: call, edits: [addArgument(args, 'validate=True')] };
    }
  },
});
