/**
 * Repairs that act on a library's behaviour rather than on one call: a few statements inserted once,
 * right after the notebook's first top-level import that qualifies (before any call they act on can
 * run). Each shim binds a private marker name, so a notebook that already carries it is left alone.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Binding, CellContext } from './context.js';
import type { RuleMatch } from './types.js';
import { insertAt } from './tree.js';

export interface ShimSpec {
  /** A name the shim binds (and nothing else does): its presence means the shim is in. */
  mark: string;
  /** The statements, top-level, inserted on the line after the import. */
  text: string;
  /** Which imports qualify (by the qualified name they bind). */
  qualifies: (b: Binding) => boolean;
  /** Insert on the line before the import instead (a shim that replaces what the import binds). */
  before?: boolean;
}

/** `ShimSpec.qualifies` for any import of a package or one of its modules (`sklearn`, `sklearn.svm`, ...). */
export function importOf(pkg: string): (b: Binding) => boolean {
  return (b) => b.qname === pkg || b.qname.startsWith(`${pkg}.`);
}

/** `ShimSpec.qualifies` for the first import of a library that plots through matplotlib's Axes. */
export const plottingImport = (b: Binding): boolean => ['matplotlib', 'seaborn', 'pandas'].some((p) => importOf(p)(b));

/** The notebook's first top-level import statement that binds a qualifying name. */
function firstImport(ctx: CellContext, spec: ShimSpec): { cell: number; stmt: SyntaxNode } | undefined {
  return ctx.nb.memo(`shim-import:${spec.mark}`, () => {
    if (ctx.nb.cells.some((c) => c.source.includes(spec.mark))) return undefined;
    let best: Binding | undefined;
    for (const list of ctx.nb.bindings.values()) {
      for (const b of list) {
        if (!spec.qualifies(b) || b.stmt.parent?.type !== 'module') continue;
        if (!best || b.cell < best.cell || (b.cell === best.cell && b.offset < best.offset)) best = b;
      }
    }
    return best && { cell: best.cell, stmt: best.stmt };
  });
}

/** The shim's insertion, when this cell holds the notebook's first qualifying import. */
export function shimAfterImport(ctx: CellContext, spec: ShimSpec): RuleMatch | undefined {
  const at = firstImport(ctx, spec);
  if (!at || at.cell !== ctx.cell.index) return undefined;
  const src = ctx.cell.source;
  if (spec.before) return { node: at.stmt, edits: [insertAt(src.lastIndexOf('\n', at.stmt.startIndex - 1) + 1, `${spec.text}\n`)] };
  const nl = src.indexOf('\n', at.stmt.endIndex);
  return { node: at.stmt, edits: [insertAt(nl < 0 ? src.length : nl, `\n${spec.text}`)] };
}
