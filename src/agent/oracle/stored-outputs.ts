/**
 * The stored-outputs oracle: the numbers the original run printed (stored in the .ipynb) compared
 * with the new run's, cell by cell: extract (extract.ts), align and compare (compare.ts), then judge
 * the notebook here. Cells the original ran out of order (order.ts) are reported, not judged by
 * default; text and images are reported, not judged.
 */
import { sourceText, type CodeCell, type Notebook } from '../../core/notebook.js';
import { cellNumbers, type NumberLine } from './numbers.js';
import { outOfOrderCells } from './order.js';
import { withoutStaleResult } from './extract.js';
import { hasStatements, showsLibraryDocs } from './stale-results.js';
import { compareCell } from './compare.js';
import { DEFAULT_TOLERANCE, type CellReport, type CellVerdict, type Comparison, type OracleVerdict } from './types.js';

export interface StoredOutputsOptions {
  tolerance?: number;
  /** Original cell index -> new cell index; default: the same index. */
  cellMap?: (original: number) => number | undefined;
  /** Cells to leave out (e.g. cells that print timings or random samples). */
  ignoreCells?: number[];
  /**
   * Cells the original ran out of order (see order.ts: a later cell that binds or mutates
   * a name this cell reads ran before this cell's stored output was produced): 'report' (default)
   * compares and reports them, but a mismatch or missing numbers there do not fail the notebook,
   * since an in-order run cannot reach the state they were printed in; 'judge' treats them like
   * any other cell.
   */
  outOfOrder?: 'report' | 'judge';
}

