/**
 * The structural edits of a patch (insert a cell, move a cell, delete a cell) on a notebook whose
 * cell numbers must stay stable while the loop works: the oracle pairs each cell with the original
 * by number, and the model, the history and the report all name cells by number. So an inserted
 * cell is APPENDED (its number is past the original's last) and placed by the run order, a moved
 * cell only changes the run order, and a deleted cell is emptied and marked; the written notebook
 * gets the real layout at the end (agent/execution-order.ts `layoutCells`).
 *
 * `structureProblems` is the validator's part: indices valid, the moved and deleted cells exist and
 * are code, a deleted cell has a reason and holds neither a definition a later cell uses nor stored
 * printed results, and no cell loses a definition it had before the patch (a move past its user).
 */
import type { CellEdit } from '../../core/patch.js';
import { isStructural } from '../../core/patch.js';
import { sourceText, toLines, type CodeCell, type Notebook } from '../../core/notebook.js';
import { analyzeNotebook, PY_BUILTINS, type NotebookDefUse } from '../python/defuse.js';
import type { Problem } from './patch-validator.js';

/** Code cell numbers in file order. */
export function codeCellIndices(nb: Notebook): number[] {
  return nb.cells.flatMap((c, i) => (c.cell_type === 'code' ? [i] : []));
}

/** The reason a cell was deleted by a patch, if it was. */
export function deletedReason(nb: Notebook, cell: number): string | undefined {
  const meta = (nb.cells[cell]?.metadata as any)?.nbmodernize;
  return typeof meta?.deleted === 'string' ? meta.deleted : undefined;
}

/** Cell numbers the patch's inserted cells get, in the order of the insert edits. */
export function insertedCells(nb: Notebook, edits: CellEdit[]): Map<CellEdit, number> {
  const out = new Map<CellEdit, number>();
  let next = nb.cells.length;
  for (const e of edits) if (e.op === 'insert') out.set(e, next++);
  return out;
}

/**
 * The notebook with the patch's cell sources (from applyPatchEdits) written in: inserted cells appended
 * as code cells, deleted cells emptied and marked with their reason.
 */
export function withPatchedSources(nb: Notebook, sources: Map<number, string>, edits: CellEdit[] = []): Notebook {
  const out = structuredClone(nb);
  const inserted = [...insertedCells(nb, edits).values()];
  for (const i of inserted) {
    const cell: CodeCell = { cell_type: 'code', source: [], metadata: { nbmodernize: { inserted: true } }, outputs: [], execution_count: null };
    out.cells[i] = cell;
  }
  for (const [cell, src] of sources) if (out.cells[cell]) out.cells[cell].source = toLines(src);
  for (const e of edits) {
    if (e.op !== 'delete' || !out.cells[e.cell]) continue;
    const c = out.cells[e.cell]!;
    c.metadata = { ...c.metadata, nbmodernize: { ...((c.metadata as any).nbmodernize ?? {}), deleted: e.reason } };
  }
  return out;
}

/**
 * The run order after the patch's structural edits, from `order` (undefined = file order), or
 * undefined when the patch has none (the order stays as it is).
 */
export function patchedOrder(nb: Notebook, order: number[] | undefined, edits: CellEdit[]): number[] | undefined {
  if (!edits.some((e) => e.op === 'insert' || e.op === 'move')) return undefined;
  const out = [...(order ?? codeCellIndices(nb))];
  const inserted = insertedCells(nb, edits);
  for (const e of edits) {
    if (e.op === 'insert') {
      const at = out.indexOf(e.cell);
      if (at < 0) continue;
      out.splice(e.position === 'before' ? at : at + 1, 0, inserted.get(e)!);
    } else if (e.op === 'move') {
      const from = out.indexOf(e.cell);
      if (from < 0 || !out.includes(e.before)) continue;
      out.splice(from, 1);
      out.splice(out.indexOf(e.before), 0, e.cell);
    }
  }
  return out;
}

/** Does the notebook's stored output of this cell hold printed results (what the oracle compares)? */
function hasStoredResults(nb: Notebook, cell: number): boolean {
  const c = nb.cells[cell];
  if (!c || c.cell_type !== 'code') return false;
  return c.outputs.some((o: any) =>
    (o.output_type === 'stream' && o.name === 'stdout' && sourceText(o.text).trim() !== '') ||
    ((o.output_type === 'execute_result' || o.output_type === 'display_data') && (o.data?.['text/plain'] !== undefined || o.data?.['text/html'] !== undefined)));
}

/**
 * Pairs (cell, name) where a cell in the run order uses a name that a cell of the notebook defines
 * (in `known`: before or after the patch, so a deleted definer still counts), but no cell before it
 * in the order (deleted cells left out) does.
 */
