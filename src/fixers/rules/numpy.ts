/** NumPy removals up to 2.x (1.24 alias expiry, the 2.0 namespace cleanup, ndarray methods). */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Fixture, Rule, RuleMatch } from './types.js';
import { err, rule, renameMembers } from './helpers.js';
import { atRuntimeError, isTracedCell } from './traceback.js';
import { addArgument, callArgs, isPure, kwValue, paren, quoteOf, renameKeyword, replaceNode, stringValue } from './tree.js';

const NP2 = 'https://numpy.org/devdocs/numpy_2_0_migration_guide.html#main-namespace';
const NP124 = 'https://numpy.org/doc/stable/release/1.24.0-notes.html#expired-deprecations';

const attrErr = (names: string[]) => err('AttributeError', new RegExp(`(module 'numpy' has no attribute '|\`np\\.)(${names.join('|')})\\b`));
/** `from numpy import float_` of a removed name. */
const importErr = (names: string[]) => err('ImportError', new RegExp(`cannot import name '(${names.join('|')})' from 'numpy'`));

function npRename(
  id: string,
  title: string,
  map: Record<string, string>,
  removedIn: string,
  link: string,
  fixture: { before: string; after: string; expect: string },
  message: string,
  more: Fixture[] = [],
): Rule {
  const qmap = Object.fromEntries(Object.entries(map).map(([k, v]) => [`numpy.${k}`, v]));
  const first = Object.keys(map)[0];
  return rule({
    id,
    triggers: Object.keys(map),
    library: 'numpy',
    title,
    old: `np.${first}`,
    new: map[first].startsWith('.') ? `np${map[first]}` : map[first],
    removedIn,
    errors: [attrErr(Object.keys(map)), importErr(Object.keys(map))],
    link,
    message,
    fixtures: [{ ...fixture, beforeError: 'AttributeError' }, ...more],
    *find(ctx) {
      yield* renameMembers(ctx, qmap, (q) => `np.${q.slice(6)} was removed in NumPy ${removedIn}; use ${map[q.slice(6)].startsWith('.') ? `np${map[q.slice(6)]}` : map[q.slice(6)]}`);
      yield* fromNumpyImports(ctx, map);
    },
  });
}

/**
 * `from numpy import float_ [as f]` -> `from numpy import float64 as float_`: the local name stays bound,
 * so its uses need no change. Only renames within numpy (`.name` targets); builtins are not importable from numpy.
 */
function* fromNumpyImports(ctx: CellContext, map: Record<string, string | ((node: SyntaxNode, obj: string) => string)>): Generator<RuleMatch> {
  for (const stmt of ctx.nodes('import_from_statement')) {
    if (stmt.childForFieldName('module_name')?.text !== 'numpy') continue;
    for (const item of stmt.childrenForFieldName('name')) {
      const name = item?.type === 'aliased_import' ? item.childForFieldName('name') : item;
      const to = name ? map[name.text] : undefined;
      if (!item || !name || typeof to !== 'string' || !to.startsWith('.')) continue;
      yield { node: item, edits: [replaceNode(name, item.type === 'aliased_import' ? to.slice(1) : `${to.slice(1)} as ${name.text}`)] };
    }
  }
}

const builtinAliases = npRename(
  'numpy-builtin-type-aliases', 'np.float / np.int / np.object / np.str aliases',
  { float: 'float', int: 'int', object: 'object', str: 'str', complex: 'complex', unicode: 'str' },
  '1.24', NP124,
  { before: "import numpy as np\nx = np.array([1.5, 2.5]).astype(np.int)\nprint(x.dtype == np.dtype(int), np.float(2), np.str(3))", after: "import numpy as np\nx = np.array([1.5, 2.5]).astype(int)\nprint(x.dtype == np.dtype(int), float(2), str(3))", expect: 'True 2.0 3' },
  'the np.float/np.int/np.object/np.str aliases of Python builtins were removed in NumPy 1.24; use the builtin (same behaviour)',
);

const nanAliases = npRename(
  'numpy-nan-aliases', 'np.NaN / np.NAN', { NaN: '.nan', NAN: '.nan' }, '2.0', NP2,
  { before: 'import numpy as np\nprint(np.isnan(np.NaN), np.isnan(np.NAN))', after: 'import numpy as np\nprint(np.isnan(np.nan), np.isnan(np.nan))', expect: 'True True' },
  'np.NaN/np.NAN were removed in NumPy 2.0; use np.nan',
);

/** A negative constant in place of `node`: parenthesised unless it stands alone (an argument, a list item, ...). */
function negated(node: SyntaxNode, text: string): string {
  const p = node.parent?.type ?? '';
  const bare = ['argument_list', 'keyword_argument', 'assignment', 'expression_list', 'list', 'tuple', 'pair', 'return_statement', 'expression_statement', 'set'].includes(p);
  return bare ? `-${text}` : `(-${text})`;
}
const ninf = (node: SyntaxNode, obj: string) => negated(node, `${obj}.inf`);

