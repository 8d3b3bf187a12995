/**
 * Until pandas 2.0, `to_datetime(s, format=F)` ignored F when it was the start of an ISO 8601
 * template (`%Y<sep>%m<sep>%d<T or space>%H:%M:%S`, any one date separator among space, `/`, `\`,
 * `-`, `.` or none; `format_is_iso` in pandas/_libs/tslibs/parsing.pyx) and parsed every ISO 8601
 * string with its C parser instead, whatever separator the data used and whatever the string held
 * past F (#12649, "to_datetime() does not respect exact format string with ISO8601"). An era
 * notebook's `format='%Y/%m/%d %H:%M:%S'` read Bike Sharing's `2011-01-01 00:00:00`, and
 * `format='%Y-%m-%d'` read it with its time. pandas 2.0 (PDEP-4) applies F exactly: `time data
 * "2011-01-01 00:00:00" doesn't match format "%Y/%m/%d %H:%M:%S"`, or `unconverted data remains`,
 * and added `format='ISO8601'` for "any ISO 8601 string", which is what those formats meant then.
 *
 * From that error: the `to_datetime` calls of the failing cell whose literal `format` is the one the
 * message names, and an ISO template's start (the three formats pandas excluded, `%Y%m%d`, `%Y%m`
 * and `%Y`, are not), get `format='ISO8601'`.
 */
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, kwValue, replaceNode, stringValue } from './tree.js';
import { atRuntimeError } from './traceback.js';

const FORMAT_ERROR = /(?:doesn't match format|when parsing with format) "([^"]*)"/;

/** pandas < 2.0's format_is_iso: F starts one of the ISO templates it parsed with the C parser. */
export function formatIsIso(f: string): boolean {
  if (['%Y%m%d', '%Y%m', '%Y'].includes(f) || !f) return false;
  for (const date of [' ', '/', '\\', '-', '.', '']) {
    for (const time of [' ', 'T']) {
      for (const tail of ['', '%z', '%Z', '.%f', '.%f%z', '.%f%Z']) {
        if (`%Y${date}%m${date}%d${time}%H:%M:%S${tail}`.startsWith(f)) return true;
      }
    }
  }
  return false;
}

export const pandasToDatetimeIso: Rule = rule({
  id: 'pandas-to-datetime-iso-format',
  library: 'pandas',
  title: "to_datetime(format=) that pandas < 2.0 read as any ISO 8601 string",
  old: "pd.to_datetime(df['datetime'], format='%Y/%m/%d %H:%M:%S')",
  new: "pd.to_datetime(df['datetime'], format='ISO8601')",
  removedIn: '2.0',
  trigger: 'error',
  errors: [err('ValueError', FORMAT_ERROR)],
  link: 'https://github.com/pandas-dev/pandas/issues/12649',
  message: "pandas < 2.0 parsed any ISO 8601 string when format= was the start of an ISO template (whatever the separators or the time part); pandas 2 applies the format exactly: format='ISO8601' is the old reading",
  fixtures: [{
    before: "import pandas as pd\ns = pd.Series(['2011-01-01 00:00:00', '2011-01-01 01:00:00'])\na = pd.to_datetime(s, format='%Y/%m/%d %H:%M:%S')\nb = pd.to_datetime(s, format='%Y/%m/%d %H:%M:%S')\nprint(a.dt.hour.tolist(), b.equals(a))",
    after: "import pandas as pd\ns = pd.Series(['2011-01-01 00:00:00', '2011-01-01 01:00:00'])\na = pd.to_datetime(s, format='ISO8601')\nb = pd.to_datetime(s, format='ISO8601')\nprint(a.dt.hour.tolist(), b.equals(a))",
    expect: '[0, 1] True',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'time data "2011-01-01 00:00:00" doesn\'t match format "%Y/%m/%d %H:%M:%S", at position 0.', lines: [3] } },
  }, {
    before: "import pandas as pd\nd = pd.to_datetime(pd.Series(['2012-05-01 13:00:00']), format='%Y-%m-%d')\nprint(d.dt.hour.tolist())",
    after: "import pandas as pd\nd = pd.to_datetime(pd.Series(['2012-05-01 13:00:00']), format='ISO8601')\nprint(d.dt.hour.tolist())",
    expect: '[13]',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'unconverted data remains when parsing with format "%Y-%m-%d": " 13:00:00", at position 0.', lines: [2] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, FORMAT_ERROR);
    if (!at || ctx.index !== ctx.nb.info.runtime?.failingCell) return;
    const named = at.match[1]!;
    if (!formatIsIso(named)) return;
    for (const { call } of ctx.callsTo(['pandas.to_datetime'])) {
      const v = kwValue(callArgs(call)?.keywords.get('format'));
      if (v && stringValue(v) === named) yield { node: v, edits: [replaceNode(v, "'ISO8601'")] };
    }
  },
});
