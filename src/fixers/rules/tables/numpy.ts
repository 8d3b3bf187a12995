/** NumPy 2.0 namespace removals (the NPY201 list, numpy/_expired_attrs_2_0.py) that numpy.ts does not cover. Checked in 2.2.4. */
import type { TableEntry } from '../table-rules.js';
import { err } from '../helpers.js';

const NP2 = 'https://numpy.org/doc/stable/numpy_2_0_migration_guide.html#main-namespace';
const NP = 'import numpy as np\n';

const NPYIO_122 = 'https://numpy.org/doc/stable/release/1.22.0-notes.html#expired-deprecations-for-loads-ndfromtxt-and-mafromtxt-in-npyio';
const NP2_LIB = 'https://numpy.org/doc/stable/numpy_2_0_migration_guide.html#numpy-lib-namespace';

const move = (id: string, name: string, to: string, before: string, after: string, expect: string, link = NP2): TableEntry => ({
  kind: 'move-symbol', id, library: 'numpy', removedIn: '2.0', deprecatedIn: '2.0',
  from: `numpy.${name}`, to, link,
  message: `np.${name} was removed from the main namespace in NumPy 2.0: use ${to.replace(/^builtins\./, '')}`,
  fixtures: [{ before: NP + before, after, expect, beforeError: 'AttributeError' }],
});

