/** NumPy 2.0 namespace removals (the NPY201 list, numpy/_expired_attrs_2_0.py) that numpy.ts does not cover. Checked in 2.2.4. */
import type { TableEntry } from '../table-rules.js';

const NP2 = 'https://numpy.org/doc/stable/numpy_2_0_migration_guide.html#main-namespace';
const NP = 'import numpy as np\n';

const move = (id: string, name: string, to: string, before: string, after: string, expect: string): TableEntry => ({
  kind: 'move-symbol', id, library: 'numpy', removedIn: '2.0', deprecatedIn: '2.0',
  from: `numpy.${name}`, to, link: NP2,
  message: `np.${name} was removed from the main namespace in NumPy 2.0: use ${to.replace(/^builtins\./, '')}`,
  fixtures: [{ before: NP + before, after, expect, beforeError: 'AttributeError' }],
});

export const numpyTable: TableEntry[] = [
  move('numpy-issubclass', 'issubclass_', 'builtins.issubclass', 'print(np.issubclass_(bool, int))', NP + 'print(issubclass(bool, int))', 'True'),
  move('numpy-safe-eval', 'safe_eval', 'ast.literal_eval', "print(np.safe_eval('[1, 2]'))", 'import ast\n' + NP + "print(ast.literal_eval('[1, 2]'))", '[1, 2]'),
  move('numpy-byte-bounds', 'byte_bounds', 'numpy.lib.array_utils.byte_bounds', 'a = np.zeros(4)\nlo, hi = np.byte_bounds(a)\nprint(hi - lo)', NP + 'a = np.zeros(4)\nlo, hi = np.lib.array_utils.byte_bounds(a)\nprint(hi - lo)', '32'),
  {
    kind: 'rename-function', id: 'numpy-typedict', library: 'numpy', removedIn: '1.24', deprecatedIn: '1.21',
    from: 'numpy.typeDict', to: 'numpy.sctypeDict',
    link: 'https://numpy.org/doc/stable/release/1.24.0-notes.html#expired-deprecations',
    message: 'np.typeDict was removed in NumPy 1.24: use np.sctypeDict',
    fixtures: [{ before: NP + "print(np.typeDict['float64'])", after: NP + "print(np.sctypeDict['float64'])", expect: "<class 'numpy.float64'>", beforeError: 'AttributeError' }],
  },
];