const infAliases = rule({
  id: 'numpy-inf-aliases',
  triggers: ['Inf', 'Infinity', 'infty', 'PINF', 'NINF'],
  library: 'numpy',
  title: 'np.Inf / np.Infinity / np.infty / np.PINF / np.NINF',
  old: 'np.Inf, np.NINF',
  new: 'np.inf, -np.inf',
  removedIn: '2.0',
  errors: [attrErr(['Inf', 'Infinity', 'infty', 'PINF', 'NINF']), importErr(['Inf', 'Infinity', 'infty', 'PINF'])],
  link: NP2,
  message: 'the infinity aliases were removed in NumPy 2.0; use np.inf / -np.inf',
  fixtures: [{
    before: 'import numpy as np\nlo, hi = np.NINF, np.Inf\nprint(lo < 0 < hi, np.infty == np.PINF, 2 * np.NINF)',
    after: 'import numpy as np\nlo, hi = -np.inf, np.inf\nprint(lo < 0 < hi, np.inf == np.inf, 2 * (-np.inf))',
    expect: 'True True -inf',
    beforeError: 'AttributeError',
  }, {
    before: 'from numpy import Inf, NaN\nprint(-Inf < NaN)',
    after: 'from numpy import inf as Inf, nan as NaN\nprint(-Inf < NaN)',
    expect: 'False',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    yield* renameMembers(ctx, {
      'numpy.Inf': '.inf', 'numpy.Infinity': '.inf', 'numpy.infty': '.inf', 'numpy.PINF': '.inf',
      'numpy.NINF': (node, obj) => ninf(node, obj),
    });
    yield* fromNumpyImports(ctx, { Inf: '.inf', Infinity: '.inf', infty: '.inf', PINF: '.inf' });
  },
});

const zeroAliases = rule({
  id: 'numpy-zero-aliases',
  triggers: ['PZERO', 'NZERO'],
  library: 'numpy',
  title: 'np.PZERO / np.NZERO',
  old: 'np.PZERO, np.NZERO',
  new: '0.0, -0.0',
  removedIn: '2.0',
  errors: [attrErr(['PZERO', 'NZERO'])],
  link: NP2,
  message: 'np.PZERO/np.NZERO were removed in NumPy 2.0; use 0.0 / -0.0',
  fixtures: [{
    before: 'import numpy as np\nz = np.NZERO\nprint(z, np.PZERO, np.copysign(1, np.NZERO), 2 * np.NZERO)',
    after: 'import numpy as np\nz = -0.0\nprint(z, 0.0, np.copysign(1, -0.0), 2 * (-0.0))',
    expect: '-0.0 0.0 -1.0 -0.0',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMembers(ctx, { 'numpy.PZERO': () => '0.0', 'numpy.NZERO': (node) => negated(node, '0.0') });
  },
});

const scalarAliases = npRename(
  'numpy-scalar-type-aliases', 'np.float_ / np.complex_ / np.int0 / np.bool8 / np.longfloat ...',
  {
    float_: '.float64', complex_: '.complex128', longfloat: '.longdouble', singlecomplex: '.complex64', cfloat: '.complex128',
    longcomplex: '.clongdouble', clongfloat: '.clongdouble', int0: '.intp', uint0: '.uintp', bool8: '.bool_',
    object0: '.object_', str0: '.str_', bytes0: '.bytes_', void0: '.void',
  },
  '2.0', NP2,
  { before: 'import numpy as np\nprint(np.float_ is np.float64, np.array([1]).astype(np.int0).dtype == np.intp, np.bool8(1))', after: 'import numpy as np\nprint(np.float64 is np.float64, np.array([1]).astype(np.intp).dtype == np.intp, np.bool_(1))', expect: 'True True True' },
  'this scalar type alias was removed in NumPy 2.0',
  [{
    before: 'from numpy import float_, nan\nfrom numpy import complex_ as C\nprint(float_(1.5), nan, C(1))',
    after: 'from numpy import float64 as float_, nan\nfrom numpy import complex128 as C\nprint(float_(1.5), nan, C(1))',
    expect: '1.5 nan (1+0j)',
    beforeError: 'ImportError',
  }],
);

const stringAliases = npRename(
  'numpy-string-type-aliases', 'np.unicode_ / np.string_', { unicode_: '.str_', string_: '.bytes_' }, '2.0', NP2,
  { before: "import numpy as np\nprint(np.array(['a']).astype(np.unicode_).dtype.kind, np.string_('b'))", after: "import numpy as np\nprint(np.array(['a']).astype(np.str_).dtype.kind, np.bytes_('b'))", expect: "U b'b'" },
  'np.unicode_/np.string_ were removed in NumPy 2.0; use np.str_/np.bytes_',
);

const roundUnderscore = npRename(
  'numpy-round_', 'np.round_', { round_: '.round' }, '2.0', NP2,
  { before: 'import numpy as np\nprint(np.round_(2.567, 2))', after: 'import numpy as np\nprint(np.round(2.567, 2))', expect: '2.57' },
  'np.round_ was removed in NumPy 2.0; use np.round',
);

const product = npRename(
  'numpy-product-cumproduct', 'np.product / np.cumproduct', { product: '.prod', cumproduct: '.cumprod' }, '2.0', NP2,
  { before: 'import numpy as np\nprint(np.product([2, 3]), np.cumproduct([2, 3]))', after: 'import numpy as np\nprint(np.prod([2, 3]), np.cumprod([2, 3]))', expect: '6 [2 6]' },
  'np.product/np.cumproduct were removed in NumPy 2.0; use np.prod/np.cumprod',
);

const sometrue = npRename(
  'numpy-sometrue-alltrue', 'np.sometrue / np.alltrue', { sometrue: '.any', alltrue: '.all' }, '2.0', NP2,
  { before: 'import numpy as np\nprint(np.sometrue([0, 1]), np.alltrue([0, 1]))', after: 'import numpy as np\nprint(np.any([0, 1]), np.all([0, 1]))', expect: 'True False' },
  'np.sometrue/np.alltrue were removed in NumPy 2.0; use np.any/np.all',
);

const rank = npRename(
  'numpy-rank', 'np.rank', { rank: '.ndim' }, '1.18', 'https://numpy.org/doc/stable/release/1.18.0-notes.html#expired-deprecations',
  { before: 'import numpy as np\nprint(np.rank(np.zeros((2, 3))))', after: 'import numpy as np\nprint(np.ndim(np.zeros((2, 3))))', expect: '2' },
  'np.rank was removed in NumPy 1.18; use np.ndim',
);

const mat = npRename(
  'numpy-mat', 'np.mat', { mat: '.asmatrix' }, '2.0', NP2,
  { before: 'import numpy as np\nprint(np.mat([[1, 2]]).shape)', after: 'import numpy as np\nprint(np.asmatrix([[1, 2]]).shape)', expect: '(1, 2)' },
  'np.mat was removed in NumPy 2.0; use np.asmatrix',
);

const asfarray = rule({
  id: 'numpy-asfarray',
  triggers: ['asfarray'],
  library: 'numpy',
  title: 'np.asfarray',
  old: 'np.asfarray(x)',
  new: 'np.asarray(x, dtype=float)',
  removedIn: '2.0',
  errors: [attrErr(['asfarray'])],
  link: NP2,
  message: 'np.asfarray was removed in NumPy 2.0; use np.asarray(x, dtype=float)',
  fixtures: [{ before: 'import numpy as np\nprint(np.asfarray([1, 2]))', after: 'import numpy as np\nprint(np.asarray([1, 2], dtype=float))', expect: '[1. 2.]', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsTo(['numpy.asfarray'])) {
      const args = callArgs(call);
      if (!args || args.splat || args.all.length !== 1 || args.positional.length !== 1) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(fn.childForFieldName('attribute')!, 'asarray'), addArgument(args, 'dtype=float')] };
    }
  },
});

