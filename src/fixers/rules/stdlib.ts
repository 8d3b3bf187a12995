/** Python 3 standard-library removals that old notebooks hit (time.clock, collections ABCs, imp...). */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule } from './types.js';
import { err, rule, moduleMember, moveImportedNames, renameMethodCalls } from './helpers.js';
import { callArgs, replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';

const timeClock = rule({
  id: 'py-time-clock',
  triggers: ['clock'],
  library: 'python',
  title: 'time.clock()',
  old: 'time.clock()',
  new: 'time.perf_counter()',
  removedIn: '3.8',
  errors: [err('AttributeError', /module 'time' has no attribute 'clock'/), err('ImportError', /cannot import name 'clock' from 'time'/)],
  link: 'https://docs.python.org/3/whatsnew/3.8.html#api-and-feature-removals',
  message: 'time.clock was removed in Python 3.8; use time.perf_counter (wall) or time.process_time (CPU)',
  fixtures: [{
    before: 'import time\nfrom time import clock\nt0 = time.clock()\nprint(clock() >= t0)',
    after: 'import time\nfrom time import perf_counter as clock\nt0 = time.perf_counter()\nprint(clock() >= t0)',
    expect: 'True',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['time.clock'])) yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'perf_counter')] };
    yield* moveImportedNames(ctx, 'time', { clock: { module: 'time', name: 'perf_counter' } });
  },
});

const ABCS = ['Iterable', 'Iterator', 'Mapping', 'MutableMapping', 'Sequence', 'MutableSequence', 'Set', 'MutableSet',
  'Callable', 'Hashable', 'Sized', 'Container', 'Generator', 'Awaitable', 'Coroutine', 'AsyncIterable', 'AsyncIterator',
  'KeysView', 'ValuesView', 'ItemsView', 'MappingView', 'ByteString'];

const collectionsAbc = rule({
  id: 'py-collections-abc',
  triggers: ABCS,
  library: 'python',
  title: 'collections.Iterable / Mapping / ...',
  old: 'collections.Iterable',
  new: 'collections.abc.Iterable',
  removedIn: '3.10',
  errors: [err('AttributeError', new RegExp(`module 'collections' has no attribute '(${ABCS.join('|')})'`)), err('ImportError', new RegExp(`cannot import name '(${ABCS.join('|')})' from 'collections'`))],
  link: 'https://docs.python.org/3/whatsnew/3.10.html#removed',
  message: 'the ABC aliases in collections were removed in Python 3.10; use collections.abc',
  fixtures: [{
    before: 'import collections\nfrom collections import Counter, Mapping\nprint(isinstance([1], collections.Iterable), isinstance(Counter(), Mapping))',
    after: 'import collections\nfrom collections import Counter\nfrom collections.abc import Mapping\nprint(isinstance([1], collections.abc.Iterable), isinstance(Counter(), Mapping))',
    expect: 'True True',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(ABCS.map((a) => `collections.${a}`))) {
      const attr = node.childForFieldName('attribute')!;
      yield { node, edits: [{ start: attr.startIndex, end: attr.startIndex, text: 'abc.' }] };
    }
    yield* moveImportedNames(ctx, 'collections', Object.fromEntries(ABCS.map((a) => [a, { module: 'collections.abc' }])));
  },
});

const base64Legacy = rule({
  id: 'py-base64-encodestring',
  triggers: ['encodestring', 'decodestring'],
  library: 'python',
  title: 'base64.encodestring / decodestring',
  old: 'base64.encodestring(b)',
  new: 'base64.encodebytes(b)',
  removedIn: '3.9',
  errors: [err('AttributeError', /module 'base64' has no attribute '(en|de)codestring'/)],
  link: 'https://docs.python.org/3/whatsnew/3.9.html#removed',
  message: 'base64.encodestring/decodestring were removed in Python 3.9; use encodebytes/decodebytes',
  fixtures: [{
    before: "import base64\nprint(base64.decodestring(base64.encodestring(b'hi')))",
    after: "import base64\nprint(base64.decodebytes(base64.encodebytes(b'hi')))",
    expect: "b'hi'",
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(['base64.encodestring', 'base64.decodestring'])) {
      yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, qname.endsWith('encodestring') ? 'encodebytes' : 'decodebytes')] };
    }
  },
});

