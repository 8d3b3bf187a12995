/** The 2to3-fixer rules (py2-fixers.ts): where they must not fire. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fixSource } from './support.js';

async function unchanged(src: string, pythonMajor?: 2 | 3, ruleId?: string): Promise<void> {
  const { out, findings } = await fixSource(src, {}, pythonMajor);
  assert.equal(out, src);
  if (ruleId) assert.deepEqual(findings.filter((f) => f.ruleId === ruleId && f.autoFixable), []);
}

describe('py2 fixer rules', () => {
  it('leave Python 2 only names alone in a Python 3 notebook without a runtime error', async () => {
    await unchanged('class A:\n    __metaclass__ = type\n    def __nonzero__(self):\n        return False\n    def next(self):\n        return 1\nf = A()\nprint(f.func_name, f.im_self)', 3);
  });

  it('py2-special-methods: renames next only when it takes no argument', async () => {
    await unchanged('class Pager(object):\n    def next(self, n):\n        return n\nprint(Pager().next(2))', 2, 'py2-special-methods');
  });

  it('py2-sort-cmp: reports, does not rewrite, when a key is given too', async () => {
    const src = 'xs = [3, 1]\nxs.sort(key=abs, cmp=lambda a, b: a - b)\nprint(xs)';
    const { out, findings } = await fixSource(src, {}, 2);
    assert.equal(out, src);
    assert.ok(findings.some((f) => f.ruleId === 'py2-sort-cmp' && !f.autoFixable));
  });

  it('py2-dict-view-concat: leaves pandas keys() alone', async () => {
    await unchanged("import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ncols = df.keys() + '_x'\nprint(cols)", 3, 'py2-dict-view-concat');
  });

  it('py2-special-methods with py2-next-method: the renamed method is still called by next()', async () => {
    const { out } = await fixSource('class P(object):\n    def next(self):\n        return 1\np = P()\nprint p.next()', {}, 2);
    assert.equal(out, 'class P(object):\n    def __next__(self):\n        return 1\np = P()\nprint(next(p))');
  });

  it('py2-dict-view-concat: a Python 3 notebook only from the runtime error', async () => {
    await unchanged("d = {'a': 1}\nprint(d.keys() + ['z'])", 3, 'py2-dict-view-concat');
  });

  it('py2-dict-view-sort: only a name last bound to a dict view', async () => {
    await unchanged("d = {'b': 1}\nk = d.keys()\nk = list(k)\nk.sort()\nprint(k)", 2, 'py2-dict-view-sort');
  });

  it('py2-metaclass-attribute: a class with no bases gets parentheses', async () => {
    const { out } = await fixSource('class A:\n    __metaclass__ = M\n', {}, 2);
    assert.equal(out, 'class A(metaclass=M):\n    pass\n');
  });
});
