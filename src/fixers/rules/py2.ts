/**
 * Python 2 -> 3: syntax (print/exec statements, `except E, e`, `raise E, msg`, backticks, `<>`,
 * octal and long literals, `ur''`, tuple parameters), renamed builtins and modules, dict/iterator
 * methods, list-returning builtins, and integer division. lib2to3 is gone in Python 3.13, so this
 * is ours to do.
 */
import type { SyntaxNode } from '../python/parser.js';
import { cellCache, type CellContext } from './context.js';
import type { Rule, TextEdit } from './types.js';
import { err, rule, deleteStatement, firstCellUsing, moduleMember, moveImportedNames, moveModules, renameMethodCalls } from './helpers.js';
import { addArgument, callArgs, callOf, kwValue, methodCall, paren, quoteOf, replaceNode, sameNode, stringValue } from './tree.js';
import { onFrameLines } from './traceback.js';

const PY3 = 'https://docs.python.org/3/whatsnew/3.0.html';
const SYNTAX = (what: RegExp | string) => [err('SyntaxError', what)];

/** A free use of a builtin `name` the notebook does not define itself. */
export function* freeNames(ctx: CellContext, name: string): Generator<SyntaxNode> {
  if (ctx.nb.isBound(name)) return;
  for (const id of ctx.identifiers(name)) {
    if (ctx.isFreeName(id)) yield id;
  }
}

export function builtinRename(id: string, oldName: string, newName: string, ename: RegExp, fixture: { before: string; after: string; expect: string }, extra: Partial<Rule> = {}): Rule {
  return rule({
    id,
    triggers: [oldName],
    library: 'python',
    title: `Python 2 builtin ${oldName}() is gone`,
    old: `${oldName}(...)`,
    new: `${newName}(...)`,
    removedIn: '3.0',
    errors: [err('NameError', ename)],
    link: 'https://docs.python.org/3/whatsnew/3.0.html#builtins',
    message: `${oldName} does not exist in Python 3; use ${newName}`,
    fixtures: [{ ...fixture, beforeError: 'NameError' }],
    *find(ctx) {
      for (const id of freeNames(ctx, oldName)) yield { node: id, edits: [replaceNode(id, newName)] };
    },
    ...extra,
  });
}

/** Statement-level context: prints in expression position. */
const printStatement = rule({
  id: 'py2-print-statement',
  // `print x` is a print_statement; a bare `print` (Python 2 newline) is the identifier.
  triggers: ['print'],
  gate: { nodeTypes: ['print_statement'] },
  library: 'python',
  title: 'print statement',
  old: 'print x, y  /  print >>f, x  /  print x,',
  new: "print(x, y)  /  print(x, file=f)  /  print(x, end=' ')",
  removedIn: '3.0',
  errors: SYNTAX(/Missing parentheses in call to 'print'|invalid syntax/),
  link: 'https://docs.python.org/3/whatsnew/3.0.html#print-is-a-function',
  message: 'print is a function in Python 3',
  fixtures: [
    { before: 'x = 2\nprint "value:", x + 1  # comment', after: 'x = 2\nprint("value:", x + 1)  # comment', expect: 'value: 3', beforeError: 'SyntaxError' },
    {
      before: 'import sys\nprint >>sys.stdout, "a %d" % 3,\nprint "b"\nprint',
      after: 'import sys\nprint("a %d" % 3, file=sys.stdout, end=\' \')\nprint("b")\nprint()',
      expect: 'a 3 b',
      beforeError: 'SyntaxError',
      context: { pythonMajor: 2 },
    },
  ],
  *find(ctx) {
    for (const st of ctx.nodes('print_statement')) {
      const args = st.childrenForFieldName('argument').filter((a): a is SyntaxNode => !!a);
      const chevron = st.namedChildren.find((c) => c?.type === 'chevron');
      const parts: string[] = [];
      if (args.length) parts.push(ctx.source.slice(args[0].startIndex, args[args.length - 1].endIndex));
      const fileExpr = chevron?.namedChildren.find((c) => !!c && c.type !== 'comment');
      if (fileExpr) parts.push(`file=${fileExpr.text}`);
      const tail = ctx.source.slice(args.length ? args[args.length - 1].endIndex : st.startIndex + 5, st.endIndex);
      if (/,\s*$/.test(tail)) parts.push("end=' '");
      yield { node: st, edits: [replaceNode(st, `print(${parts.join(', ')})`)] };
    }
    // A bare `print` (newline in Python 2, a no-op name in Python 3) in a Python 2 notebook.
    if (ctx.nb.pythonMajor === 2 && !ctx.nb.futurePrint && !ctx.nb.isBound('print')) {
      for (const st of ctx.nodes('expression_statement')) {
        const only = st.namedChildren.filter((c) => c?.type !== 'comment');
        if (only.length === 1 && only[0]!.type === 'identifier' && only[0]!.text === 'print') {
          yield { node: st, edits: [replaceNode(only[0]!, 'print()')] };
        }
      }
    }
  },
});

const execStatement = rule({
  id: 'py2-exec-statement',
  gate: { nodeTypes: ['exec_statement'] },
  library: 'python',
  title: 'exec statement',
  old: 'exec code in ns',
  new: 'exec(code, ns)',
  removedIn: '3.0',
  errors: SYNTAX(/Missing parentheses in call to 'exec'|invalid syntax/),
  link: PY3,
  message: 'exec is a function in Python 3',
  fixtures: [{ before: 'ns = {}\nexec "x = 6 * 7" in ns\nprint(ns["x"])', after: 'ns = {}\nexec("x = 6 * 7", ns)\nprint(ns["x"])', expect: '42', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const st of ctx.nodes('exec_statement')) {
      const parts = st.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment').map((c) => c.text);
      yield { node: st, edits: [replaceNode(st, `exec(${parts.join(', ')})`)] };
    }
  },
});

const exceptComma = rule({
  id: 'py2-except-comma',
  gate: { nodeTypes: ['except_clause'] },
  library: 'python',
  title: 'except E, e',
  old: 'except ValueError, e:',
  new: 'except ValueError as e:',
  removedIn: '3.0',
  errors: SYNTAX(/multiple exception types must be parenthesized|invalid syntax/),
  link: 'https://peps.python.org/pep-3110/',
  message: '`except E, e` is a syntax error in Python 3; write `except E as e`',
  fixtures: [{
    before: "try:\n    int('x')\nexcept ValueError, e:\n    print('caught', type(e).__name__)",
    after: "try:\n    int('x')\nexcept ValueError as e:\n    print('caught', type(e).__name__)",
    expect: 'caught ValueError',
    beforeError: 'SyntaxError',
  }, {
    before: "try:\n    {}['k']\nexcept (KeyError, IndexError), err:\n    print(repr(err))",
    after: "try:\n    {}['k']\nexcept (KeyError, IndexError) as err:\n    print(repr(err))",
    expect: "KeyError('k')",
    beforeError: 'SyntaxError',
  }],
  *find(ctx) {
    for (const ex of ctx.nodes('except_clause')) {
      const values = ex.childrenForFieldName('value').filter((v): v is SyntaxNode => !!v);
      if (values.length !== 2 || values[1].type !== 'identifier') continue;
      yield { node: ex, edits: [{ start: values[0].endIndex, end: values[1].startIndex, text: ' as ' }] };
    }
  },
});

const raiseComma = rule({
  id: 'py2-raise-comma',
  gate: { nodeTypes: ['raise_statement'] },
  library: 'python',
  title: 'raise E, msg',
  old: 'raise ValueError, "msg"',
  new: 'raise ValueError("msg")',
  removedIn: '3.0',
  errors: SYNTAX(/invalid syntax/),
  link: 'https://peps.python.org/pep-3109/',
  message: '`raise E, msg` is a syntax error in Python 3; write `raise E(msg)`',
  fixtures: [{
    before: 'try:\n    raise ValueError, "bad value"\nexcept ValueError as e:\n    print(e)',
    after: 'try:\n    raise ValueError("bad value")\nexcept ValueError as e:\n    print(e)',
    expect: 'bad value',
    beforeError: 'SyntaxError',
  }],
  *find(ctx) {
    for (const st of ctx.nodes('raise_statement')) {
      const list = st.namedChildren.find((c) => c?.type === 'expression_list');
      if (!list) continue;
      const parts = list.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
      if (parts.length < 2 || parts.length > 3) continue;
      const [cls, msg, tb] = parts;
      if (cls.type !== 'identifier' && cls.type !== 'attribute') continue;
      let text = msg.type === 'tuple' ? `${cls.text}${msg.text}` : `${cls.text}(${msg.text})`;
      if (tb) text += `.with_traceback(${tb.text})`;
      yield { node: st, edits: [replaceNode(list, text)] };
    }
  },
});