function unmetUses(du: NotebookDefUse, order: number[], skip: Set<number>, known: NotebookDefUse[]): Map<string, { cell: number; name: string; definers: number[] }> {
  const out = new Map<string, { cell: number; name: string; definers: number[] }>();
  const run = order.filter((c) => !skip.has(c) && du.byCell.has(c));
  const definedBefore = new Set<string>();
  for (const c of run) {
    const info = du.byCell.get(c)!;
    // A name read only inside a function body is needed when the function is called, not when its cell runs.
    for (const name of info.uses) {
      if (PY_BUILTINS.has(name) || definedBefore.has(name) || info.deferred.includes(name)) continue;
      const definers = [...new Set(known.flatMap((k) => k.cells.filter((d) => d.cell !== c && d.defines.includes(name)).map((d) => d.cell)))];
      if (definers.length) out.set(`${c}:${name}`, { cell: c, name, definers });
    }
    for (const d of info.defines) definedBefore.add(d);
  }
  return out;
}

/** The structural edits' problems, and uses that the patch leaves without their definition. */
export async function structureProblems(nb: Notebook, order: number[] | undefined, edits: CellEdit[], sources: Map<number, string>): Promise<Problem[]> {
  const structural = edits.filter(isStructural);
  if (!structural.length) return [];
  const problems: Problem[] = [];
  const last = nb.cells.length - 1;
  const codeCell = (cell: number, what: string): boolean => {
    const c = nb.cells[cell];
    if (!c) {
      problems.push({ cell, kind: 'unknown-cell', message: `${what}: cell ${cell} does not exist (the notebook has cells 0-${last})` });
      return false;
    }
    if (c.cell_type !== 'code') {
      problems.push({ cell, kind: 'not-code-cell', message: `${what}: cell ${cell} is a ${c.cell_type} cell, not code` });
      return false;
    }
    if (deletedReason(nb, cell) !== undefined) {
      problems.push({ cell, kind: 'unknown-cell', message: `${what}: cell ${cell} was deleted by an earlier fix` });
      return false;
    }
    return true;
  };
  for (const e of structural) {
    if (e.op === 'insert') {
      codeCell(e.cell, `insert ${e.position} cell ${e.cell}`);
      if (e.newSource.trim() === '') problems.push({ cell: e.cell, kind: 'empty-patch', message: `the cell inserted ${e.position} cell ${e.cell} is empty` });
    } else if (e.op === 'move') {
      const ok = codeCell(e.cell, `move cell ${e.cell}`) && codeCell(e.before, `move cell ${e.cell} before cell ${e.before}`);
      if (ok && e.cell === e.before) problems.push({ cell: e.cell, kind: 'bad-move', message: `move cell ${e.cell} before itself changes nothing` });
    } else {
      if (!codeCell(e.cell, `delete cell ${e.cell}`)) continue;
      if (e.reason.trim() === '') problems.push({ cell: e.cell, kind: 'bad-delete', message: `delete cell ${e.cell} needs a stated reason ("## === delete cell ${e.cell}: why")` });
      if (edits.some((x) => (x.op === 'replace' || x.op === 'search-replace') && x.cell === e.cell)) {
        problems.push({ cell: e.cell, kind: 'bad-delete', message: `cell ${e.cell} is both changed and deleted by the patch` });
      }
      if (hasStoredResults(nb, e.cell)) {
        problems.push({ cell: e.cell, kind: 'bad-delete', message: `cell ${e.cell} printed results in the original run; deleting it loses results the notebook must reproduce` });
      }
    }
  }
  if (problems.length) return problems;

  // Def-use before and after: no cell may lose a definition it had (a deleted definer, a move past a user).
  const after = withPatchedSources(nb, sources, edits);
  const newOrder = patchedOrder(nb, order, edits) ?? order ?? codeCellIndices(nb);
  const deleted = (book: Notebook) => new Set(book.cells.flatMap((_, i) => (deletedReason(book, i) !== undefined ? [i] : [])));
  const du = await analyzeNotebook(nb);
  const duAfter = await analyzeNotebook(after);
  const before = unmetUses(du, order ?? codeCellIndices(nb), deleted(nb), [du]);
  const now = unmetUses(duAfter, newOrder, deleted(after), [du, duAfter]);
  for (const [key, u] of now) {
    if (before.has(key)) continue;
    const gone = structural.find((e) => e.op === 'delete' && du.byCell.get(e.cell)?.defines.includes(u.name));
    problems.push({
      cell: u.cell,
      kind: gone ? 'bad-delete' : 'bad-move',
      message: gone
        ? `cell ${u.cell} uses ${u.name}, which deleted cell ${gone.cell} defines; keep the computation that later cells use`
        : `cell ${u.cell} uses ${u.name}, but after this patch it runs before cell ${u.definers.join(', ')} that defines it`,
    });
  }
  return problems;
}
