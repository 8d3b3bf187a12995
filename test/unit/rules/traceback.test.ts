import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { notebookFrames, onFrameLines, statementRows } from '../../../src/fixers/rules/traceback.js';
import { parsePython } from '../../../src/fixers/python/parser.js';

// As the fixed environment's kernel prints it (ipykernel 6 / IPython 9, captured from a real run).
const TB = [
  '---------------------------------------------------------------------------',
  'AttributeError                            Traceback (most recent call last)',
  '/tmp/ipykernel_4/1901470577.py in ?()\n      1 x = 1\n----> 2 f(pd.DataFrame({"a":[1]}))\n',
  '/tmp/ipykernel_4/2142053953.py in ?(d)\n      2 def f(d):\n----> 3     return d.as_matrix()\n',
  '/usr/lib/python3/dist-packages/pandas/core/generic.py in ?(self, name)\n-> 6299         return object.__getattribute__(self, name)\n',
  "AttributeError: 'DataFrame' object has no attribute 'as_matrix'",
];

describe('notebookFrames', () => {
  it('maps each notebook frame to the cell whose lines it lists, library frames skipped', () => {
    const sources = ['import pandas as pd\ndef f(d):\n    return d.as_matrix()', '# notes', 'x = 1\nf(pd.DataFrame({"a":[1]}))'];
    assert.deepEqual(notebookFrames(TB, sources), [{ cell: 2, line: 2 }, { cell: 0, line: 3 }]);
  });
  it('a cell that starts with blank lines: IPython numbers from its first line with code, the frame names the notebook line', () => {
    // IPython's leading_empty_lines transform drops the blank top line before compiling (captured shape of a real run).
    const tb = [
      '/tmp/ipykernel_22/1295293732.py in ?()\n      1 # fix zeros\n----> 2 train = g(train)\n',
      '/tmp/ipykernel_22/3158133065.py in ?(data)\n      1 def g(data):\n----> 2     return data.append(data)\n',
      "AttributeError: 'DataFrame' object has no attribute 'append'",
    ];
    const sources = ['\n  \ndef g(data):\n    return data.append(data)', '# fix zeros\ntrain = g(train)'];
    assert.deepEqual(notebookFrames(tb, sources), [{ cell: 1, line: 2 }, { cell: 0, line: 4 }]);
    // A kernel that kept the blank lines (no transform): the plain numbers still match.
    const kept = ['/tmp/ipykernel_22/3158133065.py in ?(data)\n      3 def g(data):\n----> 4     return data.append(data)\n'];
    assert.deepEqual(notebookFrames(kept, sources), [{ cell: 0, line: 4 }]);
  });
  it('IPython 8 headers and ANSI colours', () => {
    const tb = ['\u001b[0;31mCell In[7], line 2\u001b[0m, in \u001b[0;36mg\u001b[0;34m(s)\u001b[0m\n\u001b[1;32m      1\u001b[0m def g(s):\n\u001b[0;32m----> 2\u001b[0m     return s.order()\n'];
    assert.deepEqual(notebookFrames(tb, ['def g(s):\n    return s.order()']), [{ cell: 0, line: 2, function: 'g' }]);
  });
  it('the library method a line called, from the next frame\'s qualified name', () => {
    const tb = [
      'Cell In[13], line 2\n      1 def f(d):\n----> 2     return d.corr()\n',
      'File /usr/lib/python3/dist-packages/pandas/core/frame.py:11049, in DataFrame.corr(self, method, min_periods, numeric_only)\n  11048 idx = cols.copy()\n> 11049 mat = data.to_numpy(dtype=float)\n',
      "ValueError: could not convert string to float: 'RL'",
    ];
    assert.deepEqual(notebookFrames(tb, ['def f(d):\n    return d.corr()']), [{ cell: 0, line: 2, callee: { type: 'DataFrame', method: 'corr' } }]);
  });
  it('a function body deep in the cell: IPython lists its lines dedented, they still match the indented source', () => {
    // Captured from the fixed environment's kernel (IPython 9): lines 12-18 of a def's body, common indent stripped.
    const tb = [
      "Cell In[2], line 6\n      4     return sorted(d)\n----> 6 out = clean([1, 'a'])\n",
      "Cell In[2], line 4, in clean(d)\n      2 # sort it\n      3 d = list(d)\n----> 4 return sorted(d)\n",
      "TypeError: '<' not supported between instances of 'str' and 'int'",
    ];
    const src = "def clean(d):\n    # sort it\n    d = list(d)\n    return sorted(d)\n\nout = clean([1, 'a'])";
    assert.deepEqual(notebookFrames(tb, ['x = 1', src], 1), [{ cell: 1, line: 6 }, { cell: 1, line: 4, function: 'clean' }]);
  });
});

describe('statementRows / onFrameLines with the cell tree', () => {
  // Python 3.13 names the line of the call being made: the `.fit(X, y)` line, not the argument's.
  const src = "from x import *\nm = make_pipeline(Scaler(),\n                  LassoCV(max_iter=1e7,\n                          alphas=[1])).fit(X, y)\nfor i in range(3):\n    y = f(i,\n          k=2)\nz = 1";
  it('a line of a multi-line statement stands for the whole statement', () => {
    const tree = parsePython(src);
    try {
      assert.deepEqual(statementRows(tree.rootNode, 4), [1, 3]);
      assert.deepEqual(statementRows(tree.rootNode, 2), [1, 3]);
      // Inside a loop's body: the body's statement, not the loop.
      assert.deepEqual(statementRows(tree.rootNode, 6), [5, 6]);
      // A compound statement's header is its own line only.
      assert.deepEqual(statementRows(tree.rootNode, 5), [4, 4]);
      assert.deepEqual(statementRows(tree.rootNode, 8), [7, 7]);
    } finally {
      tree.delete();
    }
  });
  it('a keyword two lines above the failing line is on it; other statements are not', () => {
    const tree = parsePython(src);
    try {
      const kws = tree.rootNode.descendantsOfType('keyword_argument').filter((n) => !!n);
      const withRoot = onFrameLines([{ cell: 0, line: 4 }], 0, tree.rootNode);
      const lineOnly = onFrameLines([{ cell: 0, line: 4 }], 0);
      assert.deepEqual(kws.map((k) => [k!.text, withRoot(k!), lineOnly(k!)]), [['max_iter=1e7', true, false], ['alphas=[1]', true, true], ['k=2', false, false]]);
    } finally {
      tree.delete();
    }
  });
});