const backticks = rule({
  id: 'py2-backticks',
  gate: { source: ['`'] },
  library: 'python',
  title: 'backtick repr',
  old: '`x`',
  new: 'repr(x)',
  removedIn: '3.0',
  errors: SYNTAX(/invalid syntax/),
  link: PY3 + '#removed-syntax',
  message: 'backticks were removed in Python 3; use repr()',
  fixtures: [{ before: "x = 5\nprint(`x` + '!')", after: "x = 5\nprint(repr(x) + '!')", expect: '5!', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const s of ctx.nodes('string')) {
      const t = s.text;
      if (t.length >= 2 && t.startsWith('`') && t.endsWith('`')) {
        yield { node: s, edits: [replaceNode(s, `repr(${t.slice(1, -1).trim()})`)] };
      }
    }
  },
});

const neOperator = rule({
  id: 'py2-ne-operator',
  gate: { nodeTypes: ['<>'] },
  library: 'python',
  title: '<> operator',
  old: 'a <> b',
  new: 'a != b',
  removedIn: '3.0',
  errors: SYNTAX(/invalid syntax/),
  link: PY3 + '#removed-syntax',
  message: '`<>` was removed in Python 3; use `!=`',
  fixtures: [{ before: 'a, b = 1, 2\nprint(a <> b)', after: 'a, b = 1, 2\nprint(a != b)', expect: 'True', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const op of ctx.nodes('<>')) yield { node: op, edits: [replaceNode(op, '!=')] };
  },
});

/** Cells with parse errors (error recovery can lex a token from inside a word: no text gate holds there). */
const PARSE_ERRORS = ['ERROR', 'MISSING'];

const octal = rule({
  id: 'py2-octal-literal',
  // `integer` is not indexed (tree.ts): a 0 then an octal digit starting a token, which in a tree
  // without errors starts a word (`1.07` passes too, `x07` and `100` do not).
  gate: { source: [/\b0[0-7]/], nodeTypes: PARSE_ERRORS },
  library: 'python',
  title: 'octal literal 0777',
  old: '0777',
  new: '0o777',
  removedIn: '3.0',
  errors: SYNTAX(/leading zeros in decimal integer literals are not permitted|invalid (decimal literal|token)/),
  link: 'https://peps.python.org/pep-3127/',
  message: 'octal literals need the 0o prefix in Python 3',
  fixtures: [{ before: 'print(0777)', after: 'print(0o777)', expect: '511', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const n of ctx.nodes('integer')) {
      const m = /^0([0-7]+)[lL]?$/.exec(n.text);
      if (m && !/^0+$/.test(m[1])) yield { node: n, edits: [replaceNode(n, `0o${m[1]}`)] };
    }
  },
});

const longSuffix = rule({
  id: 'py2-long-suffix',
  // `integer` is not indexed (tree.ts): the text of an `10L` / `0xFFL` literal holds one of these.
  gate: { source: [/\d[lL]|0[xXbBoO][0-9a-fA-F]*[lL]/] },
  library: 'python',
  title: 'long literal suffix',
  old: '10L',
  new: '10',
  removedIn: '3.0',
  errors: SYNTAX(/invalid (decimal literal|syntax)/),
  link: 'https://peps.python.org/pep-0237/',
  message: 'the L suffix was removed in Python 3 (int is unbounded)',
  fixtures: [{ before: 'print(10L + 0xFFL)', after: 'print(10 + 0xFF)', expect: '265', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const n of ctx.nodes('integer')) {
      if (/^(0[xXbBoO][0-9a-fA-F]+|[1-9][0-9]*|0)[lL]$/.test(n.text)) yield { node: n, edits: [replaceNode(n, n.text.slice(0, -1))] };
    }
  },
});

