/**
 * Which earlier cells a cell depends on, from the notebook's def-use (python/defuse.ts): the nearest
 * cell that defines each name it needs, and the cells between that mutate it; transitively, bounded.
 */
import { PY_BUILTINS, type CellDefUse, type NotebookDefUse } from '../python/defuse.js';

export interface Dependency {
  cell: number;
  /** The names this cell provides to the cell(s) that need it. */
  names: string[];
  /** 1 = needed by the target directly. */
  depth: number;
  relation: 'defines' | 'mutates';
}

export interface DependencyResult {
  deps: Dependency[];
  /** Names the target uses that no earlier cell defines (with a later definer if there is one). */
  unresolved: Array<{ name: string; definedLaterIn?: number }>;
}

/** Names a cell needs from earlier cells: external uses, and objects it mutates without binding them. */
function needed(c: CellDefUse): string[] {
  return [...new Set([...c.uses, ...c.mutates.filter((m) => !c.defines.includes(m))])];
}

/**
 * The cells the target depends on: for each name it uses (or mutates), the nearest earlier cell
 * that defines it and the cells in between that mutate it; then the same for those cells,
 * transitively, up to maxDepth levels and maxCells cells (nearest and most direct first).
 */
export function dependencyCells(du: NotebookDefUse, target: number, opts: { maxDepth?: number; maxCells?: number } = {}): DependencyResult {
  const maxDepth = opts.maxDepth ?? 3;
  const maxCells = opts.maxCells ?? 8;
  const order = du.cells.map((c) => c.cell).sort((a, b) => a - b);
  const found = new Map<number, Dependency>();
  const unresolved: DependencyResult['unresolved'] = [];
  const starImports = (before: number): boolean => du.cells.some((c) => c.cell < before && c.imports.some((i) => i.bound === '*'));

  let frontier: Array<{ cell: number; names: string[] }> = [];
  const t = du.byCell.get(target);
  if (!t) return { deps: [], unresolved: [] };
  frontier.push({ cell: target, names: needed(t) });

  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const next: Array<{ cell: number; names: string[] }> = [];
    for (const { cell, names } of frontier) {
      const earlier = order.filter((c) => c < cell).reverse();
      for (const name of names) {
        if (PY_BUILTINS.has(name)) continue;
        let definer: number | undefined;
        const mutators: number[] = [];
        for (const c of earlier) {
          const info = du.byCell.get(c)!;
          if (info.defines.includes(name)) { definer = c; break; }
          if (info.mutates.includes(name)) mutators.push(c);
        }
        if (definer === undefined && depth === 1 && !starImports(cell)) {
          const later = order.find((c) => c > cell && du.byCell.get(c)!.defines.includes(name));
          unresolved.push({ name, ...(later !== undefined ? { definedLaterIn: later } : {}) });
        }
        const add = (c: number, relation: Dependency['relation']): void => {
          const existing = found.get(c);
          if (existing) {
            if (!existing.names.includes(name)) existing.names.push(name);
            return;
          }
          if (c === target) return;
          const dep: Dependency = { cell: c, names: [name], depth, relation };
          found.set(c, dep);
          next.push({ cell: c, names: needed(du.byCell.get(c)!) });
        };
        if (definer !== undefined) add(definer, 'defines');
        for (const m of mutators) add(m, 'mutates');
      }
    }
    frontier = next;
  }
  // Keep the most direct and nearest cells within the bound, then present in notebook order.
  const ranked = [...found.values()].sort((a, b) => a.depth - b.depth || b.cell - a.cell);
  const deps = ranked.slice(0, maxCells).sort((a, b) => a.cell - b.cell);
  return { deps, unresolved };
}
