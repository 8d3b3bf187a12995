/**
 * Comparing one cell of two runs: its aligned tables (compare-tables.ts), then its aligned lines,
 * number by number within the tolerance, into a CellReport and its Comparisons.
 */
import { tableNumberCount, type CellNumbers, type NumberLine } from './numbers.js';
import { relativeDifference } from './scorers.js';
import { alignLines, pairTables } from './align.js';
import { compareTables } from './compare-tables.js';
import { MAX_LABELS_REPORTED, MAX_LINES_PER_CELL, type CellReport, type CellVerdict, type Comparison, type TableReport } from './types.js';

/** Failing comparisons on the given lines (by context, or as `is` says) become ties, unjudged; how many. */
function markTies(comparisons: Comparison[], lines: ReadonlySet<string>, is: (c: Comparison) => boolean = (c) => lines.has(c.context ?? '')): number {
  let excused = 0;
  comparisons.forEach((c, i) => {
    if (c.ok || c.new === null || !is(c)) return;
    comparisons[i] = { ...c, ok: true, unjudged: 'tie' };
    excused++;
  });
  return excused;
}

/**
 * A search's best parameters printed as a dict (`{'C': 10, 'max_depth': 7}` from best_params_)
 * are the argmax of its scores: with scores equal within the tolerance any of the tied candidates
 * may come out. When the cell's other numbers (the best score, the accuracy after it) agree, the
 * parameters are not judged; when they do not, the cell fails on them anyway. The dict is read as a
 * one-column table when both runs print one (tables.ts parseDictRepr), so its comparisons are those
 * of its keys' rows as well as those of its line.
 */
