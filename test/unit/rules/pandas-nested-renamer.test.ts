import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixSource } from './support.js';

describe('pandas-nested-renamer: only renaming dicts are rewritten', () => {
  it("a frame groupby's flat dict selects columns and a plain Series' dict aggregates: left as they are", async () => {
    const src = "import pandas as pd\ndf = pd.DataFrame({'k': [1, 1], 'a': [1, 2]})\nprint(df.groupby('k').agg({'a': 'sum'}), df.a.agg({'total': 'sum'}))";
    const { out, findings } = await fixSource(src, {});
    assert.equal(out, src);
    assert.ok(!findings.some((f) => f.ruleId === 'pandas-nested-renamer'));
  });
  it('(pandas imported) a column of a groupby bound to a name (g.a, g["a"]) is a Series groupby; keys that are not identifiers become (name, func) pairs', async () => {
    const { out } = await fixSource("import pandas as pd\ng = df.groupby('k')\nx = g['a'].agg({'total': 'sum'})\ny = g.a.agg({'n rows': len})", {});
    assert.equal(out, "import pandas as pd\ng = df.groupby('k')\nx = g['a'].agg(total='sum')\ny = g.a.agg([('n rows', len)])");
  });
  it('a nested dict on a receiver the scan cannot type is only reported, unless the error names its line', async () => {
    const src = "import pandas as pd\ndef f(obj):\n    return obj.agg({'a': {'total': 'sum'}})";
    const { out, findings } = await fixSource(src, {});
    assert.equal(out, src);
    assert.ok(findings.some((f) => f.ruleId === 'pandas-nested-renamer'));
    const runtime = { failingCell: 0, ename: 'SpecificationError', evalue: 'nested renamer is not supported', traceback: [], frames: [{ cell: 0, line: 3 }], types: {} };
    const fixed = await fixSource(src, { includeErrorTriggered: true, runtime });
    assert.equal(fixed.out, "import pandas as pd\ndef f(obj):\n    return obj.agg({'a': [('total', 'sum')]})");
  });
});
