/**
 * Small structural helpers over tree-sitter-python nodes, shared by the rules: argument lists,
 * edits that keep the user's formatting (rename a keyword, drop an argument, add a keyword), and
 * a per-tree index by node type so each rule does not walk the tree again.
 */
import type { SyntaxNode, SyntaxTree } from '../python/parser.js';
import { forgetNodeReads, forgetSharedNodes, shareNodes } from '../python/node-memo.js';
import type { TextEdit } from '../python/edits.js';

export interface TreeIndex {
  byType: NodesByType;
  /** [start, end) of ERROR nodes. */
  errors: Array<[number, number]>;
}

/**
 * Node types the rules and the context look up in (nearly) every cell; indexed in one native
 * traversal. Types only rare cells need (`string`, `string_start`, `expression_statement`: the
 * backtick, ur'' and bare-print rules run behind gates; `keyword_argument` and `pair`, read by a
 * few library rules in about one cell in thirty) are collected on first use instead: they were a
 * quarter of the nodes built per cell, and every node built is kept for the whole notebook. So is
 * `integer` (a seventh of the indexed nodes): only the py2 octal and long-suffix rules read them,
 * behind source gates that about one cell in forty passes.
 */
export const INDEXED_TYPES = [
  '<>', 'assignment', 'as_pattern_target', 'attribute', 'augmented_assignment', 'binary_operator', 'call',
  'class_definition', 'except_clause', 'exec_statement', 'for_in_clause', 'for_statement',
  'function_definition', 'future_import_statement', 'global_statement', 'import_from_statement',
  'import_statement', 'lambda_parameters', 'named_expression', 'nonlocal_statement',
  'parameters', 'print_statement', 'raise_statement', 'subscript', 'tuple_pattern',
];

/** Indexed type -> its slot in NodesByType.indexed. */
const SLOT = new Map(INDEXED_TYPES.map((t, i) => [t, i]));

/**
 * INDEXED_TYPES as the argument of descendantsOfType, which maps the names to symbol ids on every
 * call by asking `types.includes(name)` for each of the grammar's ~270 symbols: with the array's
 * own `includes` answered by SLOT, that costs one lookup each instead of a scan of the list (it
 * was half of the time of indexing a small cell).
 */
const INDEXED_TYPES_ARG: string[] = Object.assign([...INDEXED_TYPES], { includes: (t: string) => SLOT.has(t) });

/** The list of a type the cell has no node of (shared, so frozen: a caller must never add to it). */
const NONE: SyntaxNode[] = Object.freeze([]) as unknown as SyntaxNode[];

/**
 * A cell's nodes by type, in document order. Types not in INDEXED_TYPES are collected on first use
 * (a plain class, not a Proxy over a Map: every lookup went through a trap that bound a new closure).
 * Every cell's index lives as long as its notebook is scanned, so it is kept small: indexed types
 * sit in a fixed array of exact-size lists (most cells have nodes of a few types only; the others
 * share one empty list), and the map of other types is made when one is first asked for.
 */
export class NodesByType {
  private others: Map<string, SyntaxNode[]> | undefined;

  constructor(
    private readonly root: SyntaxNode,
    private readonly indexed: readonly SyntaxNode[][],
    /** ERROR nodes and MISSING nodes (found by indexTree's walk, not by type). */
    private readonly errorNodes: SyntaxNode[],
    private readonly missing: SyntaxNode[],
  ) {}

  get(type: string): SyntaxNode[] {
    const slot = SLOT.get(type);
    if (slot !== undefined) return this.indexed[slot];
    if (type === 'ERROR') return this.errorNodes;
    if (type === 'MISSING') return this.missing;
    const others = (this.others ??= new Map());
    let l = others.get(type);
    if (!l) {
      l = this.root.descendantsOfType(type).filter((n): n is SyntaxNode => !!n);
      others.set(type, l);
      shareNodes(this.root.tree, l);
    }
    return l;
  }

  /** Forget what the listed nodes of a deleted tree remember, and the lists built on demand (forgetNodeReads says why). */
  release(): void {
    for (let t = 0; t < this.indexed.length; t++) forgetAll(this.indexed[t]);
    forgetAll(this.errorNodes);
    forgetAll(this.missing);
    if (this.others) this.others.forEach(forgetAll);
    this.others = undefined;
    forgetSharedNodes(this.root.tree);
  }
}

