/**
 * Until pandas 1.0 a Styler formatted floats with `precision` *significant digits* (its default
 * display function was `'{:>.{precision}g}'.format(x)`); 1.0 made it decimal places (GH 13257, PR
 * 27934, whatsnew 1.0.0 "Other"). `corr.style.background_gradient().set_precision(2)` showed a
 * correlation of 0.0240573 as 0.024; the same call here (set_precision became
 * `format(precision=2)`, its 1.3 replacement) shows 0.02, and so for every small value of the
 * table. The pin restores the old display function for that precision; values are not touched.
 *
 * It acts on the `format(precision=n)` of a `.style` chain, the form the removed `set_precision(n)`
 * takes here (pandas-styler-set-precision): `format` only gained `precision` in 1.3, so a notebook
 * old enough to need the pin never wrote it itself.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { callArgs, kwValue } from './tree.js';

/** Does the receiver chain of a Styler method go through `.style`? */
function onStyler(recv: SyntaxNode): boolean {
  for (let n: SyntaxNode | null = recv; n; ) {
    if (n.type === 'attribute') {
      if (n.childForFieldName('attribute')?.text === 'style') return true;
      n = n.childForFieldName('object');
    } else if (n.type === 'call') n = n.childForFieldName('function');
    else return false;
  }
  return false;
}

const displayFunc = (p: string) => `lambda v: '{:>.${p}g}'.format(v) if isinstance(v, float) else v`;

export const pandasPinStylerPrecision: Rule = rule({
  id: 'pandas-pin-styler-precision',
  triggers: ['format'],
  gate: { source: ['style'] },
  library: 'pandas',
  title: 'Styler precision: significant digits -> decimal places (pandas 1.0)',
  old: 'corr.style.format(precision=2)',
  new: `corr.style.format(${displayFunc('2')})`,
  kind: 'score-calibration',
  changedIn: '1.0',
  errors: [],
  link: 'https://pandas.pydata.org/docs/whatsnew/v1.0.0.html#other',
  message: "until pandas 1.0 a Styler's precision counted significant digits ('{:.2g}': 0.024), now decimal places (0.02): the old display function shows what the notebook showed",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [0.0240573, 1.5, 123.456], 'b': ['x', 'y', 'z']})\nh = df.style.format(precision=2).to_html()\nprint('>0.024<' in h, '>1.5<' in h, '>1.2e+02<' in h, '>x<' in h)",
    after: `import pandas as pd\ndf = pd.DataFrame({'a': [0.0240573, 1.5, 123.456], 'b': ['x', 'y', 'z']})\nh = df.style.format(${displayFunc('2')}).to_html()\nprint('>0.024<' in h, '>1.5<' in h, '>1.2e+02<' in h, '>x<' in h)`,
    expect: 'True True True True',
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.23.4' } } },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (!ctx.nb.info.era.predates('pandas', '1.0')) return;
    const why = ctx.nb.info.era.why('pandas', '1.0');
    for (const { call, recv } of ctx.methodCalls(['format'])) {
      const args = callArgs(call);
      const p = kwValue(args?.keywords.get('precision'));
      if (!args || args.splat || args.positional.length || p?.type !== 'integer' || !onStyler(recv)) continue;
      const rest = [...args.keywords.keys()].filter((k) => k !== 'precision');
      if (rest.some((k) => k !== 'na_rep')) continue;
      const na = kwValue(args.keywords.get('na_rep'));
      const edits = [{ start: args.list.startIndex, end: args.list.endIndex, text: `(${displayFunc(p.text)}${na ? `, na_rep=${na.text}` : ''})` }];
      yield { node: call, edits, message: `until pandas 1.0 a Styler's precision counted significant digits, now decimal places: the old display function shows what the notebook showed (${why})` };
    }
  },
});
