/**
 * pandas removals from the whatsnew sections "Removal of prior version deprecations/changes"
 * (v0.20 … v2.0) that no hand-written rule in pandas.ts covers. Checked in the fixed environment (2.2.3).
 */
import type { Callee, TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const WN = (v: string) => `https://pandas.pydata.org/docs/whatsnew/v${v}.html#removal-of-prior-version-deprecations-changes`;
const on = (receiver: 'pandas' | 'DataFrame' | 'Series', ...methods: string[]): Callee[] => methods.map((method) => ({ method, receiver }));
const DF = "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1, 2], 'v': [1, 2, 3]})\n";

export const pandasTable: TableEntry[] = [
  {
    kind: 'move-symbol', id: 'pandas-from-import-datetime', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.0',
    from: 'pandas.datetime', to: 'datetime.datetime',
    link: WN('2.0.0'),
    message: 'pandas.datetime (an alias of datetime.datetime) was removed in pandas 2.0: import it from datetime',
    fixtures: [{
      before: 'from pandas import datetime\nprint(datetime(2020, 1, 2).day)',
      after: 'from datetime import datetime\nprint(datetime(2020, 1, 2).day)',
      expect: '2', beforeError: 'ImportError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-take-last', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.17',
    callees: on('pandas', 'drop_duplicates', 'duplicated', 'nlargest', 'nsmallest'), from: 'take_last', to: 'keep',
    values: { True: "'last'", False: "'first'" },
    link: WN('0.20.0'),
    message: "take_last= was removed in pandas 0.20: use keep='last' (take_last=True) or keep='first'",
    fixtures: [{
      before: DF + "print(df.drop_duplicates('k', take_last=True)['v'].tolist())",
      after: DF + "print(df.drop_duplicates('k', keep='last')['v'].tolist())",
      expect: '[2, 3]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-drop-duplicates-cols', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.14',
    callees: on('DataFrame', 'drop_duplicates', 'duplicated'), from: 'cols', to: 'subset',
    link: WN('0.20.0'),
    message: 'drop_duplicates(cols=) was removed: use subset=',
    fixtures: [{
      before: DF + "print(len(df.drop_duplicates(cols='k')))",
      after: DF + "print(len(df.drop_duplicates(subset='k')))",
      expect: '2', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-pivot-table-rows', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.14',
    callees: [{ qname: 'pandas.pivot_table' }, ...on('DataFrame', 'pivot_table')], from: 'rows', to: 'index',
    link: WN('0.20.0'),
    message: 'pivot_table(rows=) was removed: use index=',
    fixtures: [{
      before: DF + "print(df.pivot_table(rows='k', values='v', aggfunc='sum')['v'].tolist())",
      after: DF + "print(df.pivot_table(index='k', values='v', aggfunc='sum')['v'].tolist())",
      expect: '[3, 3]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-pivot-table-cols', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.14',
    callees: [{ qname: 'pandas.pivot_table' }, ...on('DataFrame', 'pivot_table')], from: 'cols', to: 'columns',
    link: WN('0.20.0'),
    message: 'pivot_table(cols=) was removed: use columns=',
    fixtures: [{
      before: DF + "print(pd.pivot_table(df.assign(w=1), index='v', cols='k', values='w', aggfunc='sum').shape)",
      after: DF + "print(pd.pivot_table(df.assign(w=1), index='v', columns='k', values='w', aggfunc='sum').shape)",
      expect: '(3, 2)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-to-csv-cols', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.14',
    callees: on('pandas', 'to_csv'), from: 'cols', to: 'columns',
    link: WN('0.20.0'),
    message: 'to_csv(cols=) was removed: use columns=',
    fixtures: [{
      before: DF + "print(df.to_csv(cols=['v'], index=False).split())",
      after: DF + "print(df.to_csv(columns=['v'], index=False).split())",
      expect: "['v', '1', '2', '3']", beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-to-datetime-coerce', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.17',
    callees: [{ qname: 'pandas.to_datetime' }, { qname: 'pandas.to_timedelta' }], from: 'coerce', to: 'errors',
    values: { True: "'coerce'", False: "'raise'" },
    link: WN('0.20.0'),
    message: "to_datetime(coerce=True) was removed: use errors='coerce'",
    fixtures: [{
      before: "import pandas as pd\nprint(pd.to_datetime(['2020-01-02', 'x'], coerce=True).isna().tolist())",
      after: "import pandas as pd\nprint(pd.to_datetime(['2020-01-02', 'x'], errors='coerce').isna().tolist())",
      expect: '[False, True]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-read-excel-sheetname', library: 'pandas', removedIn: '0.25', deprecatedIn: '0.21',
    callees: [{ qname: 'pandas.read_excel' }], from: 'sheetname', to: 'sheet_name',
    link: WN('0.25.0'),
    message: 'read_excel(sheetname=) was removed in pandas 0.25: use sheet_name=',
    fixtures: [{
      sandboxSetup: "import pandas as pd\npd.DataFrame({'a': [1, 2]}).to_excel('/tmp/nbm_t.xlsx', index=False)",
      before: "import pandas as pd\nprint(pd.read_excel('/tmp/nbm_t.xlsx', sheetname=0)['a'].tolist())",
      after: "import pandas as pd\nprint(pd.read_excel('/tmp/nbm_t.xlsx', sheet_name=0)['a'].tolist())",
      expect: '[1, 2]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-read-excel-parse-cols', library: 'pandas', removedIn: '0.25', deprecatedIn: '0.21',
    callees: [{ qname: 'pandas.read_excel' }], from: 'parse_cols', to: 'usecols',
    link: WN('0.25.0'),
    message: 'read_excel(parse_cols=) was removed in pandas 0.25: use usecols=',
    fixtures: [{
      sandboxSetup: "import pandas as pd\npd.DataFrame({'a': [1, 2], 'b': [3, 4]}).to_excel('/tmp/nbm_t2.xlsx', index=False)",
      before: "import pandas as pd\nprint(pd.read_excel('/tmp/nbm_t2.xlsx', parse_cols=[0]).columns.tolist())",
      after: "import pandas as pd\nprint(pd.read_excel('/tmp/nbm_t2.xlsx', usecols=[0]).columns.tolist())",
      expect: "['a']", beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-skip-footer', library: 'pandas', removedIn: '1.0', deprecatedIn: '0.19',
    callees: [{ qname: 'pandas.read_csv' }, { qname: 'pandas.read_table' }, { qname: 'pandas.read_excel' }], from: 'skip_footer', to: 'skipfooter',
    link: WN('1.0.0'),
    message: 'skip_footer= was removed in pandas 1.0: use skipfooter=',
    fixtures: [{
      before: "import pandas as pd, io\nprint(pd.read_csv(io.StringIO('a\\n1\\n2\\n'), skip_footer=1, engine='python')['a'].tolist())",
      after: "import pandas as pd, io\nprint(pd.read_csv(io.StringIO('a\\n1\\n2\\n'), skipfooter=1, engine='python')['a'].tolist())",
      expect: '[1]', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'pandas-tupleize-cols', library: 'pandas', removedIn: '1.0', deprecatedIn: '0.21',
    callees: [{ qname: 'pandas.read_csv' }, ...on('pandas', 'to_csv')], kwarg: 'tupleize_cols', onlyValues: ['False'],
    why: 'False was the default and is the only behaviour left',
    link: WN('1.0.0'),
    message: 'tupleize_cols= was removed in pandas 1.0',
    fixtures: [{
      before: "import pandas as pd, io\nprint(pd.read_csv(io.StringIO('a\\n1\\n'), tupleize_cols=False).shape)",
      after: "import pandas as pd, io\nprint(pd.read_csv(io.StringIO('a\\n1\\n')).shape)",
      expect: '(1, 1)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-astype-raise-on-error', library: 'pandas', removedIn: '1.0', deprecatedIn: '0.20',
    callees: on('pandas', 'astype'), from: 'raise_on_error', to: 'errors',
    values: { True: "'raise'", False: "'ignore'" },
    link: WN('1.0.0'),
    message: "astype(raise_on_error=) was removed: use errors='raise' / errors='ignore'",
    fixtures: [{
      before: "import pandas as pd\ns = pd.Series(['1', 'x'])\nprint(s.astype(int, raise_on_error=False).tolist())",
      after: "import pandas as pd\ns = pd.Series(['1', 'x'])\nprint(s.astype(int, errors='ignore').tolist())",
      expect: "['1', 'x']", beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-to-dict-outtype', library: 'pandas', removedIn: '0.20', deprecatedIn: '0.14',
    callees: on('DataFrame', 'to_dict'), from: 'outtype', to: 'orient',
    link: WN('0.20.0'),
    message: 'to_dict(outtype=) was removed: use orient=',
    fixtures: [{
      before: DF + "print(df.to_dict(outtype='list'))",
      after: DF + "print(df.to_dict(orient='list'))",
      expect: "{'k': [1, 1, 2], 'v': [1, 2, 3]}", beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-info-null-counts', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.2',
    callees: on('DataFrame', 'info'), from: 'null_counts', to: 'show_counts',
    link: WN('2.0.0'),
    message: 'DataFrame.info(null_counts=) was removed in pandas 2.0: use show_counts=',
    fixtures: [{
      before: 'import io\n' + DF + "df.info(null_counts=True, buf=io.StringIO())\nprint('ok')",
      after: 'import io\n' + DF + "df.info(show_counts=True, buf=io.StringIO())\nprint('ok')",
      expect: 'ok', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'pandas-io-json-normalize', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.0',
    from: 'pandas.io.json.json_normalize', to: 'pandas.json_normalize',
    link: WN('2.0.0'),
    message: 'pandas.io.json.json_normalize was removed in pandas 2.0: use pandas.json_normalize',
    fixtures: [{
      before: "from pandas.io.json import json_normalize\nprint(json_normalize([{'a': {'b': 1}}]).columns.tolist())",
      after: "from pandas import json_normalize\nprint(json_normalize([{'a': {'b': 1}}]).columns.tolist())",
      expect: "['a.b']", beforeError: 'ImportError',
    }],
  },
  {
    kind: 'replace-value', id: 'pandas-between-inclusive-bool', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.3',
    callees: on('pandas', 'between'), kwarg: 'inclusive', values: { True: "'both'", False: "'neither'" },
    errors: [err('ValueError', /Inclusive has to be either/)],
    link: WN('2.0.0'),
    message: "Series.between(inclusive=True/False) was removed in pandas 2.0: use 'both' / 'neither'",
    fixtures: [{
      before: "import pandas as pd\ns = pd.Series([1, 2, 3])\nprint(s.between(1, 2, inclusive=False).tolist())",
      after: "import pandas as pd\ns = pd.Series([1, 2, 3])\nprint(s.between(1, 2, inclusive='neither').tolist())",
      expect: '[False, False, False]', beforeError: 'ValueError',
    }],
  },
  {
    kind: 'rename-kwarg', id: 'pandas-date-range-closed', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.4',
    callees: [{ qname: 'pandas.date_range' }, { qname: 'pandas.bdate_range' }], from: 'closed', to: 'inclusive',
    values: { None: "'both'", "'left'": "'left'", "'right'": "'right'" },
    link: WN('2.0.0'),
    message: "date_range(closed=) was removed in pandas 2.0: use inclusive= ('both' for closed=None)",
    fixtures: [{
      before: "import pandas as pd\nprint(len(pd.date_range('2020-01-01', '2020-01-05', closed='left')))",
      after: "import pandas as pd\nprint(len(pd.date_range('2020-01-01', '2020-01-05', inclusive='left')))",
      expect: '4', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'drop-kwarg', id: 'pandas-to-excel-encoding', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.5',
    callees: on('pandas', 'to_excel'), kwarg: 'encoding', always: true,
    why: 'the xlsx writers always write UTF-8; the keyword was ignored',
    link: WN('2.0.0'),
    message: 'to_excel(encoding=) was removed in pandas 2.0',
    fixtures: [{
      before: 'import io\n' + DF + "buf = io.BytesIO()\ndf.to_excel(buf, encoding='utf-8')\nprint(pd.read_excel(buf).shape)",
      after: 'import io\n' + DF + "buf = io.BytesIO()\ndf.to_excel(buf)\nprint(pd.read_excel(buf).shape)",
      expect: '(3, 3)', beforeError: 'TypeError',
    }],
  },
  {
    kind: 'rename-method', id: 'pandas-excelwriter-save', library: 'pandas', removedIn: '2.0', deprecatedIn: '1.5',
    receiver: 'any', from: 'save', to: 'close', trigger: 'error',
    errors: [err('AttributeError', /'\w*Writer' object has no attribute 'save'/)],
    link: WN('2.0.0'),
    message: 'ExcelWriter.save() was removed in pandas 2.0: use close()',
    fixtures: [{
      before: DF + "w = pd.ExcelWriter('/tmp/nbm_w.xlsx')\ndf.to_excel(w)\nw.save()\nprint(pd.read_excel('/tmp/nbm_w.xlsx').shape)",
      after: DF + "w = pd.ExcelWriter('/tmp/nbm_w.xlsx')\ndf.to_excel(w)\nw.close()\nprint(pd.read_excel('/tmp/nbm_w.xlsx').shape)",
      expect: '(3, 3)', beforeError: 'AttributeError',
    }],
  },
  {
    kind: 'rename-method', id: 'pandas-series-reshape', library: 'pandas', removedIn: '1.0', deprecatedIn: '0.19',
    receiver: 'Series', from: 'reshape', to: 'values.reshape',
    errors: [err('AttributeError', /'Series' object has no attribute 'reshape'/)],
    link: WN('1.0.0'),
    message: 'Series.reshape was removed in pandas 1.0: reshape the array (s.values.reshape(...))',
    fixtures: [{
      before: "import pandas as pd\ns = pd.Series([1, 2, 3])\nprint(s.reshape(-1, 1).shape)",
      after: "import pandas as pd\ns = pd.Series([1, 2, 3])\nprint(s.values.reshape(-1, 1).shape)",
      expect: '(3, 1)', beforeError: 'AttributeError',
    }],
  },
];