const EXC = 'https://numpy.org/doc/stable/reference/routines.exceptions.html';
/** Warnings and exceptions that left the main namespace in 2.0 (NEP 52): numpy.exceptions has them since 1.25. */
const exception = (id: string, name: string, before: string, after: string, expect: string): TableEntry => ({
  ...move(id, name, `numpy.exceptions.${name}`, before, NP + after, expect, EXC),
  message: `np.${name} was removed from the main namespace in NumPy 2.0: use np.exceptions.${name}`,
});
const filterCell = (ref: string) => `import warnings\nwarnings.filterwarnings('ignore', category=${ref})\nprint(warnings.filters[0][2].__name__)`;

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
  // Third pass (NPY201 list / _expired_attrs_2_0.py, 1.22 expired deprecations).
  move('numpy-lib-pad', 'lib.pad', 'numpy.pad', "print(np.lib.pad(np.ones(2), 1, 'constant'))", NP + "print(np.pad(np.ones(2), 1, 'constant'))", '[0. 1. 1. 0.]', NP2_LIB),
  move('numpy-datasource', 'DataSource', 'numpy.lib.npyio.DataSource', 'ds = np.DataSource(None)\nprint(type(ds).__name__)', NP + 'ds = np.lib.npyio.DataSource(None)\nprint(type(ds).__name__)', 'DataSource'),
  move('numpy-compare-chararrays', 'compare_chararrays', 'numpy.char.compare_chararrays', "print(np.compare_chararrays(['a', 'b'], ['a', 'c'], '==', True))", NP + "print(np.char.compare_chararrays(['a', 'b'], ['a', 'c'], '==', True))", '[ True False]'),
  move('numpy-format-parser', 'format_parser', 'numpy.rec.format_parser', "print(np.format_parser(['i4', 'f8'], ['a', 'b'], []).dtype.names)", NP + "print(np.rec.format_parser(['i4', 'f8'], ['a', 'b'], []).dtype.names)", "('a', 'b')"),
  {
    kind: 'rename-function', id: 'numpy-issubsctype', library: 'numpy', removedIn: '2.0', deprecatedIn: '2.0',
    from: 'numpy.issubsctype', to: 'numpy.issubdtype', link: NP2,
    message: 'np.issubsctype was removed in NumPy 2.0: use np.issubdtype',
    fixtures: [{ before: NP + 'print(np.issubsctype(np.int8, np.integer), np.issubsctype(np.float32, np.integer))', after: NP + 'print(np.issubdtype(np.int8, np.integer), np.issubdtype(np.float32, np.integer))', expect: 'True False', beforeError: 'AttributeError' }],
  },
  {
    kind: 'move-symbol', id: 'numpy-loads', library: 'numpy', removedIn: '1.22', deprecatedIn: '1.15',
    from: 'numpy.loads', to: 'pickle.loads', link: NPYIO_122,
    message: 'np.loads (an alias of pickle.loads) was removed in NumPy 1.22: use pickle.loads',
    fixtures: [{ before: 'import pickle\n' + NP + 'print(np.loads(pickle.dumps([1, 2])))', after: 'import pickle\n' + NP + 'print(pickle.loads(pickle.dumps([1, 2])))', expect: '[1, 2]', beforeError: 'AttributeError' }],
  },
  {
    // ndfromtxt was genfromtxt with usemask=False, genfromtxt's default.
    kind: 'rename-function', id: 'numpy-ndfromtxt', library: 'numpy', removedIn: '1.22', deprecatedIn: '1.17',
    from: 'numpy.ndfromtxt', to: 'numpy.genfromtxt', link: NPYIO_122,
    message: 'np.ndfromtxt was removed in NumPy 1.22: use np.genfromtxt (same defaults)',
    fixtures: [{ before: NP + "import io\nprint(np.ndfromtxt(io.StringIO('1 2\\n3 4')))", after: NP + "import io\nprint(np.genfromtxt(io.StringIO('1 2\\n3 4')))", expect: '[[1. 2.]\n [3. 4.]]', beforeError: 'AttributeError' }],
  },
  {
    // NumPy 2 made copy=False mean "never copy" (ValueError when a copy is needed); None is the old "copy only if needed".
    kind: 'replace-value', id: 'numpy-array-copy-false', library: 'numpy', removedIn: '2.0',
    callees: [{ qname: 'numpy.array' }], kwarg: 'copy', values: { False: 'None' },
    errors: [err('ValueError', /Unable to avoid copy while creating an array as requested/)],
    link: 'https://numpy.org/doc/stable/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword',
    message: 'np.array(copy=False) means "never copy" since NumPy 2.0 and fails when a copy is needed: copy=None keeps the old "copy only if needed"',
    fixtures: [{ before: NP + 'a = np.array([1, 2], copy=False)\nprint(a.sum())', after: NP + 'a = np.array([1, 2], copy=None)\nprint(a.sum())', expect: '3', beforeError: 'ValueError' }],
  },
  exception('numpy-visible-deprecation-warning', 'VisibleDeprecationWarning', filterCell('np.VisibleDeprecationWarning'), filterCell('np.exceptions.VisibleDeprecationWarning'), 'VisibleDeprecationWarning'),
  exception('numpy-complex-warning', 'ComplexWarning', filterCell('np.ComplexWarning'), filterCell('np.exceptions.ComplexWarning'), 'ComplexWarning'),
  exception('numpy-rank-warning', 'RankWarning', filterCell('np.RankWarning'), filterCell('np.exceptions.RankWarning'), 'RankWarning'),
  exception('numpy-axis-error', 'AxisError',
    'try:\n    np.zeros(2).sum(axis=3)\nexcept np.AxisError as e:\n    print(type(e).__name__)',
    'try:\n    np.zeros(2).sum(axis=3)\nexcept np.exceptions.AxisError as e:\n    print(type(e).__name__)', 'AxisError'),
  exception('numpy-too-hard-error', 'TooHardError', 'print(issubclass(np.TooHardError, RuntimeError))', 'print(issubclass(np.exceptions.TooHardError, RuntimeError))', 'True'),
  exception('numpy-module-deprecation-warning', 'ModuleDeprecationWarning', 'print(issubclass(np.ModuleDeprecationWarning, DeprecationWarning))', 'print(issubclass(np.exceptions.ModuleDeprecationWarning, DeprecationWarning))', 'True'),
  // ruff NPY201 and the 1.21/1.25 expired deprecations (2026-11-27 pass).
  move('numpy-add-docstring', 'add_docstring', 'numpy.lib.add_docstring', 'print(np.add_docstring.__name__)', NP + 'print(np.lib.add_docstring.__name__)', 'add_docstring'),
  move('numpy-add-newdoc', 'add_newdoc', 'numpy.lib.add_newdoc', 'print(np.add_newdoc.__name__)', NP + 'print(np.lib.add_newdoc.__name__)', 'add_newdoc'),
  move('numpy-tracemalloc-domain', 'tracemalloc_domain', 'numpy.lib.tracemalloc_domain', 'print(np.tracemalloc_domain)', NP + 'print(np.lib.tracemalloc_domain)', '389047'),
  {
    kind: 'rename-kwarg', id: 'numpy-unravel-index-dims', library: 'numpy', removedIn: '1.21', deprecatedIn: '1.16',
    callees: [{ qname: 'numpy.unravel_index' }], from: 'dims', to: 'shape',
    link: 'https://numpy.org/doc/stable/release/1.21.0-notes.html#expired-deprecations',
    message: "np.unravel_index's dims= was removed in NumPy 1.21: use shape=",
    fixtures: [{ before: NP + 'r, c = np.unravel_index(5, dims=(2, 3))\nprint(r, c)', after: NP + 'r, c = np.unravel_index(5, shape=(2, 3))\nprint(r, c)', expect: '1 2', beforeError: 'TypeError' }],
  },
  {
    kind: 'rename-kwarg', id: 'numpy-out-keyword-y', library: 'numpy', removedIn: '1.25',
    callees: [{ qname: 'numpy.fix' }, { qname: 'numpy.isposinf' }, { qname: 'numpy.isneginf' }], from: 'y', to: 'out',
    link: 'https://numpy.org/doc/stable/release/1.25.0-notes.html#expired-deprecations',
    message: 'y= (an alias of out=) of np.fix/np.isposinf/np.isneginf was removed in NumPy 1.25: use out=',
    fixtures: [{
      before: NP + 'o = np.empty(2)\nnp.fix([1.5, -2.5], y=o)\nprint(o, np.isposinf([np.inf, 1.0], y=np.empty(2, dtype=bool)))',
      after: NP + 'o = np.empty(2)\nnp.fix([1.5, -2.5], out=o)\nprint(o, np.isposinf([np.inf, 1.0], out=np.empty(2, dtype=bool)))',
      expect: '[ 1. -2.] [ True False]', beforeError: 'TypeError',
    }],
  },
];