const urPrefix = rule({
  id: 'py2-ur-prefix',
  // A string start is its prefix letters then the quote (the grammar accepts any prefix letters).
  // In a tree without errors it begins a token: its `u` starts a word or follows a number glued to
  // it (`1ur'x'`), never the inside of a name (`feature'` is a name then a quote, ~750 cells of the
  // corpus). Error recovery can lex a token from inside a word, so cells with errors keep running.
  gate: { source: [/\b(?:\d\w*)?[uU][rR][A-Za-z]*['"]/], nodeTypes: PARSE_ERRORS },
  library: 'python',
  title: "ur'' string prefix",
  old: "ur'\\d+'",
  new: "r'\\d+'",
  removedIn: '3.0',
  errors: SYNTAX(/invalid syntax/),
  link: 'https://docs.python.org/3/reference/lexical_analysis.html#string-and-bytes-literals',
  message: "the ur'' prefix is not valid in Python 3; use r''",
  fixtures: [{ before: "print(ur'\\d+' + u'x')", after: "print(r'\\d+' + u'x')", expect: '\\d+x', beforeError: 'SyntaxError' }],
  *find(ctx) {
    for (const s of ctx.nodes('string_start')) {
      if (/^[uU][rR]/.test(s.text)) yield { node: s, edits: [{ start: s.startIndex, end: s.startIndex + 1, text: '' }] };
    }
  },
});

const tupleParams = rule({
  id: 'py2-tuple-parameters',
  gate: { nodeTypes: ['tuple_pattern'] },
  library: 'python',
  title: 'tuple parameters',
  old: 'lambda (k, v): v',
  new: 'lambda k_v: k_v[1]',
  removedIn: '3.0',
  errors: SYNTAX(/invalid syntax|Lambda expression parameters cannot be parenthesized/),
  link: 'https://peps.python.org/pep-3113/',
  message: 'tuple parameter unpacking was removed in Python 3',
  fixtures: [
    {
      before: "d = {'a': 2, 'b': 1}\nprint(sorted(d.items(), key=lambda (k, v): (v, k)))",
      after: "d = {'a': 2, 'b': 1}\nprint(sorted(d.items(), key=lambda k_v: (k_v[1], k_v[0])))",
      expect: "[('b', 1), ('a', 2)]",
      beforeError: 'SyntaxError',
    },
    {
      before: 'def area((w, h)):\n    return w * h\nprint(area((2, 3)))',
      manual: 'def area(w_h):\n    w, h = w_h\n    return w * h\nprint(area((2, 3)))',
      expect: '6',
      beforeError: 'SyntaxError',
    },
  ],
  *find(ctx) {
    for (const tp of ctx.nodes('tuple_pattern')) {
      const params = tp.parent;
      if (!params || (params.type !== 'lambda_parameters' && params.type !== 'parameters')) continue;
      const names = tp.namedChildren.filter((c): c is SyntaxNode => !!c);
      if (params.type === 'parameters' || !names.every((n) => n.type === 'identifier')) {
        yield { node: tp, message: 'tuple parameter unpacking was removed in Python 3: take one parameter and unpack it in the body (`def f(w_h): w, h = w_h`)' };
        continue;
      }
      const lambda = params.parent!;
      const body = lambda.childForFieldName('body');
      if (!body) continue;
      const joined = names.map((n) => n.text).join('_');
      if (ctx.nb.isBound(joined) && !names.some((n) => n.text === joined)) continue;
      const edits: TextEdit[] = [replaceNode(tp, joined)];
      const idx = new Map(names.map((n, i) => [n.text, i]));
      const stack: SyntaxNode[] = [body];
      while (stack.length) {
        const n = stack.pop()!;
        if (n.type === 'lambda') continue; // nested lambdas may shadow
        if (n.type === 'identifier' && idx.has(n.text) && ctx.isFreeName(n)) edits.push(replaceNode(n, `${joined}[${idx.get(n.text)}]`));
        for (const c of n.namedChildren) if (c) stack.push(c);
      }
      yield { node: tp, edits };
    }
  },
});

/** Builtins renamed in Python 3, a rule each (builtinRename): [id, old name, new name, fixture before, after, expect]; the NameError names the old one. */
const [xrange, rawInput, unicodeB, longB, basestringB, unichrB] = ([
  ['py2-xrange', 'xrange', 'range', 'print(sum(i for i in xrange(4)))', 'print(sum(i for i in range(4)))', '6'],
  ['py2-raw-input', 'raw_input', 'input', 'ask = raw_input\nprint(ask is input)', 'ask = input\nprint(ask is input)', 'True'],
  ['py2-unicode', 'unicode', 'str', "print(unicode(5) + u'a')", "print(str(5) + u'a')", '5a'],
  ['py2-long', 'long', 'int', 'print(long(3.7), isinstance(2, (int, long)))', 'print(int(3.7), isinstance(2, (int, int)))', '3 True'],
  ['py2-basestring', 'basestring', 'str', "print(isinstance('a', basestring))", "print(isinstance('a', str))", 'True'],
  ['py2-unichr', 'unichr', 'chr', 'print(unichr(65))', 'print(chr(65))', 'A'],
] as const).map(([id, from, to, before, after, expect]) => builtinRename(id, from, to, new RegExp(`name '${from}' is not defined`), { before, after, expect }));

const fileBuiltin = rule({
  id: 'py2-file-builtin',
  triggers: ['file'],
  library: 'python',
  title: 'file() builtin',
  old: "file('x.txt')",
  new: "open('x.txt')",
  removedIn: '3.0',
  errors: [err('NameError', /name 'file' is not defined/)],
  link: PY3 + '#builtins',
  message: 'file() was removed in Python 3; use open()',
  fixtures: [{ before: 'import os\nwith file(os.devnull) as f:\n    print(len(f.read()))', after: 'import os\nwith open(os.devnull) as f:\n    print(len(f.read()))', expect: '0', beforeError: 'NameError' }],
  *find(ctx) {
    for (const id of freeNames(ctx, 'file')) if (callOf(id)) yield { node: id, edits: [replaceNode(id, 'open')] };
  },
});

const cmpBuiltin = rule({
  id: 'py2-cmp',
  triggers: ['cmp'],
  library: 'python',
  title: 'cmp() builtin',
  old: 'cmp(a, b)',
  new: '((a > b) - (a < b))',
  removedIn: '3.0',
  errors: [err('NameError', /name 'cmp' is not defined/)],
  link: PY3 + '#ordering-comparisons',
  message: 'cmp() was removed in Python 3',
  fixtures: [{ before: 'print(cmp(1, 2), cmp(3, 3))', after: 'print(((1 > 2) - (1 < 2)), ((3 > 3) - (3 < 3)))', expect: '-1 0', beforeError: 'NameError' }],
  *find(ctx) {
    for (const id of freeNames(ctx, 'cmp')) {
      const call = callOf(id);
      const args = call && callArgs(call);
      if (!call || !args || args.positional.length !== 2 || args.all.length !== 2 || args.splat) { yield { node: id }; continue; }
      const [a, b] = args.positional.map(paren);
      yield { node: call, edits: [replaceNode(call, `((${a} > ${b}) - (${a} < ${b}))`)] };
    }
  },
});

function importOnce(ctx: CellContext, name: string, line: string, node: SyntaxNode): TextEdit[] {
  return firstCellUsing(ctx, name) === ctx.index ? [ctx.importEdit(line)] : [];
}

const reduceB = rule({
  id: 'py2-reduce',
  triggers: ['reduce'],
  library: 'python',
  title: 'reduce() moved to functools',
  old: 'reduce(f, xs)',
  new: 'from functools import reduce',
  removedIn: '3.0',
  errors: [err('NameError', /name 'reduce' is not defined/)],
  link: PY3 + '#builtins',
  message: 'reduce is no longer a builtin in Python 3; import it from functools',
  fixtures: [{
    before: 'print(reduce(lambda a, b: a * b, [1, 2, 3, 4]))',
    after: 'from functools import reduce\nprint(reduce(lambda a, b: a * b, [1, 2, 3, 4]))',
    expect: '24',
    beforeError: 'NameError',
  }],
  *find(ctx) {
    for (const id of freeNames(ctx, 'reduce')) {
      const edits = importOnce(ctx, 'reduce', 'from functools import reduce', id);
      yield { node: id, edits };
      if (edits.length) return;
    }
  },
});

const setdefaultencoding = rule({
  id: 'py2-setdefaultencoding',
  triggers: ['setdefaultencoding', 'reload'],
  library: 'python',
  title: 'reload(sys); sys.setdefaultencoding(...)',
  old: "reload(sys)\nsys.setdefaultencoding('utf8')",
  new: '(removed: Python 3 strings are Unicode)',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'sys' has no attribute 'setdefaultencoding'/), err('NameError', /name 'reload' is not defined/)],
  link: 'https://docs.python.org/3/howto/unicode.html',
  message: 'sys.setdefaultencoding does not exist in Python 3 (str is Unicode); the statement is removed',
  fixtures: [{
    before: "import sys\nreload(sys)\nsys.setdefaultencoding('utf8')\nprint('ok')",
    after: "import sys\nprint('ok')",
    expect: 'ok',
    beforeError: 'NameError',
  }],
  *find(ctx) {
    const calls = [...ctx.callsTo(['sys.setdefaultencoding'])];
    for (const { call } of calls) {
      const st = call.parent;
      if (st?.type === 'expression_statement') yield { node: call, edits: [deleteStatement(ctx, st)] };
      else yield { node: call };
    }
    if (!usesSetdefaultencoding(ctx)) return;
    for (const id of freeNames(ctx, 'reload')) {
      const call = callOf(id);
      const args = call && callArgs(call);
      if (!call || args?.positional.length !== 1 || args.positional[0].text !== 'sys') continue;
      const st = call.parent;
      if (st?.type === 'expression_statement') yield { node: call, edits: [deleteStatement(ctx, st)] };
    }
  },
});

function usesSetdefaultencoding(ctx: CellContext): boolean {
  return ctx.nb.identifiers('setdefaultencoding').length > 0;
}

const reloadB = rule({
  id: 'py2-reload',
  triggers: ['reload'],
  library: 'python',
  title: 'reload() moved to importlib',
  old: 'reload(module)',
  new: 'importlib.reload(module)',
  removedIn: '3.0',
  errors: [err('NameError', /name 'reload' is not defined/)],
  link: 'https://docs.python.org/3/library/importlib.html#importlib.reload',
  message: 'reload is no longer a builtin in Python 3; use importlib.reload',
  fixtures: [{
    before: 'import json\njson = reload(json)\nprint(json.dumps(1))',
    after: 'import importlib\nimport json\njson = importlib.reload(json)\nprint(json.dumps(1))',
    expect: '1',
    beforeError: 'NameError',
  }],
  *find(ctx) {
    const setdef = usesSetdefaultencoding(ctx);
    for (const id of freeNames(ctx, 'reload')) {
      const call = callOf(id);
      if (!call) continue;
      if (setdef && callArgs(call)?.positional[0]?.text === 'sys') continue;
      yield moduleMember(ctx, id, 'importlib', 'reload');
    }
  },
});

const ITER_METHODS: Record<string, string> = {
  iteritems: 'items', iterkeys: 'keys', itervalues: 'values', viewitems: 'items', viewkeys: 'keys', viewvalues: 'values',
};

const dictIter = rule({
  id: 'py2-dict-iter-methods',
  triggers: Object.keys(ITER_METHODS),
  library: 'python',
  title: 'dict.iteritems()/iterkeys()/itervalues()',
  old: 'd.iteritems()',
  new: 'd.items()',
  removedIn: '3.0',
  errors: [err('AttributeError', /object has no attribute '(iter|view)(items|keys|values)'/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'dict.iteritems/iterkeys/itervalues were removed in Python 3; use items/keys/values',
  fixtures: [{
    before: "d = {'a': 1}\nfor k, v in d.iteritems():\n    print(k, v, list(d.iterkeys()), list(d.itervalues()))",
    after: "d = {'a': 1}\nfor k, v in d.items():\n    print(k, v, list(d.keys()), list(d.values()))",
    expect: "a 1 ['a'] [1]",
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    // A frame's iteritems() is the pandas rule's.
    yield* renameMethodCalls(ctx, ITER_METHODS, ({ recv, name, args }) => !(name === 'iteritems' && ctx.nb.isFrameExpr(recv, ctx.index)) && !args?.all.length, 'name');
  },
});

const hasKey = rule({
  id: 'py2-has-key',
  triggers: ['has_key'],
  library: 'python',
  title: 'dict.has_key(k)',
  old: 'd.has_key(k)',
  new: 'k in d',
  removedIn: '3.0',
  errors: [err('AttributeError', /object has no attribute 'has_key'/)],
  link: PY3 + '#builtins',
  message: 'dict.has_key was removed in Python 3; use `k in d`',
  fixtures: [{
    before: "d = {'a': 1}\nprint(d.has_key('a'), not d.has_key('b'))",
    after: "d = {'a': 1}\nprint('a' in d, not 'b' in d)",
    expect: 'True True',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['has_key'])) {
      const args = callArgs(call);
      if (!args || args.positional.length !== 1 || args.all.length !== 1) { yield { node: call }; continue; }
      const arg = args.positional[0];
      let text = `${inOperand(arg)} in ${inOperand(recv)}`;
      const p = call.parent?.type ?? '';
      if (['attribute', 'subscript', 'binary_operator', 'comparison_operator', 'unary_operator', 'call', 'await'].includes(p) &&
          !(p === 'call' && call.parent?.childForFieldName('arguments') && !sameNode(call.parent.childForFieldName('function'), call))) {
        text = `(${text})`;
      }
      yield { node: call, edits: [replaceNode(call, text)] };
    }
  },
});

function inOperand(n: SyntaxNode): string {
  return ['boolean_operator', 'not_operator', 'lambda', 'conditional_expression', 'comparison_operator'].includes(n.type) ? `(${n.text})` : n.text;
}

const keysIndex = rule({
  id: 'py2-dict-view-indexing',
  triggers: ['keys', 'values', 'items'],
  library: 'python',
  title: 'indexing d.keys()/values()/items()',
  old: 'd.keys()[0]',
  new: 'list(d.keys())[0]',
  removedIn: '3.0',
  errors: [err('TypeError', /'dict_(keys|values|items)' object is not subscriptable/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'dict views are not lists in Python 3; wrap in list() to index',
  fixtures: [{
    before: "d = {'a': 1, 'b': 2}\nprint(d.keys()[0], d.values()[-1])",
    after: "d = {'a': 1, 'b': 2}\nprint(list(d.keys())[0], list(d.values())[-1])",
    expect: 'a 2',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    for (const sub of ctx.nodes('subscript')) {
      const v = sub.childForFieldName('value');
      if (!v || v.type !== 'call') continue;
      const m = methodCall(v);
      if (!m || !['keys', 'values', 'items'].includes(m.name) || callArgs(v)?.all.length) continue;
      if (ctx.nb.isFrameExpr(m.recv, ctx.index)) continue;
      yield { node: v, edits: [replaceNode(v, `list(${v.text})`)] };
    }
    // k = d.keys(); k.sort()  ->  report
    for (const { call, recv } of ctx.methodCalls(['sort'])) {
      if (recv.type === 'call') {
        const m = methodCall(recv);
        if (m && ['keys', 'values', 'items'].includes(m.name)) yield { node: call, edits: [replaceNode(recv, `list(${recv.text})`)], message: 'dict views have no sort() in Python 3' };
      }
    }
  },
});

/** Contexts that consume an iterator directly (no list() needed). */
const ITERATING_CALLS = new Set(['list', 'tuple', 'set', 'frozenset', 'sorted', 'sum', 'any', 'all', 'min', 'max', 'dict', 'enumerate', 'iter', 'next', 'zip', 'map', 'filter', 'reversed']);

function iteratingContext(ctx: CellContext, call: SyntaxNode): boolean {
  const p = call.parent;
  if (!p) return false;
  if ((p.type === 'for_statement' || p.type === 'for_in_clause') && sameNode(p.childForFieldName('right'), call)) return true;
  if (p.type === 'argument_list') {
    const outer = p.parent!;
    const fn = outer.childForFieldName('function');
    if (fn?.type === 'identifier' && ITERATING_CALLS.has(fn.text) && !ctx.nb.isBound(fn.text)) return true;
    if (fn?.type === 'attribute' && ['join', 'extend', 'update', 'writelines'].includes(fn.childForFieldName('attribute')?.text ?? '')) return true;
  }
  return false;
}

/**
 * The calls `name(...)` whose function is the bare name, in document order: the identifiers named
 * `name` that are a call's function (callOf), read from the cell's call index (which most rules
 * build anyway) rather than from its identifier list (every identifier node of the cell; `range`
 * is in most cells that loop).
 */
function bareCalls(ctx: CellContext, name: string): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const { call, fn } of ctx.cache.callsNamed(name)) if (fn.type === 'identifier') out.push(call);
  return out;
}

const listBuiltins = rule({
  id: 'py2-list-builtins',
  triggers: ['map', 'filter', 'zip'],
  library: 'python',
  title: 'map()/filter()/zip() return iterators',
  old: 'map(f, xs)[0]  /  len(zip(a, b))',
  new: 'list(map(f, xs))[0]  /  len(list(zip(a, b)))',
  removedIn: '3.0',
  errors: [err('TypeError', /'(map|filter|zip)' object is not subscriptable|object of type '(map|filter|zip)' has no len\(\)/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'map/filter/zip return iterators in Python 3; wrap in list() where a list is needed',
  fixtures: [
    { before: 'xs = map(abs, [-1, -2])\nprint(map(abs, [-3])[0], len(zip(xs, xs)))', after: 'xs = map(abs, [-1, -2])\nprint(list(map(abs, [-3]))[0], len(list(zip(xs, xs))))', expect: '3 1', beforeError: 'TypeError' },
    {
      before: 'import numpy as np\nsq = map(lambda v: v * v, [1, 2, 3])\nprint(np.array(sq).sum())\nfor s in map(str, [1]):\n    print(s)',
      after: 'import numpy as np\nsq = list(map(lambda v: v * v, [1, 2, 3]))\nprint(np.array(sq).sum())\nfor s in map(str, [1]):\n    print(s)',
      expect: '14\n1',
      beforeOutcome: 'differs',
      context: { pythonMajor: 2 },
    },
  ],
  *find(ctx) {
    for (const name of ['map', 'filter', 'zip']) {
      if (ctx.nb.isBound(name)) continue;
      for (const call of bareCalls(ctx, name)) {
        if (iteratingContext(ctx, call)) continue;
        const p = call.parent;
        const indexed = p?.type === 'subscript' && sameNode(p.childForFieldName('value'), call);
        const lenArg = p?.type === 'argument_list' && p.parent?.childForFieldName('function')?.text === 'len';
        // Python 2 notebooks: every list-producing use outside an iterating context (what 2to3 did).
        if (indexed || lenArg || ctx.nb.pythonMajor === 2) {
          yield { node: call, edits: [replaceNode(call, `list(${call.text})`)] };
        }
      }
    }
  },
});

const rangeList = rule({
  id: 'py2-range-list',
  triggers: ['range'],
  library: 'python',
  title: 'range() is not a list',
  old: 'range(3) + [9]  /  random.shuffle(range(n))',
  new: 'list(range(3)) + [9]',
  removedIn: '3.0',
  errors: [err('TypeError', /unsupported operand type\(s\) for \+: 'range' and 'list'|'range' object does not support item assignment/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'range() returns a lazy range in Python 3; wrap in list() to concatenate or shuffle it',
  fixtures: [{
    before: 'import random\nr = range(3) + [9]\nrandom.shuffle(range(4))\nprint(r)',
    after: 'import random\nr = list(range(3)) + [9]\nrandom.shuffle(list(range(4)))\nprint(r)',
    expect: '[0, 1, 2, 9]',
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    if (ctx.nb.isBound('range')) return;
    for (const call of bareCalls(ctx, 'range')) {
      const p = call.parent;
      const concat = p?.type === 'binary_operator' && ['+'].includes(p.child(1)?.type ?? '') &&
        [p.childForFieldName('left'), p.childForFieldName('right')].some((s) => s?.type === 'list' || (s?.type === 'call' && s.childForFieldName('function')?.text === 'range'));
      const shuffled = p?.type === 'argument_list' && ctx.qname(p.parent?.childForFieldName('function')) === 'random.shuffle';
      if (concat || shuffled) yield { node: call, edits: [replaceNode(call, `list(${call.text})`)] };
    }
  },
});

const nextMethod = rule({
  id: 'py2-next-method',
  triggers: ['next'],
  library: 'python',
  title: 'iterator.next()',
  old: 'it.next()',
  new: 'next(it)',
  removedIn: '3.0',
  errors: [err('AttributeError', /object has no attribute 'next'/)],
  link: 'https://peps.python.org/pep-3114/',
  message: 'iterators have no .next() method in Python 3; use next(it)',
  fixtures: [{ before: 'it = iter([1, 2])\nprint(it.next())', after: 'it = iter([1, 2])\nprint(next(it))', expect: '1', beforeError: 'AttributeError' }],
  *find(ctx) {
    const definesNext = ctx.nb.memo('defines-next', () => ctx.nb.cells.some((c) => (c.idx.byType.get('function_definition') ?? []).some((f) => f.childForFieldName('name')?.text === 'next')));
    if (definesNext || ctx.nb.isBound('next')) return;
    for (const { call, recv } of ctx.methodCalls(['next'])) {
      if (callArgs(call)?.all.length) continue;
      yield { node: call, edits: [replaceNode(call, `next(${recv.text})`)] };
    }
  },
});

const STRING_CONSTANTS: Record<string, string> = {
  'string.letters': '.ascii_letters', 'string.lowercase': '.ascii_lowercase', 'string.uppercase': '.ascii_uppercase',
  'string.maketrans': 'str.maketrans',
};

const stringConstants = rule({
  id: 'py2-string-constants',
  triggers: ['letters', 'lowercase', 'uppercase', 'maketrans'],
  library: 'python',
  title: 'string.letters / lowercase / uppercase / maketrans',
  old: 'string.letters',
  new: 'string.ascii_letters',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'string' has no attribute '(letters|lowercase|uppercase|maketrans)'/)],
  link: 'https://docs.python.org/3/library/string.html',
  message: 'locale-dependent string constants were removed in Python 3; use the ascii_ ones',
  fixtures: [{
    before: "import string\nprint(string.letters[:3], string.uppercase[-1])",
    after: "import string\nprint(string.ascii_letters[:3], string.ascii_uppercase[-1])",
    expect: 'abc Z',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(Object.keys(STRING_CONSTANTS))) {
      const spec = STRING_CONSTANTS[qname];
      const attr = node.childForFieldName('attribute')!;
      yield { node, edits: [spec.startsWith('.') ? replaceNode(attr, spec.slice(1)) : replaceNode(node, spec)] };
    }
  },
});

const STRING_FUNCS = new Set(['join', 'split', 'strip', 'lstrip', 'rstrip', 'lower', 'upper', 'replace', 'find', 'rfind', 'atoi', 'atof', 'capitalize', 'swapcase', 'count', 'zfill', 'splitfields', 'joinfields']);

const stringFunctions = rule({
  id: 'py2-string-functions',
  triggers: [...STRING_FUNCS],
  library: 'python',
  title: 'string module functions',
  old: "string.join(words, '-')  /  string.upper(s)",
  new: "'-'.join(words)  /  s.upper()",
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'string' has no attribute '(join|split|strip|lstrip|rstrip|lower|upper|replace|find|rfind|atoi|atof|capitalize|swapcase|count|zfill|splitfields|joinfields)'/)],
  link: 'https://docs.python.org/2/library/string.html#deprecated-string-functions',
  message: 'the string module functions were removed in Python 3; use str methods',
  fixtures: [{
    before: "import string\nprint(string.join(['a', 'b'], '-'), string.upper('x'), string.atoi('7') + 1)",
    after: "import string\nprint('-'.join(['a', 'b']), 'x'.upper(), int('7') + 1)",
    expect: 'a-b X 8',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    for (const { call, fn } of ctx.callsNamed(STRING_FUNCS)) {
      const q = ctx.qname(fn);
      if (!q || !q.startsWith('string.') || !STRING_FUNCS.has(q.slice(7))) continue;
      const name = q.slice(7);
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.size || args.positional.length === 0) { yield { node: call }; continue; }
      const [first, ...rest] = args.positional;
      let text: string;
      if (name === 'atoi') text = `int(${args.positional.map((a) => a.text).join(', ')})`;
      else if (name === 'atof') text = `float(${first.text})`;
      else if (name === 'join' || name === 'joinfields') text = `${rest[0] ? paren(rest[0]) : "' '"}.join(${first.text})`;
      else text = `${paren(first)}.${name === 'splitfields' ? 'split' : name}(${rest.map((a) => a.text).join(', ')})`;
      yield { node: call, edits: [replaceNode(call, text)] };
    }
  },
});

const urllib2 = rule({
  id: 'py2-urllib2',
  triggers: ['urllib2'],
  library: 'python',
  title: 'urllib2 module',
  old: 'import urllib2',
  new: 'import urllib.request as urllib2',
  removedIn: '3.0',
  errors: [err('ModuleNotFoundError', /No module named 'urllib2'/)],
  link: 'https://docs.python.org/3/library/urllib.request.html',
  message: 'urllib2 was split into urllib.request and urllib.error in Python 3',
  fixtures: [{
    before: "import urllib2\nprint(urllib2.Request('http://example.com/a').get_full_url())",
    after: "import urllib.request as urllib2\nprint(urllib2.Request('http://example.com/a').get_full_url())",
    expect: 'http://example.com/a',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { urllib2: 'urllib.request' });
  },
});

const URLLIB_FUNCS: Record<string, string> = {
  urlopen: 'request', urlretrieve: 'request', urlcleanup: 'request', urlencode: 'parse', quote: 'parse',
  quote_plus: 'parse', unquote: 'parse', unquote_plus: 'parse', pathname2url: 'request', url2pathname: 'request',
};

const urllibFuncs = rule({
  id: 'py2-urllib-functions',
  triggers: ['urllib'],
  library: 'python',
  title: 'urllib.urlopen / urlencode / quote',
  old: 'urllib.urlencode(d)',
  new: 'urllib.parse.urlencode(d)',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'urllib' has no attribute '(urlopen|urlretrieve|urlencode|quote|quote_plus|unquote|unquote_plus|urlcleanup)'/)],
  link: 'https://docs.python.org/3/library/urllib.html',
  message: 'Python 2 urllib functions moved to urllib.request / urllib.parse',
  fixtures: [{
    before: "import urllib\nprint(urllib.urlencode({'a': 1}), urllib.quote('a b'))",
    after: "import urllib.request, urllib.parse\nprint(urllib.parse.urlencode({'a': 1}), urllib.parse.quote('a b'))",
    expect: 'a=1 a%20b',
    beforeError: 'AttributeError',
  }],
  *find(ctx) {
    const uses = [...ctx.attributesTo(Object.keys(URLLIB_FUNCS).map((f) => `urllib.${f}`))];
    for (const { node, qname } of uses) {
      const attr = node.childForFieldName('attribute')!;
      yield { node, edits: [{ start: attr.startIndex, end: attr.startIndex, text: `${URLLIB_FUNCS[qname.slice(7)]}.` }] };
    }
    // `import urllib` -> `import urllib.request, urllib.parse` so the submodules are loaded.
    const anyUse = ctx.nb.memo('urllib-py2-use', () => ctx.nb.cells.some((c) => Object.keys(URLLIB_FUNCS).some((f) =>
      (cellCache(c).attrsByName().get(f) ?? []).some((a) => a.obj.text === 'urllib'))));
    if (!anyUse) return;
    for (const stmt of ctx.nodes('import_statement')) {
      for (const item of stmt.childrenForFieldName('name')) {
        if (item?.type === 'dotted_name' && item.text === 'urllib') yield { node: item, edits: [replaceNode(item, 'urllib.request, urllib.parse')] };
      }
    }
  },
});

const cPickle = rule({
  id: 'py2-cpickle',
  triggers: ['cPickle'],
  library: 'python',
  title: 'cPickle module',
  old: 'import cPickle',
  new: 'import pickle as cPickle',
  removedIn: '3.0',
  errors: [err('ModuleNotFoundError', /No module named 'cPickle'/)],
  link: 'https://docs.python.org/3/whatsnew/3.0.html#library-changes',
  message: 'cPickle is pickle in Python 3',
  fixtures: [{
    before: 'import cPickle\nprint(cPickle.loads(cPickle.dumps([1, 2])))',
    after: 'import pickle as cPickle\nprint(cPickle.loads(cPickle.dumps([1, 2])))',
    expect: '[1, 2]',
    beforeError: 'ModuleNotFoundError',
  }, {
    before: 'import cPickle as pickle\nfrom cPickle import dumps\nprint(len(pickle.loads(dumps("ab"))))',
    after: 'import pickle as pickle\nfrom pickle import dumps\nprint(len(pickle.loads(dumps("ab"))))',
    expect: '2',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { cPickle: 'pickle' });
  },
});

const stringIO = rule({
  id: 'py2-stringio',
  triggers: ['StringIO', 'cStringIO'],
  library: 'python',
  title: 'StringIO / cStringIO modules',
  old: 'from StringIO import StringIO',
  new: 'from io import StringIO',
  removedIn: '3.0',
  errors: [err('ModuleNotFoundError', /No module named '(c?StringIO)'/)],
  link: 'https://docs.python.org/3/library/io.html#io.StringIO',
  message: 'StringIO/cStringIO are io.StringIO (text) / io.BytesIO (bytes) in Python 3',
  fixtures: [{
    before: "from StringIO import StringIO\nimport cStringIO\nprint(StringIO('abc').read(), cStringIO.StringIO('d').read())",
    after: "from io import StringIO\nimport io as cStringIO\nprint(StringIO('abc').read(), cStringIO.StringIO('d').read())",
    expect: 'abc d',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, { StringIO: 'io', cStringIO: 'io' });
  },
});

const RENAMED_MODULES: Record<string, string> = {
  Queue: 'queue', ConfigParser: 'configparser', httplib: 'http.client', urlparse: 'urllib.parse',
  HTMLParser: 'html.parser', Tkinter: 'tkinter', __builtin__: 'builtins', cookielib: 'http.cookiejar',
  htmlentitydefs: 'html.entities', SocketServer: 'socketserver', copy_reg: 'copyreg', tkMessageBox: 'tkinter.messagebox',
  SimpleHTTPServer: 'http.server', BaseHTTPServer: 'http.server', xmlrpclib: 'xmlrpc.client', dummy_threading: 'threading',
  robotparser: 'urllib.robotparser', anydbm: 'dbm', Cookie: 'http.cookies',
  // The rest of 2to3's fix_imports / fix_imports2 tables whose target exists in Python 3.13.
  repr: 'reprlib', thread: '_thread', markupbase: '_markupbase', commands: 'subprocess', UserList: 'collections',
  UserString: 'collections', whichdb: 'dbm', dumbdbm: 'dbm.dumb', gdbm: 'dbm.gnu', SimpleXMLRPCServer: 'xmlrpc.server',
  DocXMLRPCServer: 'xmlrpc.server', CGIHTTPServer: 'http.server', tkFileDialog: 'tkinter.filedialog',
  FileDialog: 'tkinter.filedialog', tkSimpleDialog: 'tkinter.simpledialog', SimpleDialog: 'tkinter.simpledialog',
  tkColorChooser: 'tkinter.colorchooser', tkCommonDialog: 'tkinter.commondialog', Dialog: 'tkinter.dialog',
  Tkdnd: 'tkinter.dnd', tkFont: 'tkinter.font', ScrolledText: 'tkinter.scrolledtext', Tkconstants: 'tkinter.constants',
  ttk: 'tkinter.ttk',
};

/** Python 2 module names the py2 rules move (env-missing-module leaves them to these rules). */
export const PY2_MODULE_NAMES: readonly string[] = ['cPickle', 'StringIO', 'cStringIO', 'urllib2', ...Object.keys(RENAMED_MODULES)];

const renamedModules = rule({
  id: 'py2-renamed-modules',
  triggers: Object.keys(RENAMED_MODULES),
  library: 'python',
  title: 'renamed standard modules (Queue, ConfigParser, urlparse, httplib...)',
  old: 'import Queue',
  new: 'import queue as Queue',
  removedIn: '3.0',
  errors: [err('ModuleNotFoundError', new RegExp(`No module named '(${Object.keys(RENAMED_MODULES).join('|')})'`))],
  link: 'https://peps.python.org/pep-3108/',
  message: 'this standard module was renamed in Python 3',
  fixtures: [{
    before: "import Queue\nfrom urlparse import urlparse\nq = Queue.Queue()\nq.put(urlparse('http://h/p').path)\nprint(q.get())",
    after: "import queue as Queue\nfrom urllib.parse import urlparse\nq = Queue.Queue()\nq.put(urlparse('http://h/p').path)\nprint(q.get())",
    expect: '/p',
    beforeError: 'ModuleNotFoundError',
  }, {
    before: "import commands\nfrom UserList import UserList\nimport whichdb\nprint(commands.getoutput('echo hi'), UserList([1]) + [2], whichdb.whichdb('/nonexistent'))",
    after: "import subprocess as commands\nfrom collections import UserList\nimport dbm as whichdb\nprint(commands.getoutput('echo hi'), UserList([1]) + [2], whichdb.whichdb('/nonexistent'))",
    expect: 'hi [1, 2] None',
    beforeError: 'ModuleNotFoundError',
  }],
  *find(ctx) {
    yield* moveModules(ctx, RENAMED_MODULES);
  },
});

const ITERTOOLS: Record<string, string> = { izip: 'zip', imap: 'map', ifilter: 'filter', ifilterfalse: 'filterfalse', izip_longest: 'zip_longest' };

const itertoolsRenames = rule({
  id: 'py2-itertools',
  triggers: ['itertools', ...Object.keys(ITERTOOLS)],
  library: 'python',
  title: 'itertools.izip / imap / ifilter / izip_longest',
  old: 'from itertools import izip',
  new: 'zip (builtin)',
  removedIn: '3.0',
  errors: [err('ImportError', /cannot import name '(izip|imap|ifilter|ifilterfalse|izip_longest)'/), err('AttributeError', /module 'itertools' has no attribute '(izip|imap|ifilter|ifilterfalse|izip_longest)'/)],
  link: PY3 + '#views-and-iterators-instead-of-lists',
  message: 'itertools.izip/imap/ifilter are the builtins zip/map/filter in Python 3 (izip_longest is zip_longest)',
  fixtures: [{
    before: 'import itertools\nfrom itertools import izip, izip_longest\nprint(list(izip([1], [2])), list(itertools.imap(abs, [-1])), list(izip_longest([1], [])))',
    after: 'import itertools\nfrom itertools import zip_longest\nprint(list(zip([1], [2])), list(map(abs, [-1])), list(zip_longest([1], [])))',
    expect: '[(1, 2)] [1] [(1, None)]',
    beforeError: 'ImportError',
  }],
  *find(ctx) {
    for (const { node, qname } of ctx.attributesTo(Object.keys(ITERTOOLS).map((k) => `itertools.${k}`))) {
      const name = ITERTOOLS[qname.slice(10)];
      yield { node, edits: [replaceNode(node, name === 'filterfalse' || name === 'zip_longest' ? `${node.childForFieldName('object')!.text}.${name}` : name)] };
    }
    for (const stmt of ctx.nodes('import_from_statement')) {
      if (stmt.childForFieldName('module_name')?.text !== 'itertools') continue;
      const items = stmt.childrenForFieldName('name').filter((x): x is SyntaxNode => !!x);
      const plain = (it: SyntaxNode) => (it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text);
      const old = items.filter((it) => plain(it) in ITERTOOLS);
      if (!old.length) continue;
      const keep = items.filter((it) => !(plain(it) in ITERTOOLS) || ['ifilterfalse', 'izip_longest'].includes(plain(it)))
        .map((it) => (plain(it) in ITERTOOLS ? it.text.replace(plain(it), ITERTOOLS[plain(it)]) : it.text));
      if (keep.length) yield { node: stmt, edits: [{ start: items[0].startIndex, end: items[items.length - 1].endIndex, text: keep.join(', ') }] };
      else yield { node: stmt, edits: [deleteStatement(ctx, stmt)] };
    }
    // Bare uses of names imported from itertools.
    const local = [...ctx.nb.bindings].filter(([, list]) => list.some((b) => b.qname.startsWith('itertools.') && b.qname.slice(10) in ITERTOOLS)).map(([n]) => n);
    for (const id of local.flatMap((n) => ctx.identifiers(n))) {
      if (!ctx.isFreeName(id) || id.parent?.type === 'attribute' && sameNode(id.parent.childForFieldName('attribute'), id)) continue;
      const q = ctx.qname(id);
      if (!q || !q.startsWith('itertools.')) continue;
      const name = q.slice(10);
      if (!(name in ITERTOOLS) || id.text !== name) continue;
      if (id.parent?.type === 'dotted_name' || id.parent?.type === 'aliased_import') continue;
      yield { node: id, edits: [replaceNode(id, ITERTOOLS[name])] };
    }
  },
});

const sysMaxint = rule({
  id: 'py2-sys-maxint',
  triggers: ['maxint'],
  library: 'python',
  title: 'sys.maxint',
  old: 'sys.maxint',
  new: 'sys.maxsize',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'sys' has no attribute 'maxint'/), err('ImportError', /cannot import name 'maxint' from 'sys'/)],
  link: PY3 + '#integers',
  message: 'sys.maxint was removed in Python 3 (ints are unbounded); sys.maxsize is the closest',
  fixtures: [
    { before: 'import sys\nprint(sys.maxint > 2 ** 31)', after: 'import sys\nprint(sys.maxsize > 2 ** 31)', expect: 'True', beforeError: 'AttributeError' },
    { before: 'from sys import maxint\nprint(maxint > 2 ** 31)', after: 'from sys import maxsize as maxint\nprint(maxint > 2 ** 31)', expect: 'True', beforeError: 'ImportError' },
  ],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['sys.maxint'])) yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'maxsize')] };
    yield* moveImportedNames(ctx, 'sys', { maxint: { module: 'sys', name: 'maxsize' } });
  },
});

