/** --select / --ignore selectors (ruff-style) and `# nbmodernize: ignore[...]` cell directives. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sourceText } from '../../../src/core/notebook.js';
import { UsageError } from '../../../src/core/errors.js';
import { ALL_RULES, fixNotebook, scanNotebook, scanNotebookReport, codeOf, findRule, ruleFilter } from '../../../src/fixers/rules/index.js';
import { parseSelector } from '../../../src/fixers/rules/selection.js';
import { notebookOf } from './support.js';

const ids = (sel: Parameters<typeof ruleFilter>[0]) => ALL_RULES.filter(ruleFilter(sel)).map((r) => r.id);
const OLD = 'import pandas as pd\nimport numpy as np\ndf = pd.DataFrame({"a": [1]})\nprint df.ix[0]\nx = np.float(2)';

describe('rule selectors', () => {
  it('find rules by code (any case) or id', () => {
    const ix = findRule('pandas-ix')!;
    const code = codeOf(ix)!;
    assert.match(code, /^PD\d{3}$/);
    assert.equal(findRule(code), ix);
    assert.equal(findRule(code.toLowerCase()), ix);
    assert.equal(findRule('PD999'), undefined);
  });

  it('select a library by prefix, a group by a longer prefix, one rule by code or id', () => {
    const pandas = ALL_RULES.filter((r) => r.library === 'pandas').map((r) => r.id);
    assert.deepEqual(ids({ select: ['PD'] }), pandas);
    assert.deepEqual(ids({ select: ['PD00'] }), pandas.filter((id) => /^PD00\d$/.test(codeOf(id)!)));
    assert.deepEqual(ids({ select: [codeOf('pandas-ix')!] }), ['pandas-ix']);
    assert.deepEqual(ids({ select: ['pandas-ix'] }), ['pandas-ix']);
    assert.deepEqual(ids({ select: ['ALL'] }), ALL_RULES.map((r) => r.id));
    assert.deepEqual(ids({}), ALL_RULES.map((r) => r.id));
  });

  it('takes comma-separated lists; the most specific selector wins, ignore at equal specificity', () => {
    const ix = codeOf('pandas-ix')!;
    const pandas = ALL_RULES.filter((r) => r.library === 'pandas').map((r) => r.id);
    assert.deepEqual(ids({ select: [`PD,NP`], ignore: [ix] }), ALL_RULES.filter((r) => r.library === 'pandas' || r.library === 'numpy').map((r) => r.id).filter((id) => id !== 'pandas-ix'));
    assert.deepEqual(ids({ select: [ix], ignore: ['PD'] }), ['pandas-ix']);
    assert.deepEqual(ids({ select: ['PD'], ignore: ['PD'] }), []);
    assert.deepEqual(ids({ ignore: ['PD'] }).filter((id) => pandas.includes(id)), []);
    assert.equal(ids({ ignore: ['ALL'] }).length, 0);
  });

  it('rejects unknown selectors with a usage error that says what a selector is', () => {
    for (const bad of ['S', 'PDX', 'PD0001', 'PD999', 'no-such-rule', 'pandas']) {
      assert.throws(() => parseSelector(bad), (e: unknown) => e instanceof UsageError && /unknown rule (selector|code)/.test(e.message), bad);
    }
    assert.throws(() => ruleFilter({ select: ['PD,XX'] }), UsageError);
  });

  it('filter what scan reports and fix applies, in the engine', async () => {
    const nb = notebookOf([OLD], { pythonMajor: 2 });
    assert.deepEqual((await scanNotebook(nb)).map((f) => f.ruleId).sort(), ['numpy-builtin-type-aliases', 'pandas-ix', 'py2-print-statement']);
    assert.deepEqual((await scanNotebook(nb, { select: ['PD'] })).map((f) => f.ruleId), ['pandas-ix']);
    assert.ok(!(await scanNotebook(nb, { ignore: ['PY'] })).some((f) => f.library === 'python'));
    const fixed = await fixNotebook(nb, { select: ['PY'] });
    assert.equal(sourceText(fixed.notebook.cells[0].source).split('\n')[3], 'print(df.ix[0])');
  });

  it('selectors name any registered rule, even when a call considers only some rules', async () => {
    const nb = notebookOf([OLD], { pythonMajor: 2 });
    const only = ALL_RULES.filter((r) => r.id === 'pandas-ix');
    assert.deepEqual(await scanNotebook(nb, { rules: only, select: ['py2-print-statement'] }), []);
    assert.deepEqual((await scanNotebook(nb, { rules: only, ignore: ['PY'] })).map((f) => f.ruleId), ['pandas-ix']);
  });

  it('findings carry the rule code', async () => {
    const [f] = await scanNotebook(notebookOf(['import pandas as pd\ndf = pd.DataFrame()\ndf.ix[0]']));
    assert.equal(f.ruleId, 'pandas-ix');
    assert.equal(f.code, codeOf('pandas-ix'));
  });
});

describe('# nbmodernize: ignore', () => {
  const cells = (directive: string) => notebookOf([`import pandas as pd\nimport numpy as np\ndf = pd.DataFrame({"a": [1]})`, `${directive}\nprint(df.ix[0])\nx = np.float(2)`, 'print(df.ix[0])']);

  it('silences the listed rules in that cell only: reported as suppressed, never applied', async () => {
    const ix = codeOf('pandas-ix')!;
    const nb = cells(`# nbmodernize: ignore[${ix}]`);
    const { findings, suppressed } = await scanNotebookReport(nb);
    assert.deepEqual(suppressed.map((f) => [f.cell, f.ruleId, f.suppressed]), [[1, 'pandas-ix', `# nbmodernize: ignore[${ix}]`]]);
    assert.ok(findings.some((f) => f.cell === 1 && f.ruleId !== 'pandas-ix'), 'other rules still apply in the cell');
    assert.ok(findings.some((f) => f.cell === 2 && f.ruleId === 'pandas-ix'), 'other cells are not silenced');
    const fixed = await fixNotebook(nb);
    const [, c1, c2] = fixed.notebook.cells.map((c) => sourceText(c.source));
    assert.match(c1, /df\.ix\[0\]/);
    assert.doesNotMatch(c1, /np\.float/);
    assert.equal(c2, 'print(df.loc[0])');
    assert.deepEqual(fixed.suppressed.map((f) => f.ruleId), ['pandas-ix']);
    assert.ok(!fixed.findings.some((f) => f.ruleId === 'pandas-ix'));
  });

  it('bare, a prefix, an id, several codes, any spacing; a trailing comment counts too', async () => {
    for (const d of ['# nbmodernize: ignore', '#nbmodernize:ignore[PD,NP]', `# nbmodernize: ignore[pandas-ix, ${codeOf('numpy-builtin-type-aliases')}]`, 'y = 1  # NBMODERNIZE: ignore[ALL]']) {
      const { findings, suppressed } = await scanNotebookReport(cells(d));
      assert.deepEqual(suppressed.map((f) => `${f.cell} ${f.ruleId}`).sort(), ['1 numpy-builtin-type-aliases', '1 pandas-ix'], d);
      assert.deepEqual(findings.map((f) => `${f.cell} ${f.ruleId}`), ['2 pandas-ix'], d);
    }
  });

  it('an unknown code, an empty list, or the words in a string silence nothing', async () => {
    for (const d of ['# nbmodernize: ignore[XX123]', '# nbmodernize: ignore[]', 's = "# nbmodernize: ignore"', '# nbmodernize: ignored']) {
      const { suppressed } = await scanNotebookReport(cells(d));
      assert.deepEqual(suppressed, [], d);
    }
  });
});
