/** SciPy removals: scipy.misc functions, numpy re-exports, integrate renames (1.14), stats.mode keepdims (1.11). */
import type { CellContext, NotebookContext } from './context.js';
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule, moveImportedNames } from './helpers.js';
import { addArgument, callArgs, replaceNode, sameNode } from './tree.js';
import { onFrameLines } from './traceback.js';

const REL = (v: string) => `https://docs.scipy.org/doc/scipy/release/${v}-notes.html`;

const MISC_SPECIAL = ['comb', 'factorial', 'factorial2', 'factorialk', 'logsumexp'];

const miscSpecial = rule({
  id: 'scipy-misc-special',
  triggers: MISC_SPECIAL,
  library: 'scipy',
  title: 'scipy.misc.comb / factorial / logsumexp',
  old: 'from scipy.misc import comb',
  new: 'from scipy.special import comb',
  removedIn: '1.3',
  errors: [err('ImportError', new RegExp(`cannot import name '(${MISC_SPECIAL.join('|')})' from 'scipy\\.misc'`)), err('AttributeError', new RegExp(`module 'scipy\\.misc' has no attribute '(${MISC_SPECIAL.join('|')})'`))],
  link: REL('1.3.0'),
  message: 'these functions moved from scipy.misc to scipy.special (removed from misc in SciPy 1.3)',
  fixtures: [{
    before: 'import scipy.misc\nfrom scipy.misc import comb\nprint(comb(5, 2), scipy.misc.factorial(3))',
    after: 'import scipy.special\nimport scipy.misc\nfrom scipy.special import comb\nprint(comb(5, 2), scipy.special.factorial(3))',
    expect: '10.0 6.0',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'scipy.misc', Object.fromEntries(MISC_SPECIAL.map((n) => [n, { module: 'scipy.special' }])));
    for (const { node, qname } of ctx.attributesTo(MISC_SPECIAL.map((n) => `scipy.misc.${n}`))) {
      const name = qname.split('.').pop()!;
      const obj = node.childForFieldName('object')!;
      // `scipy.misc.comb` -> `scipy.special.comb`; `misc.comb` (from scipy import misc) -> `special.comb`.
      if (obj.type === 'attribute') {
        const edits: TextEdit[] = [replaceNode(obj.childForFieldName('attribute')!, 'special')];
        if (!ctx.nb.importedModules.has('scipy.special') && obj.childForFieldName('object')?.text === 'scipy') edits.push(ctx.importEdit('import scipy.special'));
        yield { node, edits };
      } else {
        const ref = ctx.nb.aliasFor('scipy.special');
        if (ref) yield { node, edits: [replaceNode(node, `${ref}.${name}`)] };
        else if (!ctx.nb.isBound('special')) yield { node, edits: [replaceNode(node, `special.${name}`), ctx.importEdit('from scipy import special')] };
        else yield { node };
      }
    }
  },
});

const MISC_IMAGE = ['imread', 'imsave', 'imresize', 'imrotate', 'imshow', 'imfilter', 'toimage', 'fromimage', 'bytescale'];

const miscImages = rule({
  id: 'scipy-misc-image-functions',
  triggers: MISC_IMAGE,
  library: 'scipy',
  title: 'scipy.misc.imread / imresize / imsave ...',
  old: "scipy.misc.imread('a.png'); scipy.misc.imresize(img, (64, 64))",
  new: "imageio.v2.imread('a.png'); np.array(PIL.Image.fromarray(img).resize((64, 64)))",
  removedIn: '1.3',
  autoFixable: false,
  errors: [err('ImportError', new RegExp(`cannot import name '(${MISC_IMAGE.join('|')})' from 'scipy\\.(misc|ndimage)'`)), err('AttributeError', new RegExp(`module 'scipy\\.(misc|ndimage)' has no attribute '(${MISC_IMAGE.join('|')})'`))],
  link: REL('1.3.0'),
  message: "the image functions of scipy.misc/scipy.ndimage were removed (SciPy 1.2/1.3): imread/imsave -> imageio.v2.imread/imwrite (installed); imresize -> np.array(PIL.Image.fromarray(img).resize((width, height))) (note: (width, height) order, and imresize also rescaled values to 0-255)",
  fixtures: [{
    before: "import numpy as np\nfrom scipy.misc import imresize\nprint(imresize(np.zeros((4, 4), dtype=np.uint8), (2, 2)).shape)",
    manual: "import numpy as np\nfrom PIL import Image\nprint(np.array(Image.fromarray(np.zeros((4, 4), dtype=np.uint8)).resize((2, 2))).shape)",
    expect: '(2, 2)',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const stmt of ctx.nodes('import_from_statement')) {
      const mod = stmt.childForFieldName('module_name')?.text;
      if (mod !== 'scipy.misc' && mod !== 'scipy.ndimage') continue;
      for (const it of stmt.childrenForFieldName('name')) {
        const n = it?.type === 'aliased_import' ? it.childForFieldName('name')?.text : it?.text;
        if (it && n && MISC_IMAGE.includes(n)) yield { node: it };
      }
    }
    for (const { node } of ctx.attributesTo([...MISC_IMAGE.map((n) => `scipy.misc.${n}`), 'scipy.ndimage.imread'])) yield { node };
  },
});