const getcwdu = rule({
  id: 'py2-os-getcwdu',
  triggers: ['getcwdu'],
  library: 'python',
  title: 'os.getcwdu()',
  old: 'os.getcwdu()',
  new: 'os.getcwd()',
  removedIn: '3.0',
  errors: [err('AttributeError', /module 'os' has no attribute 'getcwdu'/)],
  link: PY3 + '#text-vs-data-instead-of-unicode-vs-8-bit',
  message: 'os.getcwdu was removed in Python 3; os.getcwd returns str',
  fixtures: [{ before: 'import os\nprint(type(os.getcwdu()).__name__)', after: 'import os\nprint(type(os.getcwd()).__name__)', expect: 'str', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { node } of ctx.attributesTo(['os.getcwdu'])) yield { node, edits: [replaceNode(node.childForFieldName('attribute')!, 'getcwd')] };
  },
});

const strDecode = rule({
  id: 'py2-str-decode',
  triggers: ['decode'],
  library: 'python',
  title: "str.decode('utf-8')",
  old: "s.decode('utf-8')",
  new: 's',
  removedIn: '3.0',
  trigger: 'error',
  errors: [err('AttributeError', /'str' object has no attribute 'decode'/)],
  link: PY3 + '#text-vs-data-instead-of-unicode-vs-8-bit',
  message: "str has no decode() in Python 3 (it is already text); drop the .decode(...) call",
  fixtures: [{ before: "s = 'abc'\nprint(s.decode('utf-8').upper())", after: "s = 'abc'\nprint(s.upper())", expect: 'ABC', beforeError: 'AttributeError' }],
  *find(ctx) {
    for (const { call, recv } of ctx.methodCalls(['decode'])) {
      const args = callArgs(call);
      const enc = args?.positional[0];
      if (!args || args.all.length > 2 || (enc && enc.type !== 'string')) continue;
      yield { node: call, edits: [replaceNode(call, recv.text)] };
    }
  },
});

