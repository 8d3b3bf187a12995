/**
 * Python 2 -> 3, the rest of 2to3's fixer list (lib2to3/fixes) that notebooks can hit: apply,
 * intern, StandardError, function and method attributes (func_name, im_self), sys.exc_type,
 * types.StringType, __nonzero__ / next methods, __metaclass__, operator.isCallable, xreadlines,
 * unittest assert aliases, `[x for x in 1, 2]`, and the idioms that break on dict views
 * (`k = d.keys(); k.sort()`, `d.items() + e.items()`) or on sort's cmp argument.
 * docs/rules-coverage.md maps every 2to3 fixer to its rule.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Fixture, Rule, RuleMatch, TextEdit } from './types.js';
import { builtinRename, freeNames } from './py2.js';
import { deleteStatement, err, moduleMember, renameMethodCalls, rule } from './helpers.js';
import { callArgs, callOf, insertAt, methodCall, paren, replaceNode, sameNode } from './tree.js';
import { atRuntimeError } from './traceback.js';

const PY3 = 'https://docs.python.org/3/whatsnew/3.0.html';
const LIB2TO3 = 'https://docs.python.org/3.12/library/2to3.html#fixers';

/**
 * Where a Python 2 only rewrite applies: everywhere in a Python 2 notebook; in another one only on
 * the lines of a runtime error whose message matches `pattern` (the names are too common in Python 3
 * code to rewrite on sight). Undefined: nowhere.
 */
function py2OrAtError(ctx: CellContext, pattern: RegExp): { onLine: (n: SyntaxNode) => boolean; named?: string } | undefined {
  if (ctx.nb.pythonMajor === 2) return { onLine: () => true };
  const at = atRuntimeError(ctx, pattern);
  return at ? { onLine: at.onLine, named: at.match[1] } : undefined;
}

const applyB = rule({
  id: 'py2-apply',
  triggers: ['apply'],
  library: 'python',
  title: 'apply() builtin',
  old: 'apply(f, args, kwargs)',
  new: 'f(*args, **kwargs)',
  removedIn: '3.0',
  errors: [err('NameError', /name 'apply' is not defined/)],
  link: PY3 + '#builtins',
  message: 'apply() was removed in Python 3; call the function with *args / **kwargs',
  fixtures: [{
    before: "print(apply(max, (1, 5)), apply(dict, (), {'a': 1}))",
    after: "print(max(*(1, 5)), dict(*(), **{'a': 1}))",
    expect: "5 {'a': 1}",
    beforeError: 'NameError',
  }],
  *find(ctx) {
    for (const id of freeNames(ctx, 'apply')) {
      const call = callOf(id);
      const args = call && callArgs(call);
      if (!call || !args || args.splat || args.keywords.size || args.positional.length < 1 || args.positional.length > 3) { yield { node: id }; continue; }
      const [fn, pos, kw] = args.positional;
      const parts = [...(pos ? [`*${paren(pos)}`] : []), ...(kw ? [`**${paren(kw)}`] : [])];
      yield { node: call, edits: [replaceNode(call, `${paren(fn)}(${parts.join(', ')})`)] };
    }
  },
});

const internB = rule({
  id: 'py2-intern',
  triggers: ['intern'],
  library: 'python',
  title: 'intern() moved to sys',
  old: 'intern(s)',
  new: 'sys.intern(s)',
  removedIn: '3.0',
  errors: [err('NameError', /name 'intern' is not defined/)],
  link: 'https://docs.python.org/3/library/sys.html#sys.intern',
  message: 'intern is sys.intern in Python 3',
  fixtures: [{
    before: "name = 'ab'\ns = intern(name + 'c')\nprint(s)",
    after: "import sys\nname = 'ab'\ns = sys.intern(name + 'c')\nprint(s)",
    expect: 'abc',
    beforeError: 'NameError',
  }],
  *find(ctx) {
    for (const id of freeNames(ctx, 'intern')) if (callOf(id)) yield moduleMember(ctx, id, 'sys', 'intern');
  },
});

const standardError = builtinRename('py2-standard-error', 'StandardError', 'Exception', /name 'StandardError' is not defined/, {
  before: "try:\n    int('x')\nexcept StandardError as e:\n    print(type(e).__name__)",
  after: "try:\n    int('x')\nexcept Exception as e:\n    print(type(e).__name__)",
  expect: 'ValueError',
}, { title: 'StandardError is gone', message: 'StandardError does not exist in Python 3; Exception is its base (what 2to3 writes)' });

