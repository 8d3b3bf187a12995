/**
 * Names that moved: repaired from the environment's symbol index, not from a list of cases.
 *  - `ImportError: cannot import name 'X' from 'M'` -> import X from where the package has it now;
 *  - `ModuleNotFoundError: No module named 'pkg.old'` (pkg exists) -> each imported name from its new home;
 *  - `AttributeError: module 'M' has no attribute 'X'` -> `alias.sub.X` when X lives in a submodule of M.
 * Only within the same top-level package: a name is never guessed across libraries. Several homes
 * give several candidates (best first: the public module the name is defined under, then the
 * shallowest); generate-and-verify keeps the one the stored outputs agree with.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { homesOf, type SymbolIndex } from '../../core/symbol-index.js';
import type { SyntaxNode } from '../python/parser.js';
import { parseNotebookCells, disposeCells } from './engine.js';

export interface MoveCandidate {
  patch: Patch;
  label: string;
}

interface Item {
  name: string;
  alias?: string;
  node: SyntaxNode;
}

function fromImports(root: SyntaxNode): Array<{ stmt: SyntaxNode; module: string; items: Item[] }> {
  const out: Array<{ stmt: SyntaxNode; module: string; items: Item[] }> = [];
  const walk = (n: SyntaxNode) => {
    if (n.type === 'import_from_statement') {
      const module = n.childForFieldName('module_name')?.text.replace(/\s/g, '') ?? '';
      const items = n.childrenForFieldName('name').filter((x): x is SyntaxNode => !!x).map((x) => (x.type === 'aliased_import'
        ? { name: x.childForFieldName('name')?.text ?? '', alias: x.childForFieldName('alias')?.text, node: x }
        : { name: x.text, node: x }));
      out.push({ stmt: n, module, items });
      return;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(root);
  return out;
}

/** The statement rewritten: `keep` stays imported from its module, `moved` items from their new homes (one line each). */
function rewrite(module: string, keep: Item[], moved: Array<{ item: Item; home: string }>, indent: string): string {
  const lines: string[] = [];
  if (keep.length) lines.push(`from ${module} import ${keep.map((k) => k.node.text).join(', ')}`);
  const byHome = new Map<string, Item[]>();
  for (const m of moved) byHome.set(m.home, [...(byHome.get(m.home) ?? []), m.item]);
  for (const [home, items] of byHome) lines.push(`from ${home} import ${items.map((i) => (i.alias ? `${i.name} as ${i.alias}` : i.name)).join(', ')}`);
  return lines.join(`\n${indent}`);
}

function indentOf(src: string, node: SyntaxNode): string {
  const lineStart = src.lastIndexOf('\n', node.startIndex - 1) + 1;
  return /^[ \t]*/.exec(src.slice(lineStart))![0];
}

function patch(nb: Notebook, cell: number, node: SyntaxNode, text: string, summary: string): Patch {
  const src = sourceText(nb.cells[cell].source);
  return {
    fixType: 'error-repair',
    source: { kind: 'rule', ruleIds: ['symbol-moved'] },
    edits: [{ cell, op: 'replace', newSource: src.slice(0, node.startIndex) + text + src.slice(node.endIndex) }],
    summary: `cell ${cell}: ${summary}`,
  };
}

export async function movedSymbolPatches(nb: Notebook, cell: number, error: { ename: string; evalue: string }, index: SymbolIndex): Promise<MoveCandidate[]> {
  if (!Object.keys(index.modules).length) return [];
  const cannot = /cannot import name '(\w+)' from '([\w.]+)'/.exec(error.evalue);
  const noModule = /No module named '([\w.]+)'/.exec(error.evalue);
  const noAttr = /module '([\w.]+)' has no attribute '(\w+)'/.exec(error.evalue);
  if (!cannot && !noModule && !noAttr) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const parsed = cells.find((c) => c.index === cell);
    if (!parsed) return [];
    const src = parsed.source;
    const out: MoveCandidate[] = [];
    if (cannot) {
      const [, name, module] = cannot;
      const top = module.split('.')[0];
      for (const imp of fromImports(parsed.tree.rootNode).filter((s) => s.module === module)) {
        const item = imp.items.find((i) => i.name === name);
        if (!item) continue;
        for (const home of homesOf(index, name, { top }).filter((h) => h !== module)) {
          const text = rewrite(module, imp.items.filter((i) => i !== item), [{ item, home }], indentOf(src, imp.stmt));
          out.push({ label: home, patch: patch(nb, cell, imp.stmt, text, `${name} moved from ${module} to ${home}`) });
        }
      }
    } else if (noModule && noModule[1].includes('.')) {
      const module = noModule[1];
      const top = module.split('.')[0];
      if (!Object.keys(index.modules).some((m) => m === top)) return [];
      for (const imp of fromImports(parsed.tree.rootNode).filter((s) => s.module === module)) {
        const moved = imp.items.map((item) => ({ item, home: homesOf(index, item.name, { top })[0] }));
        if (!moved.length || moved.some((m) => !m.home)) continue;
        const text = rewrite(module, [], moved as Array<{ item: Item; home: string }>, indentOf(src, imp.stmt));
        out.push({ label: [...new Set(moved.map((m) => m.home))].join(', '), patch: patch(nb, cell, imp.stmt, text, `${module} is gone: ${moved.map((m) => `${m.item.name} from ${m.home}`).join(', ')}`) });
      }
    } else if (noAttr) {
      const [, module, name] = noAttr;
      const homes = homesOf(index, name, { top: module.split('.')[0] }).filter((h) => h.startsWith(`${module}.`));
      // `alias.X` where alias is bound to the module: `pd.scatter_matrix` -> `pd.plotting.scatter_matrix`.
      const uses: SyntaxNode[] = [];
      const walk = (n: SyntaxNode) => {
        if (n.type === 'attribute' && n.childForFieldName('attribute')?.text === name && n.childForFieldName('object')?.type !== 'call') uses.push(n);
        for (const c of n.namedChildren) if (c) walk(c);
      };
      walk(parsed.tree.rootNode);
      for (const home of homes) {
        const sub = home.slice(module.length + 1);
        let text = src;
        for (const u of [...uses].sort((a, b) => b.startIndex - a.startIndex)) {
          const obj = u.childForFieldName('object')!;
          text = text.slice(0, u.startIndex) + `${obj.text}.${sub}.${name}` + text.slice(u.endIndex);
        }
        if (uses.length) out.push({ label: home, patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['symbol-moved'] }, edits: [{ cell, op: 'replace', newSource: text }], summary: `cell ${cell}: ${module}.${name} is now ${home}.${name}` } });
      }
    }
    return out;
  } finally {
    disposeCells(cells);
  }
}