const impModule = rule({
  id: 'py-imp-module',
  triggers: ['imp'],
  library: 'python',
  title: 'imp module',
  old: 'import imp; imp.reload(m)',
  new: 'import importlib; importlib.reload(m)',
  removedIn: '3.12',
  errors: [err('ModuleNotFoundError', /No module named 'imp'/)],
  link: 'https://docs.python.org/3/whatsnew/3.12.html#imp',
  message: 'the imp module was removed in Python 3.12; use importlib',
  fixtures: [{
    before: 'import imp\nimport json\nprint(imp.reload(json).__name__)',
    after: 'import importlib as imp\nimport json\nprint(imp.reload(json).__name__)',
    expect: 'json',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    // Only imp.reload maps onto importlib one-to-one; other imp functions are reported.
    const usesOther = ctx.nb.memo('imp-other-uses', () => ctx.nb.identifiers('imp').some(({ node }) => {
      const a = node.parent;
      if (a?.type !== 'attribute' || a.childForFieldName('object')?.startIndex !== node.startIndex) return false;
      return !['reload', 'invalidate_caches', 'import_module'].includes(a.childForFieldName('attribute')?.text ?? '');
    }));
    for (const stmt of ctx.nodes('import_statement')) {
      for (const item of stmt.childrenForFieldName('name')) {
        if (!item) continue;
        const dn = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
        if (dn?.text !== 'imp') continue;
        if (usesOther) { yield { node: item, message: 'the imp module was removed in Python 3.12; port its uses to importlib (importlib.reload, importlib.util.spec_from_file_location...)' }; continue; }
        yield { node: item, edits: [replaceNode(item, item.type === 'aliased_import' ? item.text.replace(/^imp\b/, 'importlib') : 'importlib as imp')] };
      }
    }
    yield* (function* () {
      for (const stmt of ctx.nodes('import_from_statement')) {
        if (stmt.childForFieldName('module_name')?.text !== 'imp') continue;
        const names = stmt.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
        if (names.every((n) => (n.type === 'aliased_import' ? n.childForFieldName('name')!.text : n.text) === 'reload')) {
          yield { node: stmt, edits: [replaceNode(stmt.childForFieldName('module_name')!, 'importlib')] };
        } else yield { node: stmt };
      }
    })();
  },
});

const getargspec = rule({
  id: 'py-inspect-getargspec',
  triggers: ['getargspec'],
  library: 'python',
  title: 'inspect.getargspec',
  old: 'inspect.getargspec(f).args',
  new: 'inspect.getfullargspec(f).args',
  removedIn: '3.11',
  errors: [err('AttributeError', /module 'inspect' has no attribute 'getargspec'/)],
  link: 'https://docs.python.org/3/whatsnew/3.11.html#removed',
  message: 'inspect.getargspec was removed in Python 3.11; use getfullargspec (or signature)',
  fixtures: [{
    before: 'import inspect\ndef f(a, b=1):\n    pass\nprint(inspect.getargspec(f).args)',
    after: 'import inspect\ndef f(a, b=1):\n    pass\nprint(inspect.getfullargspec(f).args)',
    expect: "['a', 'b']",
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['inspect.getargspec'])) {
      // `args, varargs, keywords, defaults = getargspec(f)` unpacks 4 of getfullargspec's 7 fields.
      const call = node.parent?.type === 'call' ? node.parent : undefined;
      const assign = call?.parent?.type === 'assignment' ? call.parent : undefined;
      const left = assign?.childForFieldName('left');
      if (left && (left.type === 'pattern_list' || left.type === 'tuple_pattern')) {
        yield { node, message: 'inspect.getargspec was removed in Python 3.11; getfullargspec returns 7 fields (args, varargs, varkw, defaults, kwonlyargs, kwonlydefaults, annotations), so this 4-way unpacking must take `[:4]`' };
        continue;
      }
      yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'getfullargspec')] };
    }
  },
});