/**
 * Attribute renames that only a Python 2 object had (`f.func_name`): in Python 2 notebooks, or on
 * the line of the AttributeError naming the attribute.
 */
function attributeRenames(spec: {
  id: string; title: string; table: Record<string, string>; owner: string; link: string; fixtures: Fixture[];
}): Rule {
  const names = Object.keys(spec.table);
  // A bound method passes unknown attributes on to its function, so both name the missing one.
  const pattern = new RegExp(`'(?:method|function)' object has no attribute '(${names.join('|')})'`);
  const [first] = names;
  return rule({
    id: spec.id,
    triggers: names,
    library: 'python',
    title: spec.title,
    old: `x.${first}`,
    new: `x.${spec.table[first]}`,
    removedIn: '3.0',
    errors: [err('AttributeError', pattern)],
    link: spec.link,
    message: `these ${spec.owner} attributes were renamed in Python 3 (${names.map((n) => `${n} -> ${spec.table[n]}`).join(', ')})`,
    fixtures: spec.fixtures,
    *find(ctx) {
      const where = py2OrAtError(ctx, pattern);
      if (!where) return;
      for (const { node, name, nameNode } of ctx.attributesNamed(names)) {
        if ((where.named && where.named !== name) || !where.onLine(node) || ctx.qname(node.childForFieldName('object'))) continue;
        yield { node, edits: [replaceNode(nameNode, spec.table[name])] };
      }
    },
  });
}

const functionAttributes = attributeRenames({
  id: 'py2-function-attributes',
  title: 'function attributes func_name / func_defaults / func_code ...',
  table: {
    func_name: '__name__', func_defaults: '__defaults__', func_code: '__code__', func_globals: '__globals__',
    func_doc: '__doc__', func_closure: '__closure__', func_dict: '__dict__',
  },
  owner: 'function',
  link: PY3 + '#operators-and-special-methods',
  fixtures: [{
    before: 'def f(a, b=2):\n    pass\nprint(f.func_name, f.func_defaults, f.func_code.co_argcount)',
    after: 'def f(a, b=2):\n    pass\nprint(f.__name__, f.__defaults__, f.__code__.co_argcount)',
    expect: 'f (2,) 2',
    beforeError: 'AttributeError',
    context: { pythonMajor: 2 },
  }, {
    before: "def f():\n    pass\nname = 'x'\nprint(name, f.func_name)",
    after: "def f():\n    pass\nname = 'x'\nprint(name, f.__name__)",
    expect: 'x f',
    beforeError: 'AttributeError',
    context: { runtime: { ename: 'AttributeError', evalue: "'function' object has no attribute 'func_name'" } },
  }],
});

const methodAttributes = attributeRenames({
  id: 'py2-method-attributes',
  title: 'bound method attributes im_func / im_self / im_class',
  table: { im_func: '__func__', im_self: '__self__', im_class: '__self__.__class__' },
  owner: 'method',
  link: PY3 + '#operators-and-special-methods',
  fixtures: [{
    before: 'class A(object):\n    def m(self):\n        return 1\na = A()\nprint(a.m.im_func.__name__, a.m.im_self is a, a.m.im_class.__name__)',
    after: 'class A(object):\n    def m(self):\n        return 1\na = A()\nprint(a.m.__func__.__name__, a.m.__self__ is a, a.m.__self__.__class__.__name__)',
    expect: 'm True A',
    beforeError: 'AttributeError',
    context: { pythonMajor: 2 },
  }],
});

const SYS_EXC: Record<string, number> = { exc_type: 0, exc_value: 1, exc_traceback: 2 };

const sysExc = rule({
  id: 'py2-sys-exc-attributes',
  triggers: Object.keys(SYS_EXC),
  library: 'python',
  title: 'sys.exc_type / exc_value / exc_traceback',
  old: 'sys.exc_value',
  new: 'sys.exc_info()[1]',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'sys' has no attribute 'exc_(type|value|traceback)'/)],
  link: 'https://docs.python.org/3/library/sys.html#sys.exc_info',
  message: 'sys.exc_type/exc_value/exc_traceback were removed in Python 3; use sys.exc_info()',
  fixtures: [{
    before: "import sys\ntry:\n    int('x')\nexcept ValueError:\n    print(sys.exc_type.__name__, sys.exc_value.args[0][:7], sys.exc_traceback is not None)",
    after: "import sys\ntry:\n    int('x')\nexcept ValueError:\n    print(sys.exc_info()[0].__name__, sys.exc_info()[1].args[0][:7], sys.exc_info()[2] is not None)",
    expect: 'ValueError invalid True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(Object.keys(SYS_EXC).map((n) => `sys.${n}`))) {
      yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, `exc_info()[${SYS_EXC[qname.slice(4)]}]`)] };
    }
  },
});