/** Indexed loops: this runs over every listed node of every cell, and for-of allocated an iterator result per node. */
function forgetAll(nodes: readonly SyntaxNode[]): void {
  for (let i = 0; i < nodes.length; i++) forgetNodeReads(nodes[i]);
}

/**
 * Nodes grouped by type in document order, from one native `descendantsOfType` call (walking the
 * tree from JavaScript marshals every node through WASM and is several times slower).
 */
export function indexTree(tree: SyntaxTree): TreeIndex {
  const root = tree.rootNode;
  const found = root.descendantsOfType(INDEXED_TYPES_ARG);
  // Count first, then fill lists of exact size (growing arrays by push leaves spare capacity).
  const slots = new Int32Array(found.length);
  const counts = new Int32Array(INDEXED_TYPES.length);
  for (let i = 0; i < found.length; i++) {
    const node = found[i];
    const slot = node ? SLOT.get(node.type) : undefined;
    slots[i] = slot ?? -1;
    if (slot !== undefined) counts[slot]++;
  }
  const indexed: SyntaxNode[][] = [];
  for (let t = 0; t < INDEXED_TYPES.length; t++) indexed.push(counts[t] ? new Array<SyntaxNode>(counts[t]) : NONE);
  counts.fill(0);
  for (let i = 0; i < found.length; i++) {
    const slot = slots[i];
    if (slot >= 0) indexed[slot][counts[slot]++] = found[i]!;
  }
  // ERROR nodes (its symbol id cannot go through descendantsOfType): walk only into subtrees that have errors.
  const errorNodes: SyntaxNode[] = [];
  const missing: SyntaxNode[] = [];
  const visit = (n: SyntaxNode) => {
    if (n.isError) errorNodes.push(n);
    else if (n.isMissing) missing.push(n);
    if (!n.hasError && !n.isMissing) return;
    for (const c of n.children) if (c && (c.hasError || c.isError || c.isMissing)) visit(c);
  };
  if (root.hasError) visit(root);
  for (const l of indexed) shareNodes(tree, l);
  shareNodes(tree, errorNodes);
  shareNodes(tree, missing);
  const byType = new NodesByType(root, indexed, errorNodes.length ? errorNodes : NONE, missing.length ? missing : NONE);
  const errors: Array<[number, number]> = errorNodes.map((e) => [e.startIndex, e.endIndex]);
  return { byType, errors };
}

export interface Args {
  /** Positional arguments in order (list_splat `*a` included as-is). */
  positional: SyntaxNode[];
  /** keyword name -> keyword_argument node. */
  keywords: Map<string, SyntaxNode>;
  /** All argument nodes in order (no comments). */
  all: SyntaxNode[];
  /** The argument_list node. */
  list: SyntaxNode;
  /** True when `*args` or `**kwargs` appear. */
  splat: boolean;
  /** True when `*args` appears (positions of later arguments are then unknown). */
  listSplat: boolean;
}

const argsCache = new WeakMap<object, Map<number, Args | undefined>>();

/** Forget the argument lists read from a deleted tree (engine.ts disposeCell). */
export function releaseArgs(tree: SyntaxTree): void {
  argsCache.delete(tree);
}

export function callArgs(call: SyntaxNode): Args | undefined {
  const tree = (call as unknown as { tree: object }).tree;
  let m = argsCache.get(tree);
  if (!m) argsCache.set(tree, (m = new Map()));
  const key = call.startIndex * 65536 + (call.endIndex - call.startIndex);
  if (m.has(key) && call.type === 'call') return m.get(key);
  const a = computeArgs(call);
  if (call.type === 'call') m.set(key, a);
  return a;
}

function computeArgs(call: SyntaxNode): Args | undefined {
  const list = call.childForFieldName('arguments');
  if (!list || list.type !== 'argument_list') return undefined;
  const positional: SyntaxNode[] = [];
  const keywords = new Map<string, SyntaxNode>();
  const all: SyntaxNode[] = [];
  let splat = false;
  let listSplat = false;
  for (const child of list.namedChildren) {
    if (!child || child.type === 'comment' || child.type === 'line_continuation') continue;
    all.push(child);
    if (child.type === 'keyword_argument') {
      const name = child.childForFieldName('name');
      if (name) keywords.set(name.text, child);
    } else if (child.type === 'dictionary_splat') {
      splat = true;
    } else {
      if (child.type === 'list_splat') splat = listSplat = true;
      positional.push(child);
    }
  }
  return { positional, keywords, all, list, splat, listSplat };
}