export function storedOutputsOracle(original: Notebook, current: Notebook, opts: StoredOutputsOptions = {}): OracleVerdict {
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
  const ignore = new Set(opts.ignoreCells ?? []);
  const late = outOfOrderCells(original);
  const cells: CellReport[] = [];
  const comparisons: Comparison[] = [];
  original.cells.forEach((c, i) => {
    if (c.cell_type !== 'code' || ignore.has(i)) return;
    const { cell: kept, stale } = withoutStaleResult(c as CodeCell);
    const orig = cellNumbers(kept);
    const j = opts.cellMap ? opts.cellMap(i) : i;
    const other = j !== undefined ? current.cells[j] : undefined;
    const cur = other && other.cell_type === 'code' ? cellNumbers(other as CodeCell) : undefined;
    const r = compareCell(i, orig, cur, tolerance, sourceText(c.source));
    // A cell that showed nothing in either run has nothing to report.
    if (!stale.length && r.report.verdict === 'not-compared' && !orig.hasError && orig.images === 0 && orig.textLines.length === 0 && !cur?.images && !cur?.lines.length && !cur?.tables.length) return;
    // Stored numbers this run cannot produce, listed unjudged with the reason, and the cell not compared.
    const unjudged = (lines: readonly NumberLine[], why: 'skipped' | 'unreachable', note: string): void => {
      cells.push({ ...r.report, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, note });
      comparisons.push(...lines.flatMap((l) => l.numbers.map((v) => ({ cell: i, original: v, new: null, relDiff: null, ok: true, unjudged: why, context: l.raw }))));
    };
    const notRun = other ? skippedHere(other) : undefined;
    if (notRun && r.report.verdict !== 'not-compared') return unjudged(orig.lines, 'skipped', `not run here (${notRun}): its stored outputs are not judged`);
    const after = other ? unreachableAfter(other) : undefined;
    // Its stored results are out of reach in any run that keeps the author's own error upstream.
    if (after !== undefined) return unjudged([...orig.lines, ...stale], 'unreachable', `the author's own error in cell ${after} leaves this cell unable to run: its stored results are not judged`);
    // Outputs stored under a cell whose source was later deleted, or commented out line by line (an
    // author keeping a slow search's code but not running it again), cannot come back.
    if (r.report.verdict !== 'not-compared' && !hasStatements(sourceText(c.source))) {
      r.report = { ...r.report, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, note: sourceText(c.source).trim() ? 'the cell holds only comments now: its stored outputs are stale' : 'the cell has no source: its stored outputs are stale' };
      r.comparisons = [];
    }
    // help(X) / X? show the library's own documentation: its defaults are the installed version's, not a result.
    if (r.report.verdict !== 'not-compared' && showsLibraryDocs(sourceText(c.source))) {
      r.report = { ...r.report, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, note: "the cell shows a library's own documentation (help(), ?): it describes the library's version, not a result" };
      r.comparisons = r.comparisons.map((x) => ({ ...x, ok: true, unjudged: 'library-docs' as const }));
    }
    const ooo = late.get(i);
    if (ooo && r.report.verdict !== 'not-compared') {
      r.report.outOfOrder = true;
      const why = ooo.earlierRanAfter
        ? `the original ran this cell before cell ${ooo.laterCell} above it (execution count ${ooo.count} < ${ooo.laterCount}), which changes ${ooo.names.join(', ')}`
        : `the original ran this cell after cell ${ooo.laterCell} (execution count ${ooo.count} > ${ooo.laterCount}), which sets ${ooo.names.join(', ')}`;
      r.report.note = r.report.note ? `${r.report.note}; ${why}` : why;
      for (const x of r.comparisons) x.outOfOrder = true;
    }
    if (stale.length) {
      const why = "a stored result the cell's current source cannot produce (its last statement has no value, or shows fewer rows than the stored frame states): stale, not judged";
      r.report.note = r.report.note ? `${r.report.note}; ${why}` : why;
      r.comparisons.push(...stale.map((l) => l.numbers.map((v) => ({ cell: i, original: v, new: null, relDiff: null, ok: true, unjudged: 'stale' as const, context: l.raw }))).flat());
    }
    cells.push(r.report);
    comparisons.push(...r.comparisons);
  });
  excuseSearchLabelsAcrossCells(original, cells, comparisons);
  const judged = cells.filter((c) => c.verdict !== 'not-compared');
  const count = (v: CellVerdict): number => cells.filter((c) => c.verdict === v).length;
  const numbersCompared = judged.reduce((s, c) => s + c.compared, 0);
  const excuse = (opts.outOfOrder ?? 'report') === 'report';
  const failing = (c: CellReport): boolean => (c.verdict === 'mismatch' || c.verdict === 'missing') && !(excuse && c.outOfOrder);
  const details = {
    tolerance,
    cellsJudged: judged.length,
    cellsMatched: count('match'),
    cellsPartial: count('partial'),
    cellsMismatched: count('mismatch'),
    cellsMissing: count('missing'),
    numbersCompared,
    numbersMismatched: judged.reduce((s, c) => s + c.mismatched, 0),
    numbersUnpaired: judged.reduce((s, c) => s + c.unpaired, 0),
    imagesOriginal: cells.reduce((s, c) => s + c.images.original, 0),
    imagesNew: cells.reduce((s, c) => s + c.images.new, 0),
    cellsWithTextChanges: cells.filter((c) => c.textChanged).map((c) => c.cell),
    /** Judged cells the original ran out of order. */
    cellsOutOfOrder: judged.filter((c) => c.outOfOrder).map((c) => c.cell),
    /** Cells whose mismatch or missing numbers fail the notebook. */
    cellsFailing: cells.filter(failing).map((c) => c.cell),
    cells,
  };
  if (judged.length === 0) {
    return { oracle: 'none', matches: true, details: { ...details, reason: 'the original notebook has no stored numeric outputs to compare with' }, comparisons };
  }
  const matches = details.cellsFailing.length === 0 && numbersCompared > 0;
  const reasons: string[] = [];
  for (const c of cells) {
    const tag = c.outOfOrder && excuse ? ' (not judged: the original ran it out of order)' : '';
    if (c.verdict === 'mismatch') {
      const worst = comparisons.filter((x) => x.cell === c.cell && !x.ok && x.new !== null).sort((a, b) => (b.relDiff ?? 0) - (a.relDiff ?? 0))[0];
      const gone = [...(c.tables?.rowsGone ?? []).map((r) => `row ${r}`), ...(c.tables?.columnsGone ?? []).map((k) => `column ${k}`)];
      const eg = worst ? ` (e.g. ${worst.original} -> ${worst.new})` : gone.length ? ` (${gone.slice(0, 3).join(', ')} gone)` : '';
      reasons.push(`cell ${c.cell}: ${c.mismatched} of ${c.compared} numbers differ${eg}${tag}`);
    } else if (c.verdict === 'missing') reasons.push(`cell ${c.cell}: ${(c.note ?? 'numbers missing').split('; ')[0]}${tag}`);
  }
  return { oracle: 'stored-outputs', matches, details: { ...details, ...(reasons.length ? { reason: reasons.join('; ') } : {}) }, comparisons };
}