const INTEGRATE: Record<string, string> = { simps: 'simpson', trapz: 'trapezoid', cumtrapz: 'cumulative_trapezoid' };

const integrateRenames = rule({
  id: 'scipy-integrate-renames',
  triggers: [...Object.keys(INTEGRATE), 'simpson'],
  library: 'scipy',
  title: 'integrate.simps / trapz / cumtrapz',
  old: 'integrate.simps(y, x)',
  new: 'integrate.simpson(y, x=x)',
  removedIn: '1.14',
  errors: [err('AttributeError', /module 'scipy\.integrate' has no attribute '(simps|trapz|cumtrapz)'/), err('ImportError', /cannot import name '(simps|trapz|cumtrapz)' from 'scipy\.integrate'/)],
  link: REL('1.14.0'),
  message: 'simps/trapz/cumtrapz were removed in SciPy 1.14; use simpson (x is keyword-only), trapezoid, cumulative_trapezoid',
  fixtures: [{
    before: 'from scipy import integrate\nfrom scipy.integrate import trapz\nprint(integrate.simps([0, 1, 4], [0, 1, 2]), trapz([1, 1], [0, 2]))',
    after: 'from scipy import integrate\nfrom scipy.integrate import trapezoid as trapz\nprint(integrate.simpson([0, 1, 4], x=[0, 1, 2]), trapz([1, 1], [0, 2]))',
    expect: '2.6666666666666665 2.0',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'scipy.integrate', Object.fromEntries(Object.entries(INTEGRATE).map(([k, v]) => [k, { module: 'scipy.integrate', name: v }])));
    for (const { call, fn } of ctx.callsNamed([...Object.keys(INTEGRATE), ...Object.values(INTEGRATE), 'simpson'])) {
      const q = ctx.qname(fn);
      if (!q || !q.startsWith('scipy.integrate.')) continue;
      const old = q.slice('scipy.integrate.'.length);
      const args = callArgs(call)!;
      const fromAlias = fn.type === 'identifier';
      const isOld = old in INTEGRATE && !fromAlias;
      const isSimpson = old === 'simpson' || (old === 'simps');
      const edits: TextEdit[] = [];
      if (isOld) edits.push(replaceNode(fn.childForFieldName('attribute')!, INTEGRATE[old]));
      // simpson(y, x) -> simpson(y, x=x): x became keyword-only in 1.14.
      if (isSimpson && args.positional.length >= 2 && !args.keywords.has('x') && !args.splat) {
        edits.push({ start: args.positional[1].startIndex, end: args.positional[1].startIndex, text: 'x=' });
        if (args.positional.length > 2) { yield { node: call }; continue; }
      }
      if (edits.length) yield { node: call, edits };
    }
  },
});