function npRef(ctx: CellContext) {
  return ctx.moduleRef('numpy', 'np');
}

const ptpMethod = rule({
  id: 'numpy-ptp-method',
  triggers: ['ptp'],
  library: 'numpy',
  title: 'ndarray.ptp()',
  old: 'arr.ptp()',
  new: 'np.ptp(arr)',
  removedIn: '2.0',
  errors: [err('AttributeError', /`ptp` was removed from the ndarray class|object has no attribute 'ptp'/)],
  link: 'https://numpy.org/devdocs/numpy_2_0_migration_guide.html#ndarray-and-scalar-methods',
  message: 'ndarray.ptp() was removed in NumPy 2.0; use np.ptp(arr)',
  fixtures: [{ before: 'import numpy as np\na = np.array([[1, 5], [2, 9]])\nprint(a.ptp(), a.ptp(axis=0))', after: 'import numpy as np\na = np.array([[1, 5], [2, 9]])\nprint(np.ptp(a), np.ptp(a, axis=0))', expect: '8 [1 4]', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['ptp'])) {
      if (ctx.qname(recv) === 'numpy') continue; // np.ptp(...) itself
      const ref = npRef(ctx);
      const args = callArgs(call);
      if (!ref || !args) { yield { node: call }; continue; }
      const rest = args.all.map((a) => a.text);
      yield { node: call, edits: [replaceNode(call, `${ref.name}.ptp(${[recv.text, ...rest].join(', ')})`), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

const asscalar = rule({
  id: 'numpy-asscalar',
  triggers: ['asscalar'],
  library: 'numpy',
  title: 'np.asscalar',
  old: 'np.asscalar(a)',
  new: 'a.item()',
  removedIn: '1.23',
  errors: [attrErr(['asscalar'])],
  link: 'https://numpy.org/doc/stable/release/1.23.0-notes.html#expired-deprecations',
  message: 'np.asscalar was removed in NumPy 1.23; use a.item()',
  fixtures: [{ before: 'import numpy as np\nprint(np.asscalar(np.array([7])) + 1)', after: 'import numpy as np\nprint(np.array([7]).item() + 1)', expect: '8', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['numpy.asscalar'])) {
      const args = callArgs(call);
      if (!args || args.all.length !== 1 || args.splat) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(call, `${paren(args.positional[0])}.item()`)] };
    }
  },
});

const histogramNormed = rule({
  id: 'numpy-histogram-normed',
  triggers: ['normed'],
  library: 'numpy',
  title: 'np.histogram(normed=)',
  old: 'np.histogram(x, normed=True)',
  new: 'np.histogram(x, density=True)',
  removedIn: '1.24',
  errors: [err('TypeError', /histogram\(\) got an unexpected keyword argument 'normed'/)],
  link: NP124,
  message: "np.histogram's normed= was removed in NumPy 1.24; use density=",
  fixtures: [{ before: 'import numpy as np\nh, _ = np.histogram([1, 2, 2], bins=2, normed=True)\nprint(h)', after: 'import numpy as np\nh, _ = np.histogram([1, 2, 2], bins=2, density=True)\nprint(h)', expect: '[0.66666667 1.33333333]', beforeError: 'TypeError' }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['numpy.histogram', 'numpy.histogram2d', 'numpy.histogramdd'])) {
      const kw = callArgs(call)?.keywords.get('normed');
      if (kw && !callArgs(call)!.keywords.has('density')) yield { node: kw, edits: [renameKeyword(kw, 'density')] };
    }
  },
});