/**
 * Python 2's order across types: None first, then numbers, then other objects grouped by type name
 * (CPython 2's default comparison), so `sorted(['S', nan, 'C'])` was `[nan, 'C', 'S']`.
 */
const PY2_ORDER_KEY = "lambda v: (0, 0) if v is None else (1, v) if isinstance(v, (int, float)) or type(v).__module__ == 'numpy' else (2, type(v).__name__, v)";

const mixedTypeOrder = rule({
  id: 'py2-mixed-type-order',
  triggers: ['sorted', 'sort'],
  library: 'python',
  title: 'sorting values of mixed types (Python 2 ordered them)',
  old: "sorted(df['Embarked'].unique())  # ['S', nan, 'C']",
  new: 'sorted(df[\'Embarked\'].unique(), key=<Python 2 order>)',
  removedIn: '3.0',
  trigger: 'error',
  errors: [err('TypeError', /'[<>]=?' not supported between instances of '\w+' and '\w+'/)],
  link: PY3 + '#ordering-comparisons',
  message: "Python 3 refuses to order values of different types (a column's NaN among its strings); Python 2 put None first, numbers next, then other types by type name: sorted(..., key=...) with that order gives the notebook's original result",
  fixtures: [{
    before: "vals = ['S', float('nan'), 'C', None]\nprint(sorted(vals))",
    after: `vals = ['S', float('nan'), 'C', None]\nprint(sorted(vals, key=${PY2_ORDER_KEY}))`,
    expect: "[None, nan, 'C', 'S']",
    beforeError: 'TypeError',
    context: { pythonMajor: 2, runtime: { ename: 'TypeError', evalue: "'<' not supported between instances of 'float' and 'str'" } },
  }, {
    // numpy's sort of an object array (a column's unique() with NaN) and list.sort() compare the same way.
    before: "import numpy as np\nlocs = np.sort(np.array(['S', float('nan'), 'C'], dtype=object))\nnames = ['b', 1, 'a']\nnames.sort()\nprint(list(locs), names)",
    after: `import numpy as np\nlocs = np.array(sorted(np.array(['S', float('nan'), 'C'], dtype=object), key=${PY2_ORDER_KEY}), dtype=object)\nnames = ['b', 1, 'a']\nnames.sort(key=${PY2_ORDER_KEY})\nprint(list(locs), names)`,
    expect: "[nan, 'C', 'S'] [1, 'a', 'b']",
    beforeError: 'TypeError',
    context: { pythonMajor: 2, runtime: { ename: 'TypeError', evalue: "'<' not supported between instances of 'float' and 'str'" } },
  }],
  *find(ctx) {
    // Only a Python 2 notebook ever sorted such values successfully.
    if (ctx.nb.pythonMajor !== 2 || ctx.nb.isBound('sorted')) return;
    const rt = ctx.nb.info.runtime;
    const lines = (rt?.frames ?? []).filter((f) => f.cell === ctx.index).map((f) => f.line);
    const onLine = onFrameLines(rt?.frames ?? [], ctx.index, ctx.root);
    for (const { call } of ctx.callsNamed(['sorted'])) {
      const fn = call.childForFieldName('function');
      if (fn?.type !== 'identifier') continue;
      const args = callArgs(call);
      if (!args || args.splat || args.keywords.has('key') || args.positional.length !== 1) continue;
      if (!onLine(call)) continue;
      yield { node: call, edits: [addArgument(args, `key=${PY2_ORDER_KEY}`)] };
    }
    // Only where the error is (its line when the traceback gives one): these names are too common.
    if (!rt || (!lines.length && rt.frames.length)) return;
    for (const { call, fn } of ctx.callsTo(['numpy.sort'])) {
      const args = callArgs(call);
      const mod = fn.type === 'attribute' ? fn.childForFieldName('object')?.text : undefined;
      if (!mod || !args || args.splat || args.all.length !== 1 || !onLine(call)) continue;
      yield { node: call, edits: [replaceNode(call, `${mod}.array(sorted(${args.positional[0]!.text}, key=${PY2_ORDER_KEY}), dtype=object)`)] };
    }
    for (const { call } of ctx.methodCalls(['sort'])) {
      const args = callArgs(call);
      if (!args || args.all.length !== 0 || !onLine(call) || call.parent?.type !== 'expression_statement') continue;
      yield { node: call, edits: [addArgument(args, `key=${PY2_ORDER_KEY}`)] };
    }
  },
});

