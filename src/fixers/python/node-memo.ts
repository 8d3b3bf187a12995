/**
 * Memoized reads of web-tree-sitter nodes. Every `node.type`, `node.endIndex`, `node.text`,
 * `node.parent`, `node.childForFieldName(f)` and `node.childrenForFieldName(f)` crosses into WASM
 * (marshal the node, call, and for a child build a new Node object), and the rules ask the same
 * nodes the same questions many times
 * (every rule that looks at a call asks for its `function` and `arguments`). Our trees are never
 * edited (a rewrite is parsed anew), so a node's answers never change: each node keeps them once read.
 *
 * The memo lives in one extra property per node (one hidden-class transition, not one per answer).
 */
import type { Node, Tree } from 'web-tree-sitter';

/** Field names read often enough to get a slot of their own (the rest share a map), and their slots. */
const SLOTS = ['attribute', 'function', 'name', 'left', 'value', 'object', 'right', 'arguments', 'key'] as const;
const SLOT_OF: ReadonlyMap<string, number> = new Map(SLOTS.map((f, i) => [f, i]));

/**
 * Every field initialised in the constructor: all memos share one hidden class. Kept small (most
 * nodes are only asked their type): field children get their own array when first asked, indexed
 * by slot (a property named by the field, read and written by name, was a megamorphic access).
 */
class Memo {
  type: string | undefined = undefined;
  endIndex: number | undefined = undefined;
  text: string | undefined = undefined;
  parent: Node | null | undefined = undefined;
  fields: Array<Node | null | undefined> | undefined = undefined;
  otherFields: Map<string, Node | null> | undefined = undefined;
  /** childrenForFieldName answers (frozen: every caller gets the same list). */
  fieldLists: Map<string, ReadonlyArray<Node | null>> | undefined = undefined;
}

type Memoized = Node & { nbmMemo?: Memo };

/**
 * Node objects already made for a tree (its index's lists), found by node id. A field or parent
 * read builds a new object for the node it reaches, with an empty memo, though that node is often
 * one the index holds already (a call's `function` attribute, an attribute's `object` call): the
 * read then answers with the indexed object, so what was asked of that node is not asked again.
 * A node's id is unique within its tree and the tree is never edited, so both objects stand for
 * the same node and answer every read alike (no caller compares node objects by identity).
 */
interface KnownNodes {
  lists: Array<readonly Node[]>;
  /** Built on the first read that looks a node up (many cells never read a field). */
  byId: Map<number, Node> | undefined;
}

type WithKnown = Tree & { nbmKnown?: KnownNodes };

/** Make these node objects of `tree` the ones field and parent reads return for their nodes. */
export function shareNodes(tree: Tree, nodes: readonly Node[]): void {
  if (!nodes.length) return;
  const t = tree as WithKnown;
  const known = (t.nbmKnown ??= { lists: [], byId: undefined });
  known.lists.push(nodes);
  if (known.byId) for (let i = 0; i < nodes.length; i++) known.byId.set(nodes[i].id, nodes[i]);
}

/** Drop a deleted tree's shared nodes (engine.ts disposeCell; forgetNodeReads says why). */
export function forgetSharedNodes(tree: Tree): void {
  if ((tree as WithKnown).nbmKnown !== undefined) (tree as WithKnown).nbmKnown = undefined;
}

function known(node: Node | null): Node | null {
  if (!node) return node;
  const k = (node.tree as WithKnown).nbmKnown;
  if (!k) return node;
  let byId = k.byId;
  if (!byId) {
    byId = k.byId = new Map();
    for (const l of k.lists) for (let i = 0; i < l.length; i++) byId.set(l[i].id, l[i]);
  }
  return byId.get(node.id) ?? node;
}

function memoOf(node: Memoized): Memo {
  let m = node.nbmMemo;
  if (!m) node.nbmMemo = m = new Memo();
  return m;
}

/**
 * Drop what a node of a deleted tree remembers (engine.ts disposeCell). A node built early in a
 * notebook's scan is often promoted to the old generation while the scan runs; its memo, filled in
 * later, stays young, and a young-generation GC keeps every young object an old one points to, dead
 * or alive: through the memo, the children it caches and their memos survive each young GC after
 * the notebook is done, until the next full GC.
 */
export function forgetNodeReads(node: Node): void {
  // Only a node that has a memo: writing the property on one that never had it would add it (a new
  // property array per node, allocated just to be dropped).
  if ((node as Memoized).nbmMemo !== undefined) (node as Memoized).nbmMemo = undefined;
}

function getter(proto: object, name: string): (this: Node) => unknown {
  const d = Object.getOwnPropertyDescriptor(proto, name);
  if (!d?.get) throw new Error(`web-tree-sitter Node has no getter ${name}`);
  return d.get;
}

/** Patch the Node prototype (once) so that the reads above are computed once per node object. */
export function memoizeNodeReads(proto: Node): void {
  const p = proto as unknown as Record<string, unknown>;
  if (p.nbmMemoized) return;
  p.nbmMemoized = true;
  const type = getter(proto, 'type');
  const endIndex = getter(proto, 'endIndex');
  const text = getter(proto, 'text');
  const parent = getter(proto, 'parent');
  const childForFieldName = proto.childForFieldName;
  const childrenForFieldName = proto.childrenForFieldName;
  Object.defineProperties(proto, {
    type: { configurable: true, get(this: Memoized) { const m = memoOf(this); return (m.type ??= type.call(this) as string); } },
    endIndex: { configurable: true, get(this: Memoized) { const m = memoOf(this); return (m.endIndex ??= endIndex.call(this) as number); } },
    text: { configurable: true, get(this: Memoized) { const m = memoOf(this); return (m.text ??= text.call(this) as string); } },
    parent: {
      configurable: true,
      get(this: Memoized) {
        const m = memoOf(this);
        if (m.parent === undefined) m.parent = known(parent.call(this) as Node | null);
        return m.parent;
      },
    },
  });
  proto.childForFieldName = function (this: Memoized, field: string): Node | null {
    const m = memoOf(this);
    const slot = SLOT_OF.get(field);
    if (slot !== undefined) {
      // Unset slots read as undefined: not asked yet.
      const f = (m.fields ??= new Array<Node | null | undefined>(SLOTS.length));
      let child = f[slot];
      if (child === undefined) f[slot] = child = known(childForFieldName.call(this, field));
      return child;
    }
    const other = (m.otherFields ??= new Map());
    let child = other.get(field);
    if (child === undefined) other.set(field, (child = known(childForFieldName.call(this, field))));
    return child;
  };
  // Rules ask an import statement for its `name` children once per rule that looks at imports
  // (each answer a WASM call and a new node object per child), and a subscript for its keys.
  proto.childrenForFieldName = function (this: Memoized, field: string): Array<Node | null> {
    const m = memoOf(this);
    const lists = (m.fieldLists ??= new Map());
    let list = lists.get(field);
    if (list === undefined) lists.set(field, (list = Object.freeze(childrenForFieldName.call(this, field).map(known))));
    return list as Array<Node | null>;
  };
}