const raggedArray = rule({
  id: 'numpy-ragged-array',
  triggers: ['array', 'asarray'],
  library: 'numpy',
  title: 'ragged nested sequences need dtype=object',
  old: 'np.array([[1, 2], [3]])',
  new: 'np.array([[1, 2], [3]], dtype=object)',
  removedIn: '1.24',
  errors: [err('ValueError', /setting an array element with a sequence\. The requested array has an inhomogeneous shape/)],
  link: NP124,
  message: 'creating an array from ragged nested sequences raises since NumPy 1.24; pass dtype=object explicitly',
  fixtures: [{ before: 'import numpy as np\na = np.array([[1, 2], [3]])\nprint(a.shape, a.dtype)', after: 'import numpy as np\na = np.array([[1, 2], [3]], dtype=object)\nprint(a.shape, a.dtype)', expect: '(2,) object', beforeError: 'ValueError' }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['numpy.array', 'numpy.asarray'])) {
      const args = callArgs(call);
      const first = args?.positional[0];
      if (!args || !first || args.keywords.has('dtype') || args.positional.length > 1) continue;
      if (first.type !== 'list' && first.type !== 'tuple') continue;
      const elems = first.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
      if (elems.length < 2 || !elems.every((e) => e.type === 'list' || e.type === 'tuple')) continue;
      const lens = new Set(elems.map((e) => e.namedChildren.filter((c) => c && c.type !== 'comment').length));
      if (lens.size > 1) yield { node: call, edits: [addArgument(args, 'dtype=object')] };
    }
  },
});