const interp2d = rule({
  id: 'scipy-interp2d',
  triggers: ['interp2d'],
  library: 'scipy',
  title: 'interpolate.interp2d',
  old: 'interp2d(x, y, z)',
  new: 'RectBivariateSpline(x, y, z.T) (regular grids)',
  removedIn: '1.14',
  autoFixable: false,
  errors: [err('NotImplementedError', /`interp2d` has been removed/)],
  link: REL('1.14.0'),
  message: 'interp2d was removed in SciPy 1.14: on a regular grid use RectBivariateSpline(x, y, z.T) (note the transposed z; kx=ky=1 for linear), for scattered points bisplrep/bisplev or LinearNDInterpolator',
  fixtures: [{
    before: 'from scipy.interpolate import interp2d\nf = interp2d([0, 1], [0, 1], [[0, 1], [1, 2]])\nprint(float(f(0.5, 0.5)[0]))',
    manual: 'import numpy as np\nfrom scipy.interpolate import RectBivariateSpline\nf = RectBivariateSpline([0, 1], [0, 1], np.array([[0, 1], [1, 2]]).T, kx=1, ky=1)\nprint(float(f(0.5, 0.5)[0, 0]))',
    expect: '1.0',
    beforeError: 'NotImplementedError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['scipy.interpolate.interp2d'])) yield { node: call };
  },
});

const modeKeepdims = rule({
  id: 'scipy-stats-mode-keepdims',
  triggers: ['mode'],
  library: 'scipy',
  title: 'stats.mode(x)[0][0]',
  old: 'stats.mode(x)[0][0]',
  new: 'stats.mode(x, keepdims=True)[0][0]',
  removedIn: '1.11',
  errors: [err('IndexError', /invalid index to scalar variable/)],
  link: REL('1.11.0'),
  message: "stats.mode returns scalars for 1-D input since SciPy 1.11 (keepdims=False): pass keepdims=True where the result is indexed as an array",
  fixtures: [{
    before: 'from scipy import stats\nx = [1, 2, 2, 3]\nprint(stats.mode(x)[0][0], stats.mode(x).mode[0])',
    after: 'from scipy import stats\nx = [1, 2, 2, 3]\nprint(stats.mode(x, keepdims=True)[0][0], stats.mode(x, keepdims=True).mode[0])',
    expect: '2 2',
    beforeError: 'IndexError',
  }],
  *find(ctx) {
    for (const { call } of ctx.callsTo(['scipy.stats.mode', 'scipy.stats.stats.mode'])) {
      const args = callArgs(call);
      if (!args || args.keywords.has('keepdims') || args.splat) continue;
      const p = call.parent;
      // mode(x)[i][j]  or  mode(x).mode[i] / .count[i]
      let indexed = false;
      if (p?.type === 'subscript' && sameNode(p.childForFieldName('value'), call) && p.parent?.type === 'subscript' && sameNode(p.parent.childForFieldName('value'), p)) indexed = true;
      if (p?.type === 'attribute' && ['mode', 'count'].includes(p.childForFieldName('attribute')?.text ?? '') && p.parent?.type === 'subscript') indexed = true;
      if (indexed) yield { node: call, edits: [addArgument(args, 'keepdims=True')] };
    }
  },
});

/** Numpy functions SciPy used to re-export at top level (`scipy.mean`, `sp.log`, ...). */
/**
 * Every public name of numpy's namespace that scipy's `from numpy import *` re-exported until 1.12,
 * less scipy's own: generated from the fixed environment's numpy (its `dir()` and the 2.0 list of
 * expired attributes, `numpy/_expired_attrs_2_0.py`, since the era's notebooks used `scipy.round_`
 * and `scipy.int_`), minus names new in numpy 2 and numpy's submodules (scipy has its own linalg, fft,
 * random). A name numpy 2 removed (`round_`) becomes `np.round_`, which the NumPy 2 rules then rewrite.
 */
const NUMPY_1X_NAMES = (
  'DataSource False_ Inf Infinity NINF NZERO NaN PINF PZERO ScalarType True_ abs absolute add add_docstring ' +
  'add_newdoc add_newdoc_ufunc all allclose alltrue amax amin angle any append apply_along_axis apply_over_axes ' +
  'arange arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort argwhere around ' +
  'array array2string array_equal array_equiv array_repr array_split array_str asanyarray asarray ' +
  'asarray_chkfinite ascontiguousarray asfarray asfortranarray asmatrix atleast_1d atleast_2d atleast_3d average ' +
  'bartlett base_repr binary_repr bincount bitwise_and bitwise_not bitwise_or bitwise_xor blackman block bmat ' +
  'bool bool_ broadcast broadcast_arrays broadcast_shapes broadcast_to busday_count busday_offset busdaycalendar ' +
  'byte byte_bounds bytes_ c_ can_cast cast cbrt cdouble ceil cfloat character choose clip clongdouble clongfloat ' +
  'column_stack common_type compare_chararrays compat complex128 complex256 complex64 complex_ complexfloating ' +
  'compress concatenate conj conjugate convolve copy copysign copyto corrcoef correlate cos cosh count_nonzero ' +
  'cov cross csingle cumprod cumsum datetime64 datetime_as_string datetime_data deg2rad degrees delete deprecate ' +
  'deprecate_with_doc diag diag_indices diag_indices_from diagflat diagonal diff digitize disp divide divmod dot ' +
  'double dsplit dstack dtype e ediff1d einsum einsum_path empty empty_like equal errstate euler_gamma exp exp2 ' +
  'expand_dims expm1 extract eye fabs fastCopyAndTranspose fill_diagonal find_common_type finfo fix flatiter ' +
  'flatnonzero flexible flip fliplr flipud float128 float16 float32 float64 float_ float_power floating floor ' +
  'floor_divide fmax fmin fmod format_float_positional format_float_scientific format_parser frexp frombuffer ' +
  'fromfile fromfunction fromiter frompyfunc fromregex fromstring full full_like gcd generic genfromtxt geomspace ' +
  'get_array_wrap get_include get_printoptions getbufsize geterr geterrcall geterrobj gradient greater ' +
  'greater_equal half hamming hanning heaviside histogram histogram2d histogram_bin_edges histogramdd hsplit ' +
  'hstack hypot i0 identity iinfo imag in1d index_exp indices inexact inf info infty inner insert int16 int32 ' +
  'int64 int8 int_ intc integer interp intersect1d intp invert is_busday isclose iscomplex iscomplexobj isfinite ' +
  'isfortran isin isinf isnan isnat isneginf isposinf isreal isrealobj isscalar issctype issubclass_ issubdtype ' +
  'issubsctype iterable ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort linspace little_endian load ' +
  'loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor logspace ' +
  'longcomplex longdouble longfloat longlong lookfor mask_indices mat matmul matrix max maximum maximum_sctype ' +
  'may_share_memory mean median memmap meshgrid mgrid min min_scalar_type minimum mintypecode mod modf moveaxis ' +
  'multiply nan nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin nanpercentile ' +
  'nanprod nanquantile nanstd nansum nanvar nbytes ndarray ndenumerate ndim ndindex nditer negative nested_iters ' +
  'newaxis nextafter nonzero not_equal number obj2sctype object_ ogrid ones ones_like outer packbits pad ' +
  'partition percentile pi piecewise place poly poly1d polyadd polyder polydiv polyfit polyint polymul polysub ' +
  'polyval positive power printoptions prod promote_types ptp put put_along_axis putmask quantile r_ rad2deg ' +
  'radians ravel ravel_multi_index real real_if_close recarray recfromcsv recfromtxt reciprocal record remainder ' +
  'repeat require reshape resize result_type right_shift rint roll rollaxis roots rot90 round round_ row_stack s_ ' +
  'safe_eval save savetxt savez savez_compressed sctype2char sctypeDict sctypes searchsorted select ' +
  'set_numeric_ops set_printoptions set_string_function setbufsize setdiff1d seterr seterrcall seterrobj setxor1d ' +
  'shape shares_memory short show_runtime sign signbit signedinteger sin sinc single singlecomplex sinh size ' +
  'sometrue sort sort_complex source spacing split sqrt square squeeze stack std str_ string_ subtract sum ' +
  'swapaxes take take_along_axis tan tanh tensordot tile timedelta64 trace tracemalloc_domain transpose trapezoid ' +
  'trapz tri tril tril_indices tril_indices_from trim_zeros triu triu_indices triu_indices_from true_divide trunc ' +
  'typecodes typename ubyte ufunc uint uint16 uint32 uint64 uint8 uintc uintp ulonglong unicode_ union1d unique ' +
  'unpackbits unravel_index unsignedinteger unstack unwrap ushort vander var vdot vectorize void vsplit vstack ' +
  'where who zeros zeros_like '
).trim().split(' ');

const NUMPY_REEXPORTS = new Set([...NUMPY_1X_NAMES,
 
  'array', 'arange', 'zeros', 'ones', 'empty', 'linspace', 'logspace', 'mean', 'median', 'std', 'var', 'sum', 'prod',
  'sqrt', 'exp', 'log', 'log10', 'log2', 'log1p', 'expm1', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'arctan2',
  'pi', 'e', 'inf', 'nan', 'isnan', 'isinf', 'isfinite', 'absolute', 'abs', 'power', 'floor', 'ceil', 'round', 'around',
  'dot', 'transpose', 'reshape', 'concatenate', 'vstack', 'hstack', 'where', 'argmax', 'argmin', 'amax', 'amin',
  'maximum', 'minimum', 'sort', 'argsort', 'unique', 'cumsum', 'cumprod', 'diff', 'polyfit', 'polyval', 'poly1d',
  'histogram', 'corrcoef', 'cov', 'outer', 'zeros_like', 'ones_like', 'ravel', 'shape', 'ndarray', 'float64', 'int64',
  'asarray', 'tile', 'repeat', 'meshgrid', 'mgrid', 'ogrid', 'real', 'imag', 'conj', 'angle', 'sign', 'clip', 'any', 'all',
  // scikit-learn's ROC cross-validation example taught `from scipy import interp` to a generation of notebooks.
  'interp', 'squeeze', 'percentile', 'nanmean', 'nanstd', 'nansum', 'nanmax', 'nanmin', 'newaxis', 'argwhere', 'nonzero',
  'count_nonzero', 'eye', 'identity', 'diag', 'trace', 'fliplr', 'flipud', 'cross', 'inner', 'searchsorted', 'bincount',
  'digitize', 'convolve', 'correlate', 'isscalar', 'float32', 'int32', 'roots', 'polyder', 'polyint',
]);
const NUMPY_RANDOM_REEXPORTS = new Set(['rand', 'randn']);
const REEXPORT_NAMES = [...NUMPY_REEXPORTS, ...NUMPY_RANDOM_REEXPORTS];

/**
 * Does an import bind a name to the scipy module itself (`import scipy`, `import scipy as sp`)? The
 * re-exports are reached only through such a name (its qualified name is exactly `scipy`), so the
 * rule, whose triggers (`mean`, `sum`, `e`...) are in most cells, looks no further when none does.
 */
function bindsScipy(nb: NotebookContext): boolean {
  return nb.memo('binds-scipy', () => [...nb.bindings.values()].some((l) => l.some((b) => b.qname === 'scipy')));
}

const numpyReexports = rule({
  id: 'scipy-numpy-reexports',
  triggers: REEXPORT_NAMES,
  library: 'scipy',
  title: 'numpy functions through the scipy namespace (sp.mean, scipy.log...)',
  old: 'sp.log(x)',
  new: 'np.log(x)',
  removedIn: '1.12',
  errors: [err('AttributeError', /Module 'scipy' has no attribute '\w+'/), err('ImportError', /cannot import name '\w+' from 'scipy'/)],
  link: REL('1.12.0'),
  message: 'SciPy no longer re-exports numpy functions (deprecated 1.4, removed 1.12); call them from numpy',
  fixtures: [{
    before: 'from scipy import stats, interp\nimport numpy as np\nprint(interp(1.5, [1, 2], [10, 20]), stats.norm.cdf(0))',
    after: 'from scipy import stats\nfrom numpy import interp\nimport numpy as np\nprint(interp(1.5, [1, 2], [10, 20]), stats.norm.cdf(0))',
    expect: '15.0 0.5',
    beforeError: 'ImportError',
  }, {
    before: 'import scipy as sp\nprint(sp.log(sp.exp(2.0)), sp.mean([1, 3]))',
    after: 'import numpy as np\nimport scipy as sp\nprint(np.log(np.exp(2.0)), np.mean([1, 3]))',
    expect: '2.0 2.0',
    beforeError: 'AttributeError',
  }, {
    before: 'import scipy\nprint(scipy.int_(scipy.arange(3) * 2).tolist(), scipy.cumsum([1, 2]).tolist())',
    after: 'import numpy as np\nimport scipy\nprint(np.int_(np.arange(3) * 2).tolist(), np.cumsum([1, 2]).tolist())',
    expect: '[0, 2, 4] [1, 3]',
    beforeError: 'AttributeError',
  }],
  *find(ctx): Generator<RuleMatch> {
    yield* reexportImports(ctx);
    if (!bindsScipy(ctx.nb)) return;
    for (const { node, obj, name } of ctx.attributesNamed(REEXPORT_NAMES)) {
      if (ctx.qname(obj) !== 'scipy') continue;
      if (!NUMPY_REEXPORTS.has(name) && !NUMPY_RANDOM_REEXPORTS.has(name)) continue;
      const ref = ctx.moduleRef('numpy', 'np');
      if (!ref) { yield { node }; continue; }
      const text = NUMPY_RANDOM_REEXPORTS.has(name) ? `${ref.name}.random.${name}` : `${ref.name}.${name}`;
      yield { node, edits: [replaceNode(node, text), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

/**
 * `from scipy import interp` (or a list mixing re-exports and submodules): the re-exported names are
 * imported from numpy instead (`numpy.random` for rand/randn), under the same local names.
 */
function* reexportImports(ctx: CellContext): Generator<RuleMatch> {
  for (const stmt of ctx.nodes('import_from_statement')) {
    if (stmt.childForFieldName('module_name')?.text !== 'scipy') continue;
    const items = stmt.childrenForFieldName('name').filter((x): x is SyntaxNode => !!x);
    const nameOf = (it: SyntaxNode) => (it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text);
    const moved = items.filter((it) => NUMPY_REEXPORTS.has(nameOf(it)) || NUMPY_RANDOM_REEXPORTS.has(nameOf(it)));
    if (!moved.length) continue;
    const kept = items.filter((it) => !moved.includes(it));
    const indent = ' '.repeat(stmt.startPosition.column);
    const lines = kept.length ? [`from scipy import ${kept.map((it) => it.text).join(', ')}`] : [];
    const np = moved.filter((it) => NUMPY_REEXPORTS.has(nameOf(it)));
    const rnd = moved.filter((it) => NUMPY_RANDOM_REEXPORTS.has(nameOf(it)));
    if (np.length) lines.push(`from numpy import ${np.map((it) => it.text).join(', ')}`);
    if (rnd.length) lines.push(`from numpy.random import ${rnd.map((it) => it.text).join(', ')}`);
    yield { node: stmt, edits: [replaceNode(stmt, lines.join(`\n${indent}`))] };
  }
}

const STATS_NAN: Record<string, string> = { nanmean: 'nanmean', nanstd: 'nanstd', nanmedian: 'nanmedian' };

const statsRemoved = rule({
  id: 'scipy-stats-removed-functions',
  triggers: [...Object.keys(STATS_NAN), 'chisqprob'],
  library: 'scipy',
  title: 'stats.nanmean / nanstd / nanmedian / chisqprob',
  old: 'stats.nanmean(x); stats.chisqprob(c, df)',
  new: 'np.nanmean(x); stats.chi2.sf(c, df)',
  removedIn: '1.0',
  errors: [err('AttributeError', /module 'scipy\.stats' has no attribute '(nanmean|nanstd|nanmedian|chisqprob)'/)],
  link: REL('1.0.0'),
  message: 'stats.nanmean/nanstd/nanmedian (use numpy) and chisqprob (use stats.chi2.sf) were removed in SciPy 1.0',
  fixtures: [{
    before: 'import numpy as np\nfrom scipy import stats\nprint(stats.nanmean([1.0, np.nan, 3.0]), round(stats.chisqprob(3.84, 1), 3))',
    after: 'import numpy as np\nfrom scipy import stats\nprint(np.nanmean([1.0, np.nan, 3.0]), round(stats.chi2.sf(3.84, 1), 3))',
    expect: '2.0 0.05',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo([...Object.keys(STATS_NAN), 'chisqprob'].map((n) => `scipy.stats.${n}`))) {
      const name = qname.split('.').pop()!;
      if (name === 'chisqprob') { yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'chi2.sf')] }; continue; }
      const ref = ctx.moduleRef('numpy', 'np');
      if (!ref) { yield { node }; continue; }
      yield { node, edits: [replaceNode(node, `${ref.name}.${STATS_NAN[name]}`), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

const sparseA = rule({
  id: 'scipy-sparse-toarray',
  triggers: ['A', 'H'],
  library: 'scipy',
  title: 'sparse_matrix.A / .H',
  old: 'X.A',
  new: 'X.toarray()',
  removedIn: '1.14',
  trigger: 'error',
  errors: [err('AttributeError', /'(csr|csc|coo|lil|dok|bsr|dia)_matrix' object has no attribute '(A|H)'/)],
  link: REL('1.14.0'),
  message: 'the .A/.H shortcuts of sparse matrices were removed in SciPy 1.14; use .toarray() / .conj().T',
  fixtures: [{
    before: 'from scipy.sparse import csr_matrix\nX = csr_matrix([[1, 0], [0, 2]])\nprint(X.A.sum())',
    after: 'from scipy.sparse import csr_matrix\nX = csr_matrix([[1, 0], [0, 2]])\nprint(X.toarray().sum())',
    expect: '3',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node: a, nameNode: name } of ctx.attributesNamed(['A', 'H'])) {
      if (ctx.qname(a)) continue;
      if (a.parent?.type === 'call' && sameNode(a.parent.childForFieldName('function'), a)) continue;
      yield { node: a, edits: [replaceNode(name, name.text === 'A' ? 'toarray()' : 'conj().T')] };
    }
  },
});

/** scipy.stats functions that now subtract the mean in the input's own dtype. */
const MOMENT_FNS = ['skew', 'kurtosis', 'moment', 'skewtest', 'kurtosistest', 'describe', 'variation'];

/**
 * SciPy 1.14 moved skew, kurtosis and moment onto the array API: the mean is subtracted in the
 * input's dtype, and numpy refuses `-` on booleans, so a boolean column (`df['HasPool'] = df.PoolArea > 0`,
 * a pandas 2 `get_dummies` column) raises where SciPy of the era computed the statistic on 0/1 (the
 * describe() fix of scipy#24855 promotes to floating point for the same reason). Recognised from the
 * runtime error, at the failing line's calls: the sample is passed as floats.
 */
const statsBoolInput = rule({
  id: 'scipy-stats-bool-input',
  triggers: MOMENT_FNS,
  library: 'scipy',
  title: 'skew / kurtosis / moment of a boolean sample',
  old: 'skew(df.HasPool)',
  new: 'skew(np.asarray(df.HasPool, dtype=float))',
  removedIn: '1.14',
  trigger: 'error',
  errors: [err('TypeError', /numpy boolean subtract/)],
  link: 'https://github.com/scipy/scipy/issues/24847',
  message: "since SciPy 1.14 (array API) these statistics subtract the mean in the sample's own dtype, and booleans cannot be subtracted; SciPy of the era computed them on 0/1: the sample is passed as floats",
  fixtures: [{
    before: "import pandas as pd\nfrom scipy.stats import skew\ns = pd.Series([1, 5, 0, 7]) > 0\nprint(round(float(skew(s.dropna())), 4))",
    after: "import numpy as np\nimport pandas as pd\nfrom scipy.stats import skew\ns = pd.Series([1, 5, 0, 7]) > 0\nprint(round(float(skew(np.asarray(s.dropna(), dtype=float))), 4))",
    expect: '-1.1547',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: 'numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.' } },
  }],
  *find(ctx) {
    const rt = ctx.nb.info.runtime;
    if (!rt || !/numpy boolean subtract/.test(rt.evalue)) return;
    const onLine = onFrameLines(rt.frames, ctx.index, ctx.root);
    for (const { call, fn } of ctx.callsNamed(MOMENT_FNS)) {
      const q = ctx.qname(fn);
      if (!q || !MOMENT_FNS.some((n) => q === `scipy.stats.${n}`) || !onLine(call)) continue;
      const args = callArgs(call);
      const sample = args?.positional[0] ?? args?.keywords.get('a')?.childForFieldName('value');
      if (!sample || /^np\.asarray\(|^numpy\.asarray\(/.test(sample.text)) continue;
      const np = ctx.moduleRef('numpy', 'np');
      if (!np) continue;
      yield { node: call, edits: [replaceNode(sample, `${np.name}.asarray(${sample.text}, dtype=float)`), ...(np.edit ? [np.edit] : [])] };
    }
  },
});

export const scipyRules: Rule[] = [miscSpecial, miscImages, integrateRenames, interp2d, modeKeepdims, numpyReexports, statsRemoved, sparseA, statsBoolInput];