const fractionsGcd = rule({
  id: 'py-fractions-gcd',
  triggers: ['gcd'],
  library: 'python',
  title: 'fractions.gcd',
  old: 'fractions.gcd(a, b)',
  new: 'math.gcd(a, b)',
  removedIn: '3.9',
  errors: [err('AttributeError', /module 'fractions' has no attribute 'gcd'/), err('ImportError', /cannot import name 'gcd' from 'fractions'/)],
  link: 'https://docs.python.org/3/whatsnew/3.9.html#removed',
  message: 'fractions.gcd was removed in Python 3.9; use math.gcd',
  fixtures: [{
    before: 'from fractions import gcd\nprint(gcd(12, 18))',
    after: 'from math import gcd\nprint(gcd(12, 18))',
    expect: '6',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    yield* moveImportedNames(ctx, 'fractions', { gcd: { module: 'math' } });
    for (const { node } of ctx.attributesTo(['fractions.gcd'])) yield moduleMember(ctx, node, 'math', 'gcd');
  },
});

const threadIsAlive = rule({
  id: 'py-thread-isalive',
  triggers: ['isAlive'],
  library: 'python',
  title: 'Thread.isAlive()',
  old: 't.isAlive()',
  new: 't.is_alive()',
  removedIn: '3.9',
  errors: [err('AttributeError', /'Thread' object has no attribute 'isAlive'/)],
  link: 'https://docs.python.org/3/whatsnew/3.9.html#removed',
  message: 'Thread.isAlive was removed in Python 3.9; use is_alive',
  fixtures: [{
    before: 'import threading\nt = threading.Thread(target=lambda: None)\nprint(t.isAlive())',
    after: 'import threading\nt = threading.Thread(target=lambda: None)\nprint(t.is_alive())',
    expect: 'False',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    yield* renameMethodCalls(ctx, { isAlive: 'is_alive' }, ({ args }) => !args?.all.length);
  },
});

/** A value that is visibly a set (or a dict's keys view, a Set too): random.sample took it until 3.11. */
function visiblySet(n: SyntaxNode): boolean {
  if (n.type === 'set' || n.type === 'set_comprehension') return true;
  if (n.type !== 'call') return false;
  const fn = n.childForFieldName('function');
  if (fn?.type === 'identifier') return fn.text === 'set' || fn.text === 'frozenset';
  return fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'keys' && !callArgs(n)?.all.length;
}

const SAMPLE_NOT_SEQUENCE = /Population must be a sequence/;

/**
 * random.sample(population, k) turned a set into `tuple(population)` (a DeprecationWarning from 3.9);
 * Python 3.11 requires a sequence: "Population must be a sequence.  For dicts or sets, use
 * sorted(d)." sorted() would draw other elements than the author's run did; tuple() is what the old
 * code did, in the set's own iteration order. Static where the argument is visibly a set (`set(...)`,
 * a set display or comprehension, `d.keys()`); a name holding one is rewritten from the TypeError,
 * on the traceback's line.
 */
const randomSampleSet = rule({
  id: 'py-random-sample-set',
  triggers: ['sample'],
  library: 'python',
  title: 'random.sample(a_set, k)',
  old: 'random.sample(set(values), 3)',
  new: 'random.sample(tuple(set(values)), 3)',
  removedIn: '3.11',
  errors: [err('TypeError', SAMPLE_NOT_SEQUENCE)],
  link: 'https://docs.python.org/3/whatsnew/3.11.html#random',
  message: 'random.sample no longer converts a set to a sequence (Python 3.11): tuple(population) is the conversion it made, in the same order (sorted() would draw different elements)',
  fixtures: [{
    before: 'import random\nfrom random import sample\nrandom.seed(0)\ncols = {3, 1, 4, 5, 9}\nprint(sorted(random.sample(set(cols), 2)), sample(cols, 1))',
    after: 'import random\nfrom random import sample\nrandom.seed(0)\ncols = {3, 1, 4, 5, 9}\nprint(sorted(random.sample(tuple(set(cols)), 2)), sample(tuple(cols), 1))',
    expect: '[5, 9] [1]',
    beforeError: 'TypeError',
    context: { runtime: { ename: 'TypeError', evalue: 'Population must be a sequence.  For dicts or sets, use sorted(d).', lines: [5] } },
  }],
  *find(ctx) {
    const at = atRuntimeError(ctx, SAMPLE_NOT_SEQUENCE);
    for (const { call } of ctx.callsTo(['random.sample'])) {
      const pop = callArgs(call)?.positional[0];
      if (!pop || pop.type === 'list_splat') continue;
      const named = at && at.onLine(call) && (pop.type === 'identifier' || pop.type === 'attribute' || pop.type === 'subscript');
      if (visiblySet(pop) || named) yield { node: pop, edits: [replaceNode(pop, `tuple(${pop.text})`)] };
    }
  },
});

export const stdlibRules: Rule[] = [timeClock, collectionsAbc, base64Legacy, impModule, getargspec, fractionsGcd, threadIsAlive, randomSampleSet];