const printoptionsNan = rule({
  id: 'numpy-printoptions-threshold-nan',
  triggers: ['set_printoptions'],
  library: 'numpy',
  title: 'np.set_printoptions(threshold=np.nan)',
  old: 'np.set_printoptions(threshold=np.nan)',
  new: 'np.set_printoptions(threshold=sys.maxsize)',
  removedIn: '1.16',
  errors: [err('ValueError', /threshold must be (numeric and )?non-NAN/)],
  link: 'https://numpy.org/doc/stable/release/1.16.0-notes.html',
  message: 'threshold=np.nan raises since NumPy 1.16; use sys.maxsize for untruncated printing',
  fixtures: [{
    before: 'import numpy as np\nnp.set_printoptions(threshold=np.nan)\nprint(np.get_printoptions()["threshold"] > 10 ** 6)',
    after: 'import sys\nimport numpy as np\nnp.set_printoptions(threshold=sys.maxsize)\nprint(np.get_printoptions()["threshold"] > 10 ** 6)',
    expect: 'True',
    beforeError: 'ValueError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['numpy.set_printoptions'])) {
      const v = kwValue(callArgs(call)?.keywords.get('threshold'));
      if (!v) continue;
      const q = ctx.qname(v);
      if (q !== 'numpy.nan' && q !== 'numpy.NaN' && q !== 'numpy.inf' && v.text !== "float('nan')") continue;
      if (q === 'numpy.inf') continue; // inf still works
      const ref = ctx.moduleRef('sys', 'sys');
      if (!ref) { yield { node: v }; continue; }
      yield { node: v, edits: [replaceNode(v, `${ref.name}.maxsize`), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

/** `np.<module>` aliases of stdlib modules that NumPy no longer re-exports. */
function stdlibAlias(id: string, name: string, removedIn: string, fixture: { before: string; after: string; expect: string }): Rule {
  return rule({
    id,
    triggers: [name],
    library: 'numpy',
    title: `np.${name}`,
    old: `np.${name}.X`,
    new: `${name}.X (import ${name})`,
    removedIn,
    errors: [attrErr([name])],
    link: removedIn === '2.0' ? NP2 : NP124,
    message: `np.${name} (the standard ${name} module) is no longer exposed by NumPy; import ${name} directly`,
    fixtures: [{ ...fixture, beforeError: 'AttributeError' }],
    *find(ctx: CellContext): Generator<RuleMatch> {
      for (const { node } of ctx.attributesTo([`numpy.${name}`])) {
        const ref = ctx.moduleRef(name, name);
        if (!ref) { yield { node }; continue; }
        yield { node, edits: [replaceNode(node, ref.name), ...(ref.edit ? [ref.edit] : [])] };
      }
    },
  });
}

const npWarnings = stdlibAlias('numpy-warnings-module', 'warnings', '1.24', {
  before: "import numpy as np\nnp.warnings.filterwarnings('ignore')\nprint('ok')",
  after: "import warnings\nimport numpy as np\nwarnings.filterwarnings('ignore')\nprint('ok')",
  expect: 'ok',
});

const npMath = stdlibAlias('numpy-math-module', 'math', '2.0', {
  before: 'import numpy as np\nprint(np.math.factorial(4))',
  after: 'import math\nimport numpy as np\nprint(math.factorial(4))',
  expect: '24',
});

const msort = rule({
  id: 'numpy-msort',
  triggers: ['msort'],
  library: 'numpy',
  title: 'np.msort',
  old: 'np.msort(a)',
  new: 'np.sort(a, axis=0)',
  removedIn: '2.0',
  errors: [attrErr(['msort'])],
  link: NP2,
  message: 'np.msort was removed in NumPy 2.0; use np.sort(a, axis=0)',
  fixtures: [{ before: 'import numpy as np\nprint(np.msort([3, 1, 2]))', after: 'import numpy as np\nprint(np.sort([3, 1, 2], axis=0))', expect: '[1 2 3]', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsTo(['numpy.msort'])) {
      const args = callArgs(call);
      if (!args || args.all.length !== 1 || args.splat) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(fn.childForFieldName('attribute')!, 'sort'), addArgument(args, 'axis=0')] };
    }
  },
});

const alen = rule({
  id: 'numpy-alen',
  triggers: ['alen'],
  library: 'numpy',
  title: 'np.alen',
  old: 'np.alen(a)',
  new: 'len(a)',
  removedIn: '1.23',
  errors: [attrErr(['alen'])],
  link: 'https://numpy.org/doc/stable/release/1.23.0-notes.html#expired-deprecations',
  message: 'np.alen was removed in NumPy 1.23; use len()',
  fixtures: [{ before: 'import numpy as np\nprint(np.alen(np.zeros((3, 2))))', after: 'import numpy as np\nprint(len(np.zeros((3, 2))))', expect: '3', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { fn } of ctx.callsTo(['numpy.alen'])) {
      if (ctx.nb.isBound('len')) { yield { node: fn }; continue; }
      yield { node: fn, edits: [replaceNode(fn, 'len')] };
    }
  },
});

const itemset = rule({
  id: 'numpy-itemset',
  triggers: ['itemset'],
  library: 'numpy',
  title: 'ndarray.itemset()',
  old: 'a.itemset(i, v)',
  new: 'a[i] = v',
  removedIn: '2.0',
  errors: [err('AttributeError', /`itemset` was removed from the ndarray class|object has no attribute 'itemset'/)],
  link: 'https://numpy.org/devdocs/numpy_2_0_migration_guide.html#ndarray-and-scalar-methods',
  message: 'ndarray.itemset was removed in NumPy 2.0; assign with a[index] = value',
  fixtures: [{ before: 'import numpy as np\na = np.zeros(3)\na.itemset(1, 5)\nprint(a)', after: 'import numpy as np\na = np.zeros(3)\na[1] = 5\nprint(a)', expect: '[0. 5. 0.]', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['itemset'])) {
      const args = callArgs(call);
      const st = call.parent;
      if (!args || args.splat || args.keywords.size || args.positional.length < 2 || st?.type !== 'expression_statement') { yield { node: call }; continue; }
      const idx = args.positional.slice(0, -1).map((a) => a.text).join(', ');
      yield { node: call, edits: [replaceNode(call, `${paren(recv)}[${idx}] = ${args.positional[args.positional.length - 1].text}`)] };
    }
  },
});

/** The key `T` when `node` is the table of `node[T]` (`np.cast[T]`, `np.nbytes[T]`). */
function indexKey(node: SyntaxNode): SyntaxNode | undefined {
  const sub = node.parent;
  return sub?.type === 'subscript' && sub.childForFieldName('value')?.startIndex === node.startIndex ? sub.childForFieldName('subscript') ?? undefined : undefined;
}

/** `np.cast[T](x)`: numpy 1.x's cast table held `lambda x: array(x, copy=False).astype(T)`. */
const cast = rule({
  id: 'numpy-cast',
  triggers: ['cast'],
  library: 'numpy',
  title: 'np.cast[T](x)',
  old: "np.cast['f8'](x)",
  new: "np.asarray(x).astype('f8')",
  removedIn: '2.0',
  errors: [attrErr(['cast'])],
  link: NP2,
  message: 'np.cast was removed in NumPy 2.0; np.cast[T](x) was np.asarray(x).astype(T)',
  fixtures: [{ before: "import numpy as np\nprint(np.cast['int'](np.array([1.7, 2.2])), np.cast[np.float32]([1]).dtype)", after: "import numpy as np\nprint(np.asarray(np.array([1.7, 2.2])).astype('int'), np.asarray([1]).astype(np.float32).dtype)", expect: '[1 2] float32', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['numpy.cast'])) {
      const t = indexKey(node);
      const call = node.parent?.parent;
      const args = t && call?.type === 'call' && call.childForFieldName('function')?.startIndex === node.parent!.startIndex ? callArgs(call) : undefined;
      if (!t || !call || !args || args.all.length !== 1 || args.positional.length !== 1 || args.splat) { yield { node }; continue; }
      const obj = node.childForFieldName('object')!.text;
      yield { node: call, edits: [replaceNode(call, `${obj}.asarray(${args.positional[0].text}).astype(${t.text})`)] };
    }
  },
});

/** `np.nbytes[T]`: a table of item sizes indexed through obj2sctype, i.e. `np.dtype(T).itemsize`. */
const nbytes = rule({
  id: 'numpy-nbytes',
  triggers: ['nbytes'],
  library: 'numpy',
  title: 'np.nbytes[T]',
  old: 'np.nbytes[np.float32]',
  new: 'np.dtype(np.float32).itemsize',
  removedIn: '2.0',
  errors: [attrErr(['nbytes'])],
  link: NP2,
  message: 'np.nbytes was removed in NumPy 2.0; use np.dtype(T).itemsize',
  fixtures: [{ before: 'import numpy as np\nprint(np.nbytes[np.float32], np.nbytes[int])', after: 'import numpy as np\nprint(np.dtype(np.float32).itemsize, np.dtype(int).itemsize)', expect: '4 8', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['numpy.nbytes'])) {
      const t = indexKey(node);
      if (!t) { yield { node }; continue; }
      yield { node: node.parent!, edits: [replaceNode(node.parent!, `${node.childForFieldName('object')!.text}.dtype(${t.text}).itemsize`)] };
    }
  },
});

/** A one-argument call of a removed numpy function rewritten around its argument (`np.fastCopyAndTranspose(a)`). */
function npCallRewrite(
  spec: { id: string; name: string; removedIn: string; link: string; new: string; message: string; fixture: { before: string; after: string; expect: string } },
  rewrite: (np: string, arg: SyntaxNode) => string,
): Rule {
  return rule({
    id: spec.id,
    triggers: [spec.name],
    library: 'numpy',
    title: `np.${spec.name}`,
    old: `np.${spec.name}(a)`,
    new: spec.new,
    removedIn: spec.removedIn,
    errors: [attrErr([spec.name])],
    link: spec.link,
    message: spec.message,
    fixtures: [{ ...spec.fixture, beforeError: 'AttributeError' }],
    *find(ctx) {
      for (const { call, fn } of ctx.callsTo([`numpy.${spec.name}`])) {
        const args = callArgs(call);
        if (fn.type !== 'attribute' || !args || args.all.length !== 1 || args.positional.length !== 1 || args.splat) { yield { node: call }; continue; }
        yield { node: call, edits: [replaceNode(call, rewrite(fn.childForFieldName('object')!.text, args.positional[0]))] };
      }
    },
  });
}

const fastCopyAndTranspose = npCallRewrite({
  id: 'numpy-fast-copy-and-transpose', name: 'fastCopyAndTranspose', removedIn: '2.0', link: 'https://numpy.org/doc/stable/release/2.0.0-notes.html#expired-deprecations',
  new: 'np.asarray(a).T.copy()', message: 'np.fastCopyAndTranspose was removed in NumPy 2.0; use np.asarray(a).T.copy()',
  fixture: { before: 'import numpy as np\nb = np.fastCopyAndTranspose([[1, 2, 3]])\nprint(b.shape, b.flags.c_contiguous)', after: 'import numpy as np\nb = np.asarray([[1, 2, 3]]).T.copy()\nprint(b.shape, b.flags.c_contiguous)', expect: '(3, 1) True' },
}, (np, a) => `${np}.asarray(${a.text}).T.copy()`);

// disp(mesg) wrote '%s\n' % mesg to sys.stdout: print(mesg) for one argument (a tuple would be %-formatted: left alone).
const disp = npCallRewrite({
  id: 'numpy-disp', name: 'disp', removedIn: '2.0', link: NP2,
  new: 'print(a)', message: 'np.disp was removed in NumPy 2.0; use print()',
  fixture: { before: "import numpy as np\nnp.disp('loss: %.2f' % 0.5)", after: "import numpy as np\nprint('loss: %.2f' % 0.5)", expect: 'loss: 0.50' },
}, (_np, a) => `print(${a.text})`);

const sctype2char = npCallRewrite({
  id: 'numpy-sctype2char', name: 'sctype2char', removedIn: '2.0', link: NP2,
  new: 'np.dtype(t).char', message: 'np.sctype2char was removed in NumPy 2.0; use np.dtype(t).char',
  fixture: { before: 'import numpy as np\nprint(np.sctype2char(np.float32), np.sctype2char(int))', after: 'import numpy as np\nprint(np.dtype(np.float32).char, np.dtype(int).char)', expect: 'f l' },
}, (np, a) => `${np}.dtype(${a.text}).char`);

/**
 * `np.find_common_type(types, [])`: without scalar types it was the promotion of the array types,
 * `np.result_type(*types)`. With scalar types the old value-based rules differ: reported only.
 */
const findCommonType = rule({
  id: 'numpy-find-common-type',
  triggers: ['find_common_type'],
  library: 'numpy',
  title: 'np.find_common_type(types, [])',
  old: 'np.find_common_type([a.dtype, b.dtype], [])',
  new: 'np.result_type(a.dtype, b.dtype)',
  removedIn: '2.0',
  errors: [attrErr(['find_common_type'])],
  link: NP2,
  message: 'np.find_common_type was removed in NumPy 2.0; without scalar types it is np.result_type(*types)',
  fixtures: [{ before: 'import numpy as np\nts = [np.int8, np.float32]\nprint(np.find_common_type([np.int64, np.float32], []), np.find_common_type(ts, []))', after: 'import numpy as np\nts = [np.int8, np.float32]\nprint(np.result_type(np.int64, np.float32), np.result_type(*ts))', expect: 'float64 float32', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsTo(['numpy.find_common_type'])) {
      const args = callArgs(call);
      const [types, scalars] = args?.positional ?? [];
      const emptyScalars = scalars && (scalars.type === 'list' || scalars.type === 'tuple') && scalars.namedChildren.every((c) => !c || c.type === 'comment');
      if (fn.type !== 'attribute' || !args || args.all.length !== 2 || args.positional.length !== 2 || args.splat || !emptyScalars) { yield { node: call }; continue; }
      const listed = types.type === 'list' || types.type === 'tuple';
      const inner = listed ? types.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map((c) => c.text).join(', ') : `*${paren(types)}`;
      if (!inner) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(call, `${fn.childForFieldName('object')!.text}.result_type(${inner})`)] };
    }
  },
});