/** Provably-int expressions (Python 2 semantics: `/` on two ints floors). */
function provablyInt(ctx: CellContext, n: SyntaxNode, intNames: Set<string>, depth = 0): boolean {
  if (depth > 6) return false;
  switch (n.type) {
    case 'integer':
      return true;
    case 'parenthesized_expression': {
      const inner = n.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
      return inner.length === 1 && provablyInt(ctx, inner[0], intNames, depth + 1);
    }
    case 'unary_operator':
      return provablyInt(ctx, n.childForFieldName('argument')!, intNames, depth + 1);
    case 'binary_operator': {
      const op = n.child(1)?.type;
      if (!op || !['+', '-', '*', '//', '%'].includes(op)) return false;
      return provablyInt(ctx, n.childForFieldName('left')!, intNames, depth + 1) && provablyInt(ctx, n.childForFieldName('right')!, intNames, depth + 1);
    }
    case 'call': {
      const fn = n.childForFieldName('function');
      return fn?.type === 'identifier' && ['len', 'int'].includes(fn.text) && !ctx.nb.isBound(fn.text);
    }
    case 'identifier':
      return intNames.has(n.text);
    case 'subscript': {
      // x.shape[0]
      const v = n.childForFieldName('value');
      return v?.type === 'attribute' && v.childForFieldName('attribute')?.text === 'shape';
    }
    default:
      return false;
  }
}