/**
 * 2to3's fix_types table, except StringType: 2to3 wrote bytes (Python 2's str is bytes), but a
 * notebook's string literals and data become str in Python 3, so `isinstance(s, types.StringType)`
 * keeps its answer with str (as py2-unicode and py2-basestring map to str). NoneType, EllipsisType
 * and NotImplementedType are in the types module again since Python 3.10.
 */
const TYPES: Record<string, string> = {
  BooleanType: 'bool', BufferType: 'memoryview', ClassType: 'type', ComplexType: 'complex', DictType: 'dict',
  DictionaryType: 'dict', FloatType: 'float', IntType: 'int', ListType: 'list', LongType: 'int', ObjectType: 'object',
  SliceType: 'slice', StringType: 'str', StringTypes: '(str,)', TupleType: 'tuple', TypeType: 'type', UnicodeType: 'str',
  XRangeType: 'range',
};

const typesConstants = rule({
  id: 'py2-types-constants',
  triggers: Object.keys(TYPES),
  library: 'python',
  title: 'types.StringType / ListType / IntType ...',
  old: 'types.ListType',
  new: 'list',
  removedIn: '3.0',
  errors: [err('AttributeError', new RegExp(`module 'types' has no attribute '(${Object.keys(TYPES).join('|')})'`))],
  link: 'https://docs.python.org/3/library/types.html',
  message: "the types module's names for builtin types were removed in Python 3; use the builtins",
  fixtures: [{
    before: "import types\nprint(isinstance([1], types.ListType), isinstance('a', types.StringTypes), type(1) == types.IntType)",
    after: "import types\nprint(isinstance([1], list), isinstance('a', (str,)), type(1) == int)",
    expect: 'True True True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(Object.keys(TYPES).map((n) => `types.${n}`))) {
      yield { node, edits: [replaceNode(node, TYPES[qname.slice(6)])] };
    }
  },
});

/** Methods of a class body: [class, its block, its function definitions]. */
function* classMethods(ctx: CellContext): Generator<{ cls: SyntaxNode; defs: SyntaxNode[] }> {
  for (const cls of ctx.nodes('class_definition')) {
    const body = cls.childForFieldName('body');
    if (!body) continue;
    const defs = body.namedChildren
      .map((c) => (c?.type === 'decorated_definition' ? c.childForFieldName('definition') : c))
      .filter((c): c is SyntaxNode => c?.type === 'function_definition');
    yield { cls, defs };
  }
}

const NON_ITERATOR = /iter\(\) returned non-iterator of type '(\w+)'/;

const specialMethods = rule({
  id: 'py2-special-methods',
  triggers: ['__nonzero__', 'next'],
  library: 'python',
  title: 'special methods __nonzero__ and next',
  old: 'def __nonzero__(self)  /  def next(self)',
  new: 'def __bool__(self)  /  def __next__(self)',
  removedIn: '3.0',
  errors: [err('TypeError', NON_ITERATOR)],
  link: PY3 + '#operators-and-special-methods',
  message: 'Python 3 calls __bool__ (not __nonzero__) for truth and __next__ (not next) to iterate',
  fixtures: [{
    before: 'class Empty(object):\n    def __nonzero__(self):\n        return False\nprint(bool(Empty()))',
    after: 'class Empty(object):\n    def __bool__(self):\n        return False\nprint(bool(Empty()))',
    expect: 'False',
    beforeOutcome: 'differs',
    context: { pythonMajor: 2 },
  }, {
    before: 'class Count(object):\n    def __init__(self):\n        self.n = 0\n    def __iter__(self):\n        return self\n    def next(self):\n        self.n += 1\n        if self.n > 3:\n            raise StopIteration\n        return self.n\nprint(list(Count()))',
    after: 'class Count(object):\n    def __init__(self):\n        self.n = 0\n    def __iter__(self):\n        return self\n    def __next__(self):\n        self.n += 1\n        if self.n > 3:\n            raise StopIteration\n        return self.n\nprint(list(Count()))',
    expect: '[1, 2, 3]',
    beforeError: 'TypeError',
    context: { pythonMajor: 2 },
  }],
  *find(ctx) {
    const py2 = ctx.nb.pythonMajor === 2;
    const nonIterator = py2 ? undefined : atRuntimeError(ctx, NON_ITERATOR)?.match[1];
    if (!py2 && !nonIterator) return;
    for (const { cls, defs } of classMethods(ctx)) {
      const has = (n: string) => defs.some((d) => d.childForFieldName('name')?.text === n);
      for (const d of defs) {
        const name = d.childForFieldName('name')!;
        const params = d.childForFieldName('parameters')?.namedChildren.filter((p) => p && p.type !== 'comment') ?? [];
        if (py2 && name.text === '__nonzero__' && !has('__bool__')) yield { node: name, edits: [replaceNode(name, '__bool__')] };
        if (name.text === 'next' && params.length === 1 && !has('__next__') && (py2 || cls.childForFieldName('name')?.text === nonIterator)) {
          yield { node: name, edits: [replaceNode(name, '__next__')] };
        }
      }
    }
  },
});

