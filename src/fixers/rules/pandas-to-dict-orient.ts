/**
 * `DataFrame.to_dict(orient=...)` took abbreviations until pandas 2.0: the old code read the first
 * letters of the lowered value (`'d'` dict, `'l'` list, `'sp'` split, `'s'` series, `'r'` records,
 * `'i'` index), so `orient='record'` and `to_dict('r')` meant records. 1.1 began rejecting values
 * that match none (GH 32515), 1.4 deprecated the abbreviations and 2.0 removed them: "ValueError:
 * orient 'record' not understood".
 *
 * The rewrite writes the full name the old code chose, for a string literal given as `orient=` or
 * as the first argument; a full name is left as it is.
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, replaceNode, stringValue } from './tree.js';

const FULL = ['dict', 'list', 'series', 'split', 'records', 'index'];

/** The orient pandas < 2.0 chose for `value` (its prefix test, in its order), or undefined. */
export function oldOrient(value: string): string | undefined {
  const v = value.toLowerCase();
  if (v.startsWith('d')) return 'dict';
  if (v.startsWith('l')) return 'list';
  if (v.startsWith('sp')) return 'split';
  if (v.startsWith('s')) return 'series';
  if (v.startsWith('r')) return 'records';
  if (v.startsWith('i')) return 'index';
  return undefined;
}

export const pandasToDictOrient: Rule = rule({
  id: 'pandas-to-dict-orient-abbreviation',
  triggers: ['to_dict'],
  library: 'pandas',
  title: "to_dict's orient abbreviations ('record', 'r', 'sp', ...)",
  old: "X.to_dict(orient='record')",
  new: "X.to_dict(orient='records')",
  removedIn: '2.0',
  deprecatedIn: '1.4',
  errors: [err('ValueError', /orient '[^']*' not understood/)],
  link: 'https://pandas.pydata.org/docs/whatsnew/v2.0.0.html#removal-of-prior-version-deprecations-changes',
  message: "DataFrame.to_dict read abbreviations of orient ('record', 'r', 'l', 'sp', 's', 'i') until pandas 2.0, which accepts only the full names: write the name the old code chose",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'Sex': ['male', 'female'], 'Age': [22.0, 38.0]})\nprint(df.to_dict(orient='record'), df.to_dict('l'), df.to_dict(orient='Records')[0])",
    after: "import pandas as pd\ndf = pd.DataFrame({'Sex': ['male', 'female'], 'Age': [22.0, 38.0]})\nprint(df.to_dict(orient='records'), df.to_dict('list'), df.to_dict(orient='records')[0])",
    expect: "[{'Sex': 'male', 'Age': 22.0}, {'Sex': 'female', 'Age': 38.0}] {'Sex': ['male', 'female'], 'Age': [22.0, 38.0]} {'Sex': 'male', 'Age': 22.0}",
    beforeError: 'ValueError',
  }],
  *find(ctx): Generator<RuleMatch> {
    for (const { call } of ctx.methodCalls(['to_dict'])) {
      const args = callArgs(call);
      const node = args?.keywords.get('orient')?.childForFieldName('value') ?? args?.positional[0];
      const value = node ? stringValue(node) : undefined;
      if (!node || value === undefined || FULL.includes(value)) continue;
      const full = oldOrient(value);
      if (full) yield { node, edits: [replaceNode(node, `'${full}'`)] };
    }
  },
});