/** `a.newbyteorder(o)` (ndarray and scalars, removed in 2.0) is `a.view(a.dtype.newbyteorder(o))`; `dtype.newbyteorder` stays. */
const newbyteorder = rule({
  id: 'numpy-newbyteorder',
  triggers: ['newbyteorder'],
  library: 'numpy',
  title: 'ndarray.newbyteorder()',
  old: "a.newbyteorder('>')",
  new: "a.view(a.dtype.newbyteorder('>'))",
  removedIn: '2.0',
  errors: [err('AttributeError', /`newbyteorder` was removed from (the ndarray class|scalar types)/)],
  link: 'https://numpy.org/devdocs/numpy_2_0_migration_guide.html#ndarray-and-scalar-methods',
  message: 'ndarray.newbyteorder() was removed in NumPy 2.0; use a.view(a.dtype.newbyteorder(order))',
  fixtures: [
    { before: "import numpy as np\na = np.array([1, 256], dtype='<i2')\nb = a.newbyteorder('>')\nprint(b, b.dtype.byteorder, a.dtype.newbyteorder().byteorder)", after: "import numpy as np\na = np.array([1, 256], dtype='<i2')\nb = a.view(a.dtype.newbyteorder('>'))\nprint(b, b.dtype.byteorder, a.dtype.newbyteorder().byteorder)", expect: '[256   1] > >', beforeError: 'AttributeError' },
    // A call receiver (a file read) cannot be written twice: reported, with the two-step fix.
    { before: 'import numpy as np\nprint(np.frombuffer(bytes([0, 1]), dtype=np.uint16).newbyteorder())', manual: 'import numpy as np\nb = np.frombuffer(bytes([0, 1]), dtype=np.uint16)\nprint(b.view(b.dtype.newbyteorder()))', expect: '[1]', beforeError: 'AttributeError' },
  ],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['newbyteorder'])) {
      // A dtype's own method: `a.dtype.newbyteorder()`, `np.dtype('<i4').newbyteorder()`, `dt.newbyteorder()`.
      if (ctx.qname(recv) || (recv.type === 'attribute' && recv.childForFieldName('attribute')?.text === 'dtype')) continue;
      if (recv.type === 'call' && ctx.qname(recv.childForFieldName('function')) === 'numpy.dtype') continue;
      if (recv.type === 'identifier' && /dtype|^dt$/i.test(recv.text)) continue;
      const args = callArgs(call);
      if (!args || !isPure(recv)) { yield { node: call }; continue; }
      const r = paren(recv);
      yield { node: call, edits: [replaceNode(call, `${r}.view(${r}.dtype.newbyteorder(${args.all.map((a) => a.text).join(', ')}))`)] };
    }
  },
});