const metaclassAttr = rule({
  id: 'py2-metaclass-attribute',
  triggers: ['__metaclass__'],
  library: 'python',
  title: '__metaclass__ class attribute',
  old: 'class A(object):\n    __metaclass__ = M',
  new: 'class A(object, metaclass=M):',
  removedIn: '3.0',
  errors: [],
  link: 'https://peps.python.org/pep-3115/',
  message: 'Python 3 ignores a __metaclass__ attribute; the metaclass is a keyword of the class statement',
  fixtures: [{
    before: "class Tagged(type):\n    def __new__(mcs, name, bases, ns):\n        ns['tag'] = name.lower()\n        return type.__new__(mcs, name, bases, ns)\nclass Model(object):\n    __metaclass__ = Tagged\n    size = 1\nprint(getattr(Model, 'tag', None))",
    after: "class Tagged(type):\n    def __new__(mcs, name, bases, ns):\n        ns['tag'] = name.lower()\n        return type.__new__(mcs, name, bases, ns)\nclass Model(object, metaclass=Tagged):\n    size = 1\nprint(getattr(Model, 'tag', None))",
    expect: 'model',
    beforeOutcome: 'differs',
    context: { pythonMajor: 2 },
  }],
  *find(ctx) {
    // Python 3 code with the attribute never had the metaclass: only a Python 2 notebook meant it.
    if (ctx.nb.pythonMajor !== 2) return;
    for (const cls of ctx.nodes('class_definition')) {
      const body = cls.childForFieldName('body');
      const st = body?.namedChildren.find((c) => c?.type === 'expression_statement' && c.namedChildren.length === 1 &&
        c.namedChildren[0]?.type === 'assignment' && c.namedChildren[0].childForFieldName('left')?.text === '__metaclass__');
      const meta = st?.namedChildren[0]?.childForFieldName('right');
      if (!st || !meta) continue;
      const sup = cls.childForFieldName('superclasses');
      const bases = sup?.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment') ?? [];
      if (bases.some((b) => b.type === 'keyword_argument' && b.childForFieldName('name')?.text === 'metaclass')) continue;
      const kw = `metaclass=${meta.text}`;
      const header: TextEdit = bases.length ? insertAt(bases[bases.length - 1].endIndex, `, ${kw}`)
        : sup ? insertAt(sup.startIndex + 1, kw) : insertAt(cls.childForFieldName('name')!.endIndex, `(${kw})`);
      yield { node: st, edits: [header, deleteStatement(ctx, st)] };
    }
  },
});

type OperatorSpec = { attr: string } | { call: (arg: string, ctx: CellContext) => { text: string; edit?: TextEdit } | undefined };

function isinstanceOf(module: string, cls: string): OperatorSpec {
  return {
    call: (arg, ctx) => {
      const ref = ctx.moduleRef(module, module);
      return ref && { text: `isinstance(${arg}, ${ref.name}.${cls})`, edit: ref.edit };
    },
  };
}

/** 2to3's fix_operator. */
const OPERATOR: Record<string, OperatorSpec> = {
  isCallable: { call: (arg) => ({ text: `callable(${arg})` }) },
  sequenceIncludes: { attr: 'contains' },
  isSequenceType: isinstanceOf('collections.abc', 'Sequence'),
  isMappingType: isinstanceOf('collections.abc', 'Mapping'),
  isNumberType: isinstanceOf('numbers', 'Number'),
  repeat: { attr: 'mul' },
  irepeat: { attr: 'imul' },
};