export function kwValue(kw: SyntaxNode | undefined): SyntaxNode | undefined {
  return kw?.childForFieldName('value') ?? undefined;
}

export function kwName(kw: SyntaxNode): SyntaxNode {
  return kw.childForFieldName('name')!;
}

/** The string literal's value when it is a plain (non f-, non concatenated) string; else undefined. */
export function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || node.type !== 'string') return undefined;
  const start = node.firstChild;
  if (!start || start.type !== 'string_start') return undefined;
  const prefix = start.text.replace(/['"]+$/, '').toLowerCase();
  if (prefix.includes('f') || prefix.includes('b')) return undefined;
  let out = '';
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'string_content') out += c.text;
    else if (c.type === 'escape_sequence') out += prefix.includes('r') ? c.text : unescape(c.text);
    else if (c.type === 'interpolation') return undefined;
  }
  return out;
}

function unescape(seq: string): string {
  const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };
  const c = seq[1];
  if (c in map) return map[c];
  if (c === '\n') return '';
  if (c === 'x') return String.fromCharCode(parseInt(seq.slice(2), 16));
  if (c === 'u' || c === 'U') return String.fromCodePoint(parseInt(seq.slice(2), 16));
  return seq;
}

/** The quote style of a string node (prefix + quote), to write a sibling string the same way. */
export function quoteOf(node: SyntaxNode): string {
  const start = node.firstChild?.text ?? "'";
  const q = start.replace(/^[a-zA-Z]*/, '');
  return q || "'";
}

export function replaceNode(node: SyntaxNode, text: string): TextEdit {
  return { start: node.startIndex, end: node.endIndex, text };
}

export function insertAt(offset: number, text: string): TextEdit {
  return { start: offset, end: offset, text };
}

/** Rename a keyword argument's name (`normed=` -> `density=`), keeping spacing and value. */
export function renameKeyword(kw: SyntaxNode, newName: string): TextEdit {
  return replaceNode(kwName(kw), newName);
}

/**
 * Remove one argument and one adjacent comma, keeping the rest of the formatting: for a later
 * argument the preceding comma and whitespace go; for the first one, the following comma and
 * whitespace go.
 */
export function removeArgument(args: Args, arg: SyntaxNode, source: string): TextEdit {
  return removeListItem(args.all, arg, source, args.list.endIndex - 1);
}

/**
 * Remove one item of a comma-separated list (arguments, dict entries) whose closing bracket is at
 * `close`: with the separator before it, or, for the first, the one after it; an only item takes
 * a trailing comma along and keeps the brackets.
 */
export function removeListItem(items: readonly SyntaxNode[], item: SyntaxNode, source: string, close: number): TextEdit {
  const i = items.findIndex((a) => a.startIndex === item.startIndex);
  if (i > 0) {
    const prev = items[i - 1]!;
    // From the end of the previous item (its comma and spacing) to the end of this one.
    return { start: prev.endIndex, end: item.endIndex, text: '' };
  }
  const next = items[i + 1];
  if (next) return { start: item.startIndex, end: next.startIndex, text: '' };
  let end = item.endIndex;
  const m = /^\s*,\s*/.exec(source.slice(end, close));
  if (m) end += m[0].length;
  return { start: item.startIndex, end, text: '' };
}

/** Append `text` (e.g. "n_estimators=10") as the last argument of a call. */
export function addArgument(args: Args, text: string): TextEdit {
  const last = args.all[args.all.length - 1];
  if (last) return insertAt(last.endIndex, `, ${text}`);
  return insertAt(args.list.startIndex + 1, text);
}

/** Text of [start,end) of the node's tree source. */
export function between(source: string, a: number, b: number): string {
  return source.slice(a, b);
}

/** The dotted name text of an identifier/attribute chain (`np.random.rand`), else undefined. */
export function dottedText(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text;
  if (node.type === 'attribute') {
    const obj = dottedText(node.childForFieldName('object'));
    const attr = node.childForFieldName('attribute');
    return obj && attr ? `${obj}.${attr.text}` : undefined;
  }
  return undefined;
}