function intNamesOf(ctx: CellContext): Set<string> {
  return ctx.nb.memo('int-names', () => computeIntNames(ctx));
}

function computeIntNames(ctx: CellContext): Set<string> {
  const assigned = new Map<string, SyntaxNode[]>();
  for (const cell of ctx.nb.cells) {
    for (const a of cell.idx.byType.get('assignment') ?? []) {
      const l = a.childForFieldName('left');
      const r = a.childForFieldName('right');
      if (l?.type === 'identifier' && r) assigned.set(l.text, [...(assigned.get(l.text) ?? []), r]);
    }
    for (const a of cell.idx.byType.get('augmented_assignment') ?? []) {
      const l = a.childForFieldName('left');
      if (l?.type === 'identifier') assigned.set(l.text, [...(assigned.get(l.text) ?? []), a]);
    }
  }
  const ints = new Set<string>();
  for (let round = 0; round < 3; round++) {
    for (const [name, rights] of assigned) {
      if (ints.has(name)) continue;
      if (rights.every((r) => r.type !== 'augmented_assignment' && provablyInt(ctx, r, ints))) ints.add(name);
    }
  }
  // Names also bound by loops are not provable.
  const loopVars = new Set(ctx.nb.cells.flatMap((c) => (c.idx.byType.get('for_statement') ?? []).map((f) => f.childForFieldName('left')?.text)));
  for (const name of [...ints]) if (loopVars.has(name)) ints.delete(name);
  return ints;
}

