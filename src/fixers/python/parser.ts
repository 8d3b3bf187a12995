/**
 * The one module that imports web-tree-sitter. A real Python parse tree (tree-sitter-python's
 * grammar, which also accepts Python 2 `print x` / `exec` statements) for codemods and def-use
 * analysis; WASM so installs need no native build.
 */
import { createRequire } from 'node:module';
import { Parser, Language, Node as TsNode } from 'web-tree-sitter';
import type { Node, Tree } from 'web-tree-sitter';
import { memoizeNodeReads } from './node-memo.js';

export type { Node as SyntaxNode, Tree as SyntaxTree };

const require = createRequire(import.meta.url);

async function load(): Promise<Parser> {
  await Parser.init();
  const lang = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
  const parser = new Parser();
  parser.setLanguage(lang);
  return parser;
}

/**
 * Loaded once, when this module is first imported (top-level await), so that parsing is
 * synchronous: the oracle reads stored outputs inside synchronous judgement code.
 */
const parser = await load();
memoizeNodeReads(TsNode.prototype);

/** Parse Python source (synchronously); the caller deletes the tree. */
export function parsePython(source: string): Tree {
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  return tree;
}

/** Depth-first walk over named and anonymous nodes. */
export function* walk(node: Node): Generator<Node> {
  yield node;
  for (const child of node.children) {
    if (child) yield* walk(child);
  }
}
