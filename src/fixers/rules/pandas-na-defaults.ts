/**
 * read_csv's default missing-value strings, pinned to the notebook's era where the data shows the
 * difference. pandas 2.0 added "None" to the strings read as NaN (pandas-dev/pandas#52493: "a\nNone"
 * reads 'None' on pandas 1, NaN on pandas 2). A dataset whose fields hold the word None as a real
 * category (House Prices' MasVnrType: "None" = no veneer) is read differently from the author's
 * run: missing-value counts, fillna, get_dummies and every model downstream drift silently.
 *
 * Evidence-gated: the pin is applied (before the first run too) only when the era predates 2.0 and
 * the mounted data actually holds such a field (DataFacts, read from the files by the caller); a
 * notebook whose data has none is left alone.
 */
import type { Rule } from './types.js';
import { rule } from './helpers.js';
import { addArgument, callArgs } from './tree.js';

/** pandas 1.x's STR_NA_VALUES (pandas/_libs/parsers.pyx), i.e. 2.x's without "None". */
export const PANDAS1_NA_VALUES = ['', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'n/a', 'nan', 'null'];

const READERS = ['pandas.read_csv', 'pandas.read_table'];
/** Keywords by which the author already chose the missing-value handling. */
const OWN_CHOICE = ['na_values', 'keep_default_na', 'na_filter'];

export const pandasReadCsvNoneNa: Rule = rule({
  id: 'pandas-pin-read-csv-none-na',
  library: 'pandas',
  title: "read_csv reads the string 'None' as missing since pandas 2.0",
  old: "pd.read_csv('train.csv')  # 'None' stays a string",
  new: "pd.read_csv('train.csv', keep_default_na=False, na_values=[...pandas 1 list...])",
  kind: 'score-calibration',
  changedIn: '2.0',
  link: 'https://github.com/pandas-dev/pandas/issues/52493',
  message: "pandas 2.0 reads the field value 'None' as NaN; this notebook's data holds such fields and its era read them as the string 'None': pin pandas 1's missing-value strings",
  triggers: ['read_csv', 'read_table'],
  fixtures: [{
    sandboxSetup: "open('none.csv', 'w').write('kind,area\\nNone,0\\nStone,120\\n')",
    before: "import pandas as pd\ndf = pd.read_csv('none.csv')\nprint(df['kind'].isnull().sum(), list(df['kind']))",
    after: `import pandas as pd\ndf = pd.read_csv('none.csv', keep_default_na=False, na_values=${pyList(PANDAS1_NA_VALUES)})\nprint(df['kind'].isnull().sum(), list(df['kind']))`,
    expect: "0 ['None', 'Stone']",
    beforeOutcome: 'differs',
    context: { era: { versions: { pandas: '0.23.4' } }, dataFacts: { newlyMissingTokens: { 'none.csv': ['None'] } } },
  }],
  *find(ctx) {
    const facts = ctx.nb.info.dataFacts;
    if (!facts || !Object.values(facts.newlyMissingTokens).some((t) => t.includes('None'))) return;
    if (!ctx.nb.info.era.predates('pandas', '2.0')) return;
    for (const { call } of ctx.callsTo(READERS)) {
      const args = callArgs(call);
      if (!args || args.splat || OWN_CHOICE.some((k) => args.keywords.has(k))) continue;
      yield {
        node: call,
        edits: [addArgument(args, `keep_default_na=False, na_values=${pyList(PANDAS1_NA_VALUES)}`)],
        message: `${pandasReadCsvNoneNa.message} (${ctx.nb.info.era.why('pandas', '2.0')})`,
      };
    }
  },
});

function pyList(xs: readonly string[]): string {
  return `[${xs.map((x) => `'${x}'`).join(', ')}]`;
}