const intDivision = rule({
  id: 'py2-integer-division',
  gate: { nodeTypes: ['binary_operator'] },
  library: 'python',
  title: 'integer division',
  old: '7 / 2  (== 3 in Python 2)',
  new: '7 // 2',
  removedIn: '3.0',
  errors: [err('TypeError', /'float' object cannot be interpreted as an integer|slice indices must be integers/)],
  link: 'https://peps.python.org/pep-0238/',
  message: '`/` on integers floors in Python 2 but gives a float in Python 3',
  fixtures: [
    { before: 'n = len([1, 2, 3])\nprint(7 / 2, n / 2)', after: 'n = len([1, 2, 3])\nprint(7 // 2, n // 2)', expect: '3 1', beforeOutcome: 'differs', context: { pythonMajor: 2 } },
    { before: 'x = sum([1, 2, 3])\nprint(x / 4)', manual: 'x = sum([1, 2, 3])\nprint(x // 4)', expect: '1', beforeOutcome: 'differs', context: { pythonMajor: 2 } },
  ],
  *find(ctx) {
    if (ctx.nb.pythonMajor !== 2 || ctx.nb.futureDivision) return;
    const ints = intNamesOf(ctx);
    for (const op of ctx.nodes('binary_operator')) {
      const tok = op.child(1);
      if (tok?.type !== '/') continue;
      const l = op.childForFieldName('left')!;
      const r = op.childForFieldName('right')!;
      const li = provablyInt(ctx, l, ints);
      const ri = provablyInt(ctx, r, ints);
      if (li && ri) {
        yield { node: op, edits: [replaceNode(tok, '//')], message: 'both operands are integers: Python 2 floored this division; `//` keeps the original result' };
      } else if ((li || ri) && [l, r].every((s) => s.type !== 'float' && !(s.type === 'call' && s.childForFieldName('function')?.text === 'float'))) {
        yield { node: op, message: 'Python 2 floored `/` when both operands were integers; one operand is an integer here and the other may be: use `//` if it is an int (Python 2 result) or keep `/` for true division' };
      }
    }
  },
});

const CSV_FUNCS = ['csv.writer', 'csv.reader', 'csv.DictWriter', 'csv.DictReader'];

const csvBinaryFiles = rule({
  id: 'py2-csv-binary-files',
  triggers: ['open'],
  library: 'python',
  title: "csv on files opened 'wb'/'rb'",
  old: "csv.writer(open('out.csv', 'wb'))",
  new: "csv.writer(open('out.csv', 'w', newline=''))",
  removedIn: '3.0',
  errors: [err('TypeError', /a bytes-like object is required, not 'str'/), err('_csv.Error', /iterator should return strings, not bytes/), err('Error', /iterator should return strings, not bytes/)],
  link: 'https://docs.python.org/3/library/csv.html#csv.writer',
  message: "the csv module works on text files in Python 3: open with 'w'/'r' and newline='' instead of 'wb'/'rb'",
  fixtures: [{
    before: "import csv\nf = open('out.csv', 'wb')\nw = csv.writer(f)\nw.writerow(['a', 1])\nf.close()\nwith open('out.csv', 'rb') as g:\n    print(list(csv.reader(g)))",
    after: "import csv\nf = open('out.csv', 'w', newline='')\nw = csv.writer(f)\nw.writerow(['a', 1])\nf.close()\nwith open('out.csv', 'r', newline='') as g:\n    print(list(csv.reader(g)))",
    expect: "[['a', '1']]",
    beforeError: 'TypeError',
  }],
  *find(ctx) {
    if (ctx.nb.isBound('open')) return;
    // Names (or inline calls) that reach a csv reader/writer.
    const csvArgs = ctx.nb.memo('csv-file-args', () => {
      const names = new Set<string>();
      const inline: string[] = [];
      for (const cell of ctx.nb.cells) {
        for (const n of ['writer', 'reader', 'DictWriter', 'DictReader']) {
          for (const { call, fn } of cellCache(cell).callsNamed(n)) {
            if (!CSV_FUNCS.includes(ctx.nb.qname(fn, cell.index) ?? '')) continue;
            const a = callArgs(call)?.positional[0];
            if (a?.type === 'identifier') names.add(a.text);
            else if (a?.type === 'call') inline.push(`${cell.index}:${a.startIndex}`);
          }
        }
      }
      return { names, inline: new Set(inline) };
    });
    for (const { call, fn } of ctx.callsNamed(['open'])) {
      if (fn.type !== 'identifier') continue;
      const args = callArgs(call);
      const modeNode = args?.positional[1] ?? kwValue(args?.keywords.get('mode'));
      const mode = stringValue(modeNode);
      if (!args || !modeNode || !mode || !/b/.test(mode) || !/[rwa]/.test(mode)) continue;
      let target: string | undefined;
      const p = call.parent;
      if (p?.type === 'assignment' && sameNode(p.childForFieldName('right'), call)) target = p.childForFieldName('left')?.text;
      if (p?.type === 'as_pattern') target = p.childForFieldName('alias')?.text ?? p.namedChildren.find((c) => c?.type === 'as_pattern_target')?.text;
      const reaches = csvArgs.inline.has(`${ctx.index}:${call.startIndex}`) || (target !== undefined && csvArgs.names.has(target));
      if (!reaches) continue;
      const q = quoteOf(modeNode).replace(/^[a-zA-Z]*/, '');
      const edits = [replaceNode(modeNode, `${q}${mode.replace('b', '')}${q}`)];
      if (!args.keywords.has('newline')) edits.push(addArgument(args, "newline=''"));
      yield { node: call, edits };
    }
  },
});

/**
 * `len(df[mask] > 0)`: a misplaced parenthesis that Python 2 forgave. The comparison is elementwise,
 * so its length is the operand's; Python 2 ordered a string column against a number without
 * complaint (any str > any int), Python 3 refuses. The length the notebook used is `len(df[mask])`:
 * the comparison, which only ever produced values nobody read, is dropped. Python 2 notebooks, on the
 * failing line of the runtime error.
 */
const lengthOfComparison = rule({
  id: 'py2-length-of-comparison',
  triggers: ['len'],
  library: 'python',
  title: 'len() of an elementwise comparison that Python 3 cannot order',
  old: "len(df[df['Embarked'].isnull()] > 0)",
  new: "len(df[df['Embarked'].isnull()])",
  removedIn: '3.0',
  trigger: 'error',
  errors: [err('TypeError', /'[<>]=?' not supported between instances of '\w+' and '\w+'/)],
  link: PY3 + '#ordering-comparisons',
  message: "Python 3 refuses to order a string against a number; Python 2 compared them, and len() of the elementwise comparison is the length of the compared object: len() of that object",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'Embarked': ['S', None, 'C'], 'Fare': [7.25, 8.0, 71.3]})\nif len(df[df['Fare'] > 10] > 0):\n    print('expensive', len(df[df['Fare'] > 10]))",
    after: "import pandas as pd\ndf = pd.DataFrame({'Embarked': ['S', None, 'C'], 'Fare': [7.25, 8.0, 71.3]})\nif len(df[df['Fare'] > 10]):\n    print('expensive', len(df[df['Fare'] > 10]))",
    expect: 'expensive 1',
    beforeError: 'TypeError',
    context: { pythonMajor: 2, runtime: { ename: 'TypeError', evalue: "'>' not supported between instances of 'str' and 'int'" } },
  }],
  *find(ctx) {
    if (ctx.nb.pythonMajor !== 2 || ctx.nb.isBound('len')) return;
    const rt = ctx.nb.info.runtime;
    const onLine = onFrameLines(rt?.frames ?? [], ctx.index, ctx.root);
    for (const call of ctx.nodes('call')) {
      if (call.childForFieldName('function')?.text !== 'len' || !onLine(call)) continue;
      const args = call.childForFieldName('arguments')?.namedChildren.filter((a): a is SyntaxNode => !!a && a.type !== 'comment') ?? [];
      const cmp = args.length === 1 ? args[0] : undefined;
      if (cmp?.type !== 'comparison_operator' || cmp.namedChildren.length !== 2) continue;
      const ops = cmp.children.filter((c) => c && ['<', '>', '<=', '>='].includes(c.type));
      if (ops.length !== 1) continue;
      const [left, right] = cmp.namedChildren as [SyntaxNode, SyntaxNode];
      const isNumber = (n: SyntaxNode) => n.type === 'integer' || n.type === 'float' || (n.type === 'unary_operator' && /^-\s*\d/.test(n.text));
      const operand = isNumber(right) && !isNumber(left) ? left : isNumber(left) && !isNumber(right) ? right : undefined;
      if (operand) yield { node: cmp, edits: [replaceNode(cmp, operand.text)] };
    }
  },
});

export const py2Rules: Rule[] = [
  printStatement, execStatement, exceptComma, raiseComma, backticks, neOperator, octal, longSuffix, urPrefix,
  tupleParams, xrange, rawInput, unicodeB, longB, basestringB, unichrB, fileBuiltin, cmpBuiltin, reduceB,
  setdefaultencoding, reloadB, dictIter, hasKey, keysIndex, listBuiltins, rangeList, nextMethod, stringConstants,
  stringFunctions, urllib2, urllibFuncs, cPickle, stringIO, renamedModules, itertoolsRenames, sysMaxint, getcwdu,
  strDecode, intDivision, csvBinaryFiles, mixedTypeOrder, lengthOfComparison,
];