function excuseSearchLabels(source: string, lines: readonly NumberLine[], comparisons: Comparison[]): number {
  if (!/\bbest_params_\b/.test(source)) return 0;
  const dictLines = lines.filter((l) => /\{\s*'[^']+'\s*:/.test(l.raw));
  const labels = new Set(dictLines.map((l) => l.raw));
  if (!labels.size) return 0;
  const keys = new Set(dictLines.flatMap((l) => [...l.raw.matchAll(/'([^']+)'\s*:/g)].map((m) => m[1]!)));
  const isLabel = (c: Comparison): boolean => labels.has(c.context ?? '') || (c.column === 'value' && c.row !== undefined && keys.has(c.row));
  const others = comparisons.filter((c) => !isLabel(c));
  if (!others.some((c) => c.ok && c.new !== null) || others.some((c) => !c.ok)) return 0;
  return markTies(comparisons, labels, isLabel);
}

/**
 * A count listing (`value_counts()` printed, `label count` per line) orders labels of equal count
 * arbitrarily, and pandas changed that order (hash order, then a stable sort, in 1.x/2.0). A run of
 * two or more consecutive lines ending in the same count whose lines, as a set, are the same lines
 * as those paired with them in the new output is a tie reordered: its labels are not judged.
 */
function excuseTiedOrder(origLines: readonly NumberLine[], curLines: readonly NumberLine[], pairs: ReadonlyArray<readonly [number, number]>, comparisons: Comparison[]): number {
  const partner = new Map(pairs.map(([i, j]) => [i, j]));
  const norm = (l: NumberLine) => l.raw.trim().replace(/\s+/g, ' ');
  const last = (l: NumberLine) => l.numbers[l.numbers.length - 1];
  const tied = new Set<string>();
  for (let i = 0; i < origLines.length;) {
    let j = i + 1;
    const count = last(origLines[i]!);
    while (count !== undefined && j < origLines.length && origLines[j]!.numbers.length >= 2 && last(origLines[j]!) === count) j++;
    if (j - i >= 2 && origLines[i]!.numbers.length >= 2) {
      const block = origLines.slice(i, j);
      const others = block.map((_, k) => partner.get(i + k)).map((m) => (m === undefined ? undefined : curLines[m]));
      const a = block.map(norm).sort(), b = others.map((l) => (l ? norm(l) : '')).sort();
      if (others.every((l) => l && last(l) === count) && a.every((x, k) => x === b[k])) for (const l of block) tied.add(l.raw);
    }
    i = j;
  }
  return markTies(comparisons, tied);
}

export function compareCell(cell: number, orig: CellNumbers, cur: CellNumbers | undefined, tolerance: number, source = ''): { report: CellReport; comparisons: Comparison[] } {
  const comparisons: Comparison[] = [];
  const origTables = orig.tables ?? [];
  const curTables = cur?.tables ?? [];
  // HTML-only tables (no text/plain) carry numbers the lines do not.
  const htmlOnlyNumbers = origTables.reduce((s, t, k) => s + (orig.lines.some((l) => l.table === k) ? 0 : tableNumberCount(t)), 0);
  const origCount = orig.lines.reduce((s, l) => s + l.numbers.length, 0) + htmlOnlyNumbers;
  const images = { original: orig.images, new: cur?.images ?? 0 };
  const textChanged = !!cur && (orig.textLines.length !== cur.textLines.length || orig.textLines.some((t, i) => t !== cur.textLines[i]));
  if (orig.hasError || origCount === 0) {
    const note = orig.hasError ? 'the original run failed in this cell' : 'no numbers in the original outputs';
    return { report: { cell, verdict: 'not-compared', compared: 0, mismatched: 0, unpaired: 0, images, textChanged, note }, comparisons };
  }
  if (!cur || (cur.lines.length === 0 && curTables.length === 0)) {
    for (const l of orig.lines.slice(0, MAX_LINES_PER_CELL)) for (const v of l.numbers) comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
    const note = cur?.hasError ? 'the new run failed in this cell' : 'the new run printed no numbers here';
    return { report: { cell, verdict: 'missing', compared: 0, mismatched: 0, unpaired: origCount, images, textChanged, note }, comparisons };
  }
  let compared = 0, mismatched = 0, unpaired = 0;

  // DataFrames both runs showed as HTML tables: by (row label, column label).
  const tablePairs = pairTables(origTables, curTables);
  const pairedOrig = new Set(tablePairs.map((p) => p[0]));
  const pairedCur = new Set(tablePairs.map((p) => p[1]));
  let tables: TableReport | undefined;
  if (tablePairs.length) {
    tables = { compared: tablePairs.length, rowsMissing: [], columnsMissing: [], columnsRenamed: [], rowsReplaced: [], rowsGone: [], columnsGone: [] };
    for (const [i, j] of tablePairs) {
      const t = compareTables(cell, origTables[i]!, curTables[j]!, tolerance);
      comparisons.push(...t.comparisons);
      compared += t.compared; mismatched += t.mismatched; unpaired += t.unpaired;
      tables.rowsMissing.push(...t.rowsMissing);
      tables.columnsMissing.push(...t.columnsMissing);
      tables.columnsRenamed.push(...t.columnsRenamed);
      tables.rowsReplaced.push(...t.rowsReplaced);
      tables.rowsGone.push(...t.rowsGone);
      tables.columnsGone.push(...t.columnsGone);
    }
    tables.rowsMissing = [...new Set(tables.rowsMissing)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsMissing = [...new Set(tables.columnsMissing)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsRenamed = tables.columnsRenamed.slice(0, MAX_LABELS_REPORTED);
    tables.rowsReplaced = tables.rowsReplaced.slice(0, MAX_LABELS_REPORTED);
    tables.rowsGone = [...new Set(tables.rowsGone)].slice(0, MAX_LABELS_REPORTED);
    tables.columnsGone = [...new Set(tables.columnsGone)].slice(0, MAX_LABELS_REPORTED);
  }

  // Everything else, line by line. Very long outputs (a printed array of 20,000 predictions) are
  // compared on their first lines.
  const origRest = orig.lines.filter((l) => l.table === undefined || !pairedOrig.has(l.table));
  const curRest = cur.lines.filter((l) => l.table === undefined || !pairedCur.has(l.table));
  const truncated = origRest.length > MAX_LINES_PER_CELL || curRest.length > MAX_LINES_PER_CELL || tablePairs.some(([i]) => origTables[i]!.rows.length > MAX_LINES_PER_CELL);
  const origLines = origRest.slice(0, MAX_LINES_PER_CELL);
  const curLines = curRest.slice(0, MAX_LINES_PER_CELL);
  const pairs = alignLines(origLines, curLines);
  const byOrig = new Map(pairs.map((p) => [p[0], p]));
  origLines.forEach((l, i) => {
    const p = byOrig.get(i);
    if (!p) {
      unpaired += l.numbers.length;
      for (const v of l.numbers) comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
      return;
    }
    const other = curLines[p[1]]!;
    l.numbers.forEach((v, k) => {
      const w = other.numbers[k];
      if (w === undefined) {
        unpaired++;
        comparisons.push({ cell, original: v, new: null, relDiff: null, ok: false, context: l.raw });
        return;
      }
      const relDiff = relativeDifference(v, w);
      const ok = relDiff <= tolerance + 1e-12;
      compared++;
      if (!ok) mismatched++;
      comparisons.push({ cell, original: v, new: w, relDiff, ok, context: l.raw });
    });
  });
  mismatched -= excuseSearchLabels(source, orig.lines, comparisons);
  mismatched -= excuseTiedOrder(origLines, curLines, pairs, comparisons);
  const verdict: CellVerdict = mismatched > 0 ? 'mismatch' : compared === 0 ? 'missing' : unpaired > 0 ? 'partial' : 'match';
  const note = truncated ? `long output: the first ${MAX_LINES_PER_CELL} lines with numbers (or table rows) were compared` : undefined;
  return { report: { cell, verdict, compared, mismatched, unpaired, images, textChanged, ...(note ? { note } : {}), ...(tables ? { tables } : {}) }, comparisons };
}