const operatorFunctions = rule({
  id: 'py2-operator-functions',
  triggers: Object.keys(OPERATOR),
  library: 'python',
  title: 'operator.isCallable / sequenceIncludes / isSequenceType ...',
  old: 'operator.isCallable(f)',
  new: 'callable(f)',
  removedIn: '3.0',
  errors: [err('AttributeError', new RegExp(`module 'operator' has no attribute '(${Object.keys(OPERATOR).join('|')})'`))],
  link: 'https://docs.python.org/3/library/operator.html',
  message: 'these operator functions were removed in Python 3 (callable(), operator.contains / mul, isinstance with the collections.abc or numbers classes)',
  fixtures: [{
    before: 'import operator\nprint(operator.isCallable(len), operator.sequenceIncludes([1, 2], 2), operator.isMappingType({}), operator.repeat([0], 2))',
    after: 'import collections.abc\nimport operator\nprint(callable(len), operator.contains([1, 2], 2), isinstance({}, collections.abc.Mapping), operator.mul([0], 2))',
    expect: 'True True True [0, 0]',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(Object.keys(OPERATOR).map((n) => `operator.${n}`))) {
      const spec = OPERATOR[qname.slice(9)];
      if ('attr' in spec) { yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, spec.attr)] }; continue; }
      const call = callOf(node);
      const args = call && callArgs(call);
      const out = args && !args.splat && args.all.length === 1 && args.positional.length === 1 ? spec.call(args.positional[0].text, ctx) : undefined;
      if (!call || !out) { yield { node }; continue; }
      yield { node: call, edits: [replaceNode(call, out.text), ...(out.edit ? [out.edit] : [])] };
    }
  },
});

const CMP_ERROR = /'cmp' is an invalid keyword argument|unexpected keyword argument 'cmp'|sorted expected 1 argument/;