/**
 * Type-name strings numpy no longer understands: the numarray-style capitalised names (deprecated in 1.19,
 * removed in 1.20/1.22; `'Complex64'` was complex128, counting the bits of each part) and the `'int0'`-style
 * aliases removed in 2.0. In `.astype()` of an untyped receiver only names pandas does not read as its own
 * nullable dtypes are rewritten (`'Int64'`, `'Float64'`, `'UInt8'` are pandas dtypes there).
 */
const DTYPE_NAMES: Record<string, string> = {
  Bool: 'bool', Int8: 'int8', Int16: 'int16', Int32: 'int32', Int64: 'int64',
  UInt8: 'uint8', UInt16: 'uint16', UInt32: 'uint32', UInt64: 'uint64', Uint32: 'uint32', Uint64: 'uint64',
  Float16: 'float16', Float32: 'float32', Float64: 'float64', Complex32: 'complex64', Complex64: 'complex128',
  Object0: 'object', String0: 'bytes', Bytes0: 'bytes', Unicode0: 'str', Str0: 'str', Void0: 'V', Datetime64: 'datetime64', Timedelta64: 'timedelta64',
  int0: 'intp', uint0: 'uintp', bool8: 'bool', object0: 'object', str0: 'str', bytes0: 'bytes', void0: 'V',
};
const PANDAS_DTYPE_NAMES = new Set(['Int8', 'Int16', 'Int32', 'Int64', 'UInt8', 'UInt16', 'UInt32', 'UInt64', 'Float32', 'Float64']);

const dtypeNameStrings = rule({
  id: 'numpy-dtype-name-strings',
  library: 'numpy',
  title: "np.dtype('Float64') / astype('bool8')",
  old: "np.zeros(3, dtype='Float64'), a.astype('int0')",
  new: "np.zeros(3, dtype='float64'), a.astype('intp')",
  removedIn: '2.0',
  deprecatedIn: '1.19',
  errors: [err('TypeError', new RegExp(`(data type '|Alias ')(${Object.keys(DTYPE_NAMES).join('|')})' (not understood|was removed)`))],
  link: 'https://numpy.org/doc/stable/release/1.22.0-notes.html#deprecated-numeric-style-dtype-strings-have-been-removed',
  message: "numarray-style dtype names ('Float64', 'Complex64', 'Uint32') were removed in NumPy 1.20/1.22 and the 'int0'/'bool8' aliases in 2.0; use the lower-case names",
  gate: { literals: Object.keys(DTYPE_NAMES) },
  fixtures: [{
    before: "import numpy as np\na = np.zeros(2, dtype='Float32')\nprint(a.dtype, np.dtype('Complex64'), a.astype('int0').dtype, np.array([1]).astype(dtype='bool8'))",
    after: "import numpy as np\na = np.zeros(2, dtype='float32')\nprint(a.dtype, np.dtype('complex128'), a.astype('intp').dtype, np.array([1]).astype(dtype='bool'))",
    expect: 'float32 complex128 int64 [ True]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    const fix = function* (node: SyntaxNode | undefined, numpyCall: boolean): Generator<RuleMatch> {
      const v = node && node.type === 'string' ? stringValue(node) : undefined;
      const to = v !== undefined ? DTYPE_NAMES[v] : undefined;
      if (!node || !to || (!numpyCall && PANDAS_DTYPE_NAMES.has(v!))) return;
      const q = quoteOf(node);
      yield { node, edits: [replaceNode(node, `${q}${to}${q}`)] };
    };
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      const args = callArgs(call);
      if (!fn || !args) continue;
      const q = ctx.qname(fn);
      if (q?.startsWith('numpy.')) {
        yield* fix(kwValue(args.keywords.get('dtype')), true);
        if (q === 'numpy.dtype') yield* fix(args.positional[0], true);
      } else if (!q && fn.type === 'attribute' && ['astype', 'view'].includes(fn.childForFieldName('attribute')!.text)) {
        yield* fix(kwValue(args.keywords.get('dtype')) ?? args.positional[0], false);
      }
    }
  },
});

const STACKERS = ['stack', 'vstack', 'hstack', 'dstack', 'column_stack', 'row_stack'];