/** Needs parentheses when used as the operand of `.attr`, `[...]`, unary/binary operators. */
export function isAtomic(node: SyntaxNode): boolean {
  return [
    'identifier', 'attribute', 'call', 'subscript', 'string', 'integer', 'float', 'true', 'false', 'none',
    'list', 'tuple', 'dictionary', 'set', 'parenthesized_expression', 'list_comprehension',
    'dictionary_comprehension', 'set_comprehension', 'generator_expression', 'concatenated_string',
  ].includes(node.type);
}

export function paren(node: SyntaxNode): string {
  return isAtomic(node) ? node.text : `(${node.text})`;
}

/** A side-effect-free expression that can be written twice (names, attributes, literal subscripts). */
export function isPure(node: SyntaxNode): boolean {
  switch (node.type) {
    case 'identifier': case 'string': case 'integer': case 'float': case 'true': case 'false': case 'none':
      return true;
    case 'attribute':
      return isPure(node.childForFieldName('object')!);
    case 'subscript': {
      const v = node.childForFieldName('value');
      const subs = node.childrenForFieldName('subscript').filter((s): s is SyntaxNode => !!s);
      return !!v && isPure(v) && subs.every((s) => isPure(s) || s.type === 'list' && s.namedChildren.every((c) => !!c && isPure(c)));
    }
    case 'parenthesized_expression':
      return node.namedChildren.every((c) => !!c && isPure(c));
    default:
      return false;
  }
}

/** The statement node that contains `node` (expression_statement, assignment...). */
export function enclosingStatement(node: SyntaxNode): SyntaxNode {
  let cur: SyntaxNode = node;
  while (cur.parent && cur.parent.type !== 'module' && cur.parent.type !== 'block') cur = cur.parent;
  return cur;
}

/** Is `node` the called function of a call node (returns the call)? */
export function callOf(node: SyntaxNode): SyntaxNode | undefined {
  const p = node.parent;
  if (p && p.type === 'call' && p.childForFieldName('function')?.startIndex === node.startIndex &&
      p.childForFieldName('function')?.endIndex === node.endIndex) return p;
  return undefined;
}

/** Method call `recv.name(...)`: returns {recv, name, call} when `call` has that shape. */
export function methodCall(call: SyntaxNode): { recv: SyntaxNode; name: string; attr: SyntaxNode; nameNode: SyntaxNode } | undefined {
  const fn = call.childForFieldName('function');
  if (!fn || fn.type !== 'attribute') return undefined;
  const recv = fn.childForFieldName('object');
  const nameNode = fn.childForFieldName('attribute');
  if (!recv || !nameNode) return undefined;
  return { recv, name: nameNode.text, attr: fn, nameNode };
}

/**
 * The grouping call (`groupby`, `resample`, ... among `methods`) a method is called on: `df.groupby(k)`,
 * or a column selection of one (`df.groupby(k)['v']`, `df.groupby(k).v`); undefined otherwise.
 */
export function grouperCall(recv: SyntaxNode, methods: ReadonlySet<string>): SyntaxNode | undefined {
  let node = recv;
  if (node.type === 'subscript') node = node.childForFieldName('value') ?? node;
  else if (node.type === 'attribute') node = node.childForFieldName('object') ?? node;
  return node.type === 'call' && methods.has(methodCall(node)?.name ?? '') ? node : undefined;
}

/** The items of a list or tuple display (comments left out), else the value itself: a grid entry's candidate values. */
export function candidateValues(value: SyntaxNode): SyntaxNode[] {
  if (value.type !== 'list' && value.type !== 'tuple') return [value];
  return value.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
}

/** The name a call calls: `f` of `f(...)`, `m` of `obj.m(...)`. */
export function calleeName(call: SyntaxNode): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'identifier') return fn.text;
  if (fn?.type === 'attribute') return fn.childForFieldName('attribute')?.text;
  return undefined;
}

/** The keyword argument is passed to a call of `name` (`name(...)`, `mod.name(...)`, `obj.name(...)`). */
export function isKeywordOf(kw: SyntaxNode, name: string): boolean {
  const call = kw.parent?.parent;
  return call?.type === 'call' && calleeName(call) === name;
}

export function sameNode(a: SyntaxNode | null | undefined, b: SyntaxNode | null | undefined): boolean {
  return !!a && !!b && a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}