const sortCmp = rule({
  id: 'py2-sort-cmp',
  triggers: ['sorted', 'sort'],
  library: 'python',
  title: 'sorted(x, cmp=f) / list.sort(cmp=f)',
  old: 'sorted(xs, cmp=f)',
  new: 'sorted(xs, key=functools.cmp_to_key(f))',
  removedIn: '3.0',
  errors: [err('TypeError', CMP_ERROR)],
  link: 'https://docs.python.org/3/howto/sorting.html#the-old-way-using-the-cmp-parameter',
  message: 'sorted() and list.sort() take no cmp function in Python 3; functools.cmp_to_key turns it into a key',
  fixtures: [{
    before: 'xs = [3, 1, 2]\nxs.sort(cmp=lambda a, b: b - a)\nprint(xs, sorted([1, 3, 2], lambda a, b: a - b))',
    after: 'import functools\nxs = [3, 1, 2]\nxs.sort(key=functools.cmp_to_key(lambda a, b: b - a))\nprint(xs, sorted([1, 3, 2], key=functools.cmp_to_key(lambda a, b: a - b)))',
    expect: '[3, 2, 1] [1, 2, 3]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    const builtin = !ctx.nb.isBound('sorted');
    for (const { call, fn, name } of ctx.callsNamed(['sorted', 'sort'])) {
      const isSorted = name === 'sorted' && fn.type === 'identifier' && builtin;
      if (!isSorted && !(name === 'sort' && methodCall(call) && !ctx.qname(methodCall(call)!.recv))) continue;
      const args = callArgs(call);
      if (!args) continue;
      const kw = args.keywords.get('cmp');
      // Python 2's sorted(iterable, cmp, key, reverse): a second positional argument is the cmp function.
      const positional = isSorted && args.positional.length === 2 && !args.splat && !kw ? args.positional[1] : undefined;
      const target = kw ?? positional;
      if (!target) continue;
      const f = kw ? kw.childForFieldName('value')! : positional!;
      const ref = ctx.moduleRef('functools', 'functools');
      if (args.keywords.has('key') || !ref) { yield { node: call }; continue; }
      yield { node: call, edits: [replaceNode(target, `key=${ref.name}.cmp_to_key(${f.text})`), ...(ref.edit ? [ref.edit] : [])] };
    }
  },
});

const VIEWS = ['keys', 'values', 'items'];

/** `recv.keys()` (values, items) with no arguments on a receiver that is not a pandas object. */
function dictView(ctx: CellContext, n: SyntaxNode | null | undefined): boolean {
  if (n?.type !== 'call') return false;
  const m = methodCall(n);
  return !!m && VIEWS.includes(m.name) && !callArgs(n)?.all.length && !ctx.qname(m.recv) && !ctx.nb.isFrameExpr(m.recv, ctx.index);
}

const VIEW_CONCAT = /unsupported operand type\(s\) for \+: 'dict_(keys|values|items)'|can only concatenate list \(not "dict_(keys|values|items)"\) to list/;

const dictViewConcat = rule({
  id: 'py2-dict-view-concat',
  triggers: VIEWS,
  gate: { nodeTypes: ['binary_operator'] },
  library: 'python',
  title: 'concatenating d.items() / keys() / values()',
  old: 'dict(d.items() + e.items())',
  new: 'dict(list(d.items()) + list(e.items()))',
  removedIn: '3.0',
  errors: [err('TypeError', VIEW_CONCAT)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'dict views are not lists in Python 3 and cannot be added; wrap them in list()',
  fixtures: [{
    before: "d = {'a': 1}\ne = {'b': 2}\nprint(dict(d.items() + e.items()), d.keys() + ['z'])",
    after: "d = {'a': 1}\ne = {'b': 2}\nprint(dict(list(d.items()) + list(e.items())), list(d.keys()) + ['z'])",
    expect: "{'a': 1, 'b': 2} ['a', 'z']",
    beforeError: 'TypeError',
    context: { pythonMajor: 2 },
  }],
  *find(ctx) {
    // `keys()` of an object the rules cannot type (a pandas Index) may add in Python 3: only where
    // Python 2 returned a list, or where the error says it is a dict view.
    const where = py2OrAtError(ctx, VIEW_CONCAT);
    if (!where) return;
    for (const op of ctx.nodes('binary_operator')) {
      if (op.child(1)?.type !== '+' || !where.onLine(op)) continue;
      for (const side of [op.childForFieldName('left'), op.childForFieldName('right')]) {
        if (dictView(ctx, side)) yield { node: side!, edits: [replaceNode(side!, `list(${side!.text})`)] };
      }
    }
  },
});

const dictViewSort = rule({
  id: 'py2-dict-view-sort',
  triggers: ['sort'],
  library: 'python',
  title: 'k = d.keys(); k.sort()',
  old: 'k = d.keys()\nk.sort()',
  new: 'k = d.keys()\nk = sorted(k)',
  removedIn: '3.0',
  errors: [err('AttributeError', /'dict_(keys|values|items)' object has no attribute 'sort'/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'a dict view has no sort() in Python 3; sorted() returns the sorted list the name held in Python 2',
  fixtures: [{
    before: "d = {'b': 1, 'a': 2}\nk = d.keys()\nk.sort(reverse=True)\nprint(k)",
    after: "d = {'b': 1, 'a': 2}\nk = d.keys()\nk = sorted(k, reverse=True)\nprint(k)",
    expect: "['b', 'a']",
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    if (ctx.nb.isBound('sorted')) return;
    for (const { call, recv } of ctx.methodCalls(['sort'])) {
      if (recv.type !== 'identifier' || call.parent?.type !== 'expression_statement') continue;
      // The name's last assignment before the call, in this cell, is a dict view.
      const last = ctx.nodes('assignment').filter((a) => a.childForFieldName('left')?.text === recv.text && a.endIndex <= call.startIndex).pop();
      if (!last || !dictView(ctx, last.childForFieldName('right'))) continue;
      const args = callArgs(call);
      const extra = args?.all.length ? `, ${args.all.map((a) => a.text).join(', ')}` : '';
      yield { node: call, edits: [replaceNode(call, `${recv.text} = sorted(${recv.text}${extra})`)] };
    }
  },
});

const xreadlines = rule({
  id: 'py2-xreadlines',
  triggers: ['xreadlines'],
  library: 'python',
  title: 'file.xreadlines()',
  old: 'for line in f.xreadlines():',
  new: 'for line in f:',
  removedIn: '3.0',
  errors: [err('AttributeError', /object has no attribute 'xreadlines'/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'files have no xreadlines() in Python 3; a file iterates over its lines',
  fixtures: [{
    before: "import io\nf = io.StringIO('a\\nb\\n')\nfor line in f.xreadlines():\n    print(line.strip())",
    after: "import io\nf = io.StringIO('a\\nb\\n')\nfor line in f:\n    print(line.strip())",
    expect: 'a\nb',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['xreadlines'])) {
      if (callArgs(call)?.all.length) continue;
      const p = call.parent;
      const loop = (p?.type === 'for_statement' || p?.type === 'for_in_clause') && sameNode(p.childForFieldName('right'), call);
      yield { node: call, edits: [replaceNode(call, loop ? recv.text : `iter(${recv.text})`)] };
    }
  },
});

/** 2to3's fix_asserts, and assertItemsEqual / assertNotRegexpMatches (Python 2 names of 3's methods). */
const ASSERTS: Record<string, string> = {
  assert_: 'assertTrue', assertEquals: 'assertEqual', assertNotEquals: 'assertNotEqual', assertAlmostEquals: 'assertAlmostEqual',
  assertNotAlmostEquals: 'assertNotAlmostEqual', assertRegexpMatches: 'assertRegex', assertRaisesRegexp: 'assertRaisesRegex',
  failUnlessEqual: 'assertEqual', failIfEqual: 'assertNotEqual', failUnlessAlmostEqual: 'assertAlmostEqual',
  failIfAlmostEqual: 'assertNotAlmostEqual', failUnless: 'assertTrue', failUnlessRaises: 'assertRaises', failIf: 'assertFalse',
  assertItemsEqual: 'assertCountEqual', assertNotRegexpMatches: 'assertNotRegex',
};

const unittestAsserts = rule({
  id: 'py-unittest-assert-aliases',
  triggers: Object.keys(ASSERTS),
  library: 'python',
  title: 'unittest assert aliases (assertEquals, failUnless, assertItemsEqual...)',
  old: 'self.assertEquals(a, b)',
  new: 'self.assertEqual(a, b)',
  removedIn: '3.12',
  errors: [err('AttributeError', new RegExp(`object has no attribute '(${Object.keys(ASSERTS).join('|')})'`))],
  link: 'https://docs.python.org/3/whatsnew/3.12.html#unittest',
  message: 'the deprecated unittest aliases were removed in Python 3.12 (assertItemsEqual is Python 2 only); use the current names',
  fixtures: [{
    before: "import unittest\nclass T(unittest.TestCase):\n    def test_it(self):\n        self.assertEquals(1 + 1, 2)\n        self.assertItemsEqual([1, 2], [2, 1])\nT('test_it').test_it()\nprint('ok')",
    after: "import unittest\nclass T(unittest.TestCase):\n    def test_it(self):\n        self.assertEqual(1 + 1, 2)\n        self.assertCountEqual([1, 2], [2, 1])\nT('test_it').test_it()\nprint('ok')",
    expect: 'ok',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, ASSERTS);
  },
});

const osErrno = rule({
  id: 'py-os-errno',
  triggers: ['errno'],
  library: 'python',
  title: 'os.errno',
  old: 'os.errno.ENOENT',
  new: 'errno.ENOENT',
  removedIn: '3.7',
  errors: [err('AttributeError', /module 'os' has no attribute 'errno'/)],
  link: 'https://docs.python.org/3/whatsnew/3.7.html#api-and-feature-removals',
  message: 'os.errno was removed in Python 3.7; import errno',
  fixtures: [{
    before: 'import os\nprint(os.errno.ENOENT == 2)',
    after: 'import errno\nimport os\nprint(errno.ENOENT == 2)',
    expect: 'True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['os.errno'])) yield moduleMember(ctx, node, 'errno');
  },
});

const comprehensionTuple = rule({
  id: 'py2-comprehension-tuple',
  gate: { nodeTypes: ['for_in_clause'] },
  library: 'python',
  title: 'unparenthesized tuple in a comprehension',
  old: '[x for x in 1, 2]',
  new: '[x for x in (1, 2)]',
  removedIn: '3.0',
  errors: [err('SyntaxError', /invalid syntax/)],
  link: PY3 + '#changed-syntax',
  message: 'a comprehension over a bare tuple needs parentheses in Python 3',
  fixtures: [{ before: 'print([x * 2 for x in 1, 2, 3])', after: 'print([x * 2 for x in (1, 2, 3)])', expect: '[2, 4, 6]', beforeError: 'SyntaxError' }],
  *find(ctx): Generator<RuleMatch> {
    for (const clause of ctx.nodes('for_in_clause')) {
      const rights = clause.childrenForFieldName('right').filter((r): r is SyntaxNode => !!r);
      if (rights.length < 2) continue;
      const start = rights[0].startIndex;
      const end = rights[rights.length - 1].endIndex;
      const trailing = /^\s*,/.exec(ctx.source.slice(end));
      yield { node: clause, edits: [{ start, end: end + (trailing?.[0].length ?? 0), text: `(${ctx.source.slice(start, end + (trailing?.[0].length ?? 0))})` }] };
    }
  },
});

/** Where the print call sits as the leftmost operand: a call's callee, an attribute's object, an operator's left side. */
const LEFT_FIELD: Record<string, string> = { call: 'function', attribute: 'object', binary_operator: 'left', subscript: 'value', boolean_operator: 'left' };

/**
 * Python 2's print statement took everything after `print` as what to print: `print ("{} done").format(c)`
 * printed the formatted string, `print ("a %d") % n` the %-formatted one, `print ("a"), b` both values.
 * In Python 3 the parentheses make a call that prints its one argument and returns None, on which
 * the rest acts: `.format` raises AttributeError, `%` a TypeError, and the tuple form silently drops
 * what follows the comma. The repair is the statement Python 2 executed: `print((A).format(c))`.
 */
const printCallChain = rule({
  id: 'py2-print-call-chain',
  triggers: ['print'],
  library: 'python',
  title: 'a print statement whose first item is parenthesized: print ("a {}").format(x)',
  old: 'print ("{} done").format(name)',
  new: 'print(("{} done").format(name))',
  removedIn: '3.0',
  errors: [err('AttributeError', /'NoneType' object has no attribute '(format|upper|lower|strip|join|replace)'/), err('TypeError', /unsupported operand type\(s\) for [%+*]: 'NoneType' and/)],
  link: 'https://docs.python.org/3/whatsnew/3.0.html#print-is-a-function',
  message: "in Python 2 everything after `print` was printed; in Python 3 `print(...)` returns None and the rest of the statement acts on None: print the whole expression",
  fixtures: [{
    before: 'name = "train"\nprint ("{} done").format(name)\nprint ("%d rows") % 3\nprint ("a"), name',
    after: 'name = "train"\nprint(("{} done").format(name))\nprint(("%d rows") % 3)\nprint(("a"), name)',
    expect: 'train done\n3 rows\na train',
    beforeError: 'AttributeError',
    context: { pythonMajor: 2 },
  }],
  *find(ctx): Generator<RuleMatch> {
    if (ctx.nb.futurePrint || ctx.nb.isBound('print')) return;
    const where = py2OrAtError(ctx, /'NoneType' object has no attribute|unsupported operand type\(s\) for [%+*]: 'NoneType'/);
    if (!where) return;
    for (const call of ctx.nodes('call')) {
      const fn = call.childForFieldName('function');
      if (fn?.type !== 'identifier' || fn.text !== 'print') continue;
      const args = call.childForFieldName('arguments');
      const items = args?.namedChildren.filter((c) => !!c && c.type !== 'comment') ?? [];
      if (args?.type !== 'argument_list' || items.length !== 1 || items[0]!.type === 'keyword_argument') continue;
      // Up to the statement, through left-hand positions only.
      let node: SyntaxNode = call;
      let parent = node.parent;
      while (parent && LEFT_FIELD[parent.type] && sameNode(parent.childForFieldName(LEFT_FIELD[parent.type]), node)) {
        node = parent;
        parent = node.parent;
      }
      if (parent?.type !== 'expression_statement') continue;
      const parts = parent.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
      if (!sameNode(parts[0], node) || (parts.length === 1 && sameNode(node, call))) continue;
      if (!where.onLine(parent)) continue;
      const end = parts[parts.length - 1].endIndex;
      const rest = ctx.source.slice(fn.endIndex, end).trimStart();
      yield { node: call, edits: [{ start: call.startIndex, end, text: `print(${rest})` }] };
    }
  },
});

export const py2FixerRules: Rule[] = [
  comprehensionTuple, printCallChain, applyB, internB, standardError, functionAttributes, methodAttributes, sysExc,
  typesConstants, specialMethods, metaclassAttr, operatorFunctions, sortCmp, dictViewConcat, dictViewSort,
  xreadlines, unittestAsserts, osErrno,
];