/** NumPy 1.25 made the stacking functions require a sequence: a generator or map() argument now raises TypeError. */
const stackSequence = rule({
  id: 'numpy-stack-sequence',
  triggers: STACKERS,
  library: 'numpy',
  title: 'np.vstack(generator)',
  old: 'np.vstack(f(x) for x in xs)',
  new: 'np.vstack([f(x) for x in xs])',
  removedIn: '1.25',
  deprecatedIn: '1.16',
  errors: [err('TypeError', /arrays to stack must be passed as a "sequence" type/)],
  link: 'https://numpy.org/doc/stable/release/1.25.0-notes.html#expired-deprecations',
  message: 'np.stack/vstack/hstack/dstack/column_stack need a sequence since NumPy 1.25 (a generator or map() raises TypeError): build a list',
  fixtures: [{
    before: 'import numpy as np\nprint(np.vstack(np.arange(2) + i for i in range(3)).shape, np.hstack(map(np.ones, [1, 2])).shape)',
    after: 'import numpy as np\nprint(np.vstack([np.arange(2) + i for i in range(3)]).shape, np.hstack(list(map(np.ones, [1, 2]))).shape)',
    expect: '(3, 2) (3,)',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(STACKERS.map((n) => `numpy.${n}`))) {
      const argList = call.childForFieldName('arguments');
      // `np.vstack(x for x in xs)`: the generator is the whole argument list.
      if (argList?.type === 'generator_expression') {
        yield { node: argList, edits: [replaceNode(argList, `([${argList.text.slice(1, -1)}])`)] };
        continue;
      }
      const first = callArgs(call)?.positional[0];
      if (!first) continue;
      if (first.type === 'generator_expression') { yield { node: first, edits: [replaceNode(first, `[${first.text.slice(1, -1)}]`)] }; continue; }
      const fn = first.type === 'call' ? first.childForFieldName('function') : undefined;
      if (fn?.type === 'identifier' && ['map', 'filter', 'zip'].includes(fn.text) && ctx.isFreeName(fn)) yield { node: first, edits: [replaceNode(first, `list(${first.text})`)] };
    }
  },
});

/**
 * NumPy 1.12 made an integer raised to a negative integer power a ValueError ("Integers to negative
 * integer powers are not allowed."). Before, a scalar power returned the float result (numpy PR
 * 7447: "we return a float or double for these cases"), which is what notebooks of the era relied
 * on when they built regularisation grids as `10 ** alpha` over `np.arange(-6, 1)`. The base written
 * as an integer literal becomes the same number as a float, which gives that float. Array bases
 * (old numpy truncated those to 0) and non-literal bases are not rewritten.
 *
 * Recognised from the runtime error, on the traceback's lines.
 */
const intNegativePower = rule({
  id: 'numpy-integer-negative-power',
  library: 'numpy',
  title: 'an integer literal raised to a numpy integer negative power (10 ** alpha)',
  old: 'for a in np.arange(-3, 1): print(10 ** a)',
  new: 'for a in np.arange(-3, 1): print(10.0 ** a)',
  removedIn: '1.12',
  trigger: 'error',
  errors: [err('ValueError', /Integers to negative integer powers are not allowed/)],
  link: 'https://numpy.org/doc/stable/release/1.12.0-notes.html#deprecationwarning-to-error',
  message: 'since NumPy 1.12 an integer to a negative integer power raises; the scalar power gave the float result before, which a float base gives again',
  fixtures: [{
    before: "import numpy as np\nalphas = []\nfor alpha in np.arange(-3, 1):\n    alphas.append(10 ** alpha)\nprint(['%f' % a for a in alphas])",
    after: "import numpy as np\nalphas = []\nfor alpha in np.arange(-3, 1):\n    alphas.append(10.0 ** alpha)\nprint(['%f' % a for a in alphas])",
    expect: "['0.001000', '0.010000', '0.100000', '1.000000']",
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'Integers to negative integer powers are not allowed.' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, /Integers to negative integer powers are not allowed/);
    if (!at) return;
    if (!isTracedCell(ctx)) return;
    const base = (n: SyntaxNode | null | undefined) => (n?.type === 'integer' && /^\d+$/.test(n.text) ? n : undefined);
    for (const op of ctx.nodes('binary_operator')) {
      if (op.childForFieldName('operator')?.text !== '**' || !at.onLine(op)) continue;
      const b = base(op.childForFieldName('left'));
      if (b) yield { node: op, edits: [replaceNode(b, `${b.text}.0`)] };
    }
    for (const call of ctx.nodes('call')) {
      if (!at.onLine(call)) continue;
      const fn = call.childForFieldName('function');
      const q = fn ? ctx.nb.qname(fn, ctx.index) : undefined;
      if (q !== 'numpy.power' && !(fn?.type === 'identifier' && fn.text === 'pow' && !ctx.nb.isBound('pow'))) continue;
      const b = base(callArgs(call)?.positional[0]);
      if (b) yield { node: call, edits: [replaceNode(b, `${b.text}.0`)] };
    }
  },
});

export const numpyRules: Rule[] = [
  intNegativePower,
  builtinAliases, nanAliases, infAliases, scalarAliases, stringAliases, roundUnderscore, product, sometrue, rank, mat,
  asfarray, ptpMethod, asscalar, histogramNormed, raggedArray, printoptionsNan, npWarnings, npMath, msort, alen, itemset, stackSequence,
  zeroAliases, cast, nbytes, fastCopyAndTranspose, disp, sctype2char, findCommonType, newbyteorder, dtypeNameStrings,
];