/** The author's failing cell when this run's cell raised only as a consequence of it (metadata written by the executor). */
const SHOWS_BEST_PARAMS = /^(?:\s*#.*\n)*\s*(?:print\()?\s*([A-Za-z_]\w*)\.best_params_\s*\)?\s*(?:#.*)?\s*$/;

/**
 * The same tie rule as compare.ts's excuseSearchLabels when the search's best parameters and its best
 * score are shown in cells of their own (`gs.best_params_`, then `gs.best_score_`): a cell that only
 * shows `NAME.best_params_` and drifts is a label among tied scores when a cell showing
 * `NAME.best_score_` matches. Its drifted numbers become ties, unjudged; without a matching score
 * nothing changes.
 */
function excuseSearchLabelsAcrossCells(original: Notebook, cells: CellReport[], comparisons: Comparison[]): void {
  const scoreMatches = (name: string): boolean => cells.some((c) => c.verdict === 'match' && c.compared > 0
    && new RegExp(`\\b${name}\\.best_score_\\b`).test(sourceText(original.cells[c.cell]?.source)));
  for (const r of cells) {
    if (r.verdict !== 'mismatch') continue;
    const name = SHOWS_BEST_PARAMS.exec(sourceText(original.cells[r.cell]?.source))?.[1];
    if (!name || !scoreMatches(name)) continue;
    comparisons.forEach((c, k) => {
      if (c.cell === r.cell && !c.ok && c.new !== null) comparisons[k] = { ...c, ok: true, unjudged: 'tie' };
    });
    const left = comparisons.some((c) => c.cell === r.cell && !c.ok);
    Object.assign(r, { mismatched: 0, verdict: left ? 'partial' : 'match', note: `the search's best parameters, with its best score matching in another cell: a label among tied scores, not judged` });
  }
}

/** A repair that leaves a cell out writes it as comments under this first line (agent/earlier-session.ts). */
export const NOT_RUN_MARK = '# nbmodernize: not run: ';

/** Why the run did not run this cell (run-notebook marks a skipped cell; a repair comments one out), or undefined. */
function skippedHere(cell: Notebook['cells'][number]): string | undefined {
  const why = (cell.metadata as { nbmodernize?: { skipped?: unknown } } | undefined)?.nbmodernize?.skipped;
  if (typeof why === 'string') return why;
  const src = sourceText(cell.source);
  return src.startsWith(NOT_RUN_MARK) && !hasStatements(src) ? src.slice(NOT_RUN_MARK.length).split('\n')[0] : undefined;
}

function unreachableAfter(cell: Notebook['cells'][number]): number | undefined {
  const after = (cell.metadata as { nbmodernize?: { asAuthor?: { after?: unknown } } } | undefined)?.nbmodernize?.asAuthor?.after;
  return typeof after === 'number' ? after : undefined;
}
