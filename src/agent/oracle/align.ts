/**
 * Aligning two runs of a cell: which printed line of the original pairs with which line of the new
 * run, which table with which table, which column with which column. Pure pairing; what a pair
 * then shows (equal within tolerance or not) is compare.ts's business.
 */
import type { NumberLine } from './numbers.js';
import type { Table } from './tables.js';

/** Pair two lists of lines: LCS on templates, then lines with the same count of numbers, in order. */
export function alignLines(a: NumberLine[], b: NumberLine[]): Array<[number, number]> {
  const n = a.length, m = b.length;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i]![j] = a[i]!.template === b[j]!.template ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
    }
  }
  const anchors: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i]!.template === b[j]!.template) { anchors.push([i, j]); i++; j++; }
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  // Gaps between anchors: pair lines with equal number counts, in order.
  const pairs: Array<[number, number]> = [];
  let pi = 0, pj = 0;
  for (const [ai, bj] of [...anchors, [n, m] as [number, number]]) {
    let j = pj;
    for (let i = pi; i < ai; i++) {
      for (let k = j; k < bj; k++) {
        if (b[k]!.numbers.length === a[i]!.numbers.length) { pairs.push([i, k]); j = k + 1; break; }
      }
    }
    if (ai < n) pairs.push([ai, bj]);
    pi = ai + 1;
    pj = bj + 1;
  }
  return pairs.sort((x, y) => x[0] - y[0]);
}

/** Column pairs of two tables: by label, then the leftover columns by position if as many are left on both sides. */
export function columnPairs(a: Table, b: Table): { pairs: Array<[number, number]>; renamed: Array<[string, string]> } {
  const byLabel = new Map(b.columns.map((c, k) => [c, k]));
  const pairs: Array<[number, number]> = [];
  const leftA: number[] = [];
  const usedB = new Set<number>();
  a.columns.forEach((c, k) => {
    const m = byLabel.get(c);
    if (m === undefined) leftA.push(k);
    else { pairs.push([k, m]); usedB.add(m); }
  });
  const leftB = b.columns.map((_, k) => k).filter((k) => !usedB.has(k));
  const renamed: Array<[string, string]> = [];
  if (leftA.length > 0 && leftA.length === leftB.length) {
    leftA.forEach((k, n) => { pairs.push([k, leftB[n]!]); renamed.push([a.columns[k]!, b.columns[leftB[n]!]!]); });
  }
  return { pairs: pairs.sort((x, y) => x[0] - y[0]), renamed };
}

/** Pair the tables of two runs of a cell: each original table with the new table sharing most (row, column) labels. */
export function pairTables(a: Table[], b: Table[]): Array<[number, number]> {
  const used = new Set<number>();
  const pairs: Array<[number, number]> = [];
  a.forEach((ta, i) => {
    let best = -1, bestScore = 0;
    b.forEach((tb, j) => {
      if (used.has(j)) return;
      const rows = new Set(tb.rows.map((r) => r.label));
      const commonRows = ta.rows.filter((r) => rows.has(r.label)).length;
      const commonCols = columnPairs(ta, tb).pairs.length;
      // Empty frames (0 rows, a shape note) pair on their columns. So do frames with the same
      // columns and no row label in common (a head() of another cut through a tie, a changed
      // top-N), below any pairing that shares rows: compareTables then tells a tie from a change.
      const sameColumns = commonCols > 0 && commonCols === ta.columns.length && commonCols === tb.columns.length;
      const score = ta.rows.length === 0 && tb.rows.length === 0 ? commonCols
        : commonRows > 0 ? commonRows * commonCols
        : sameColumns ? 0.5 : 0;
      if (score > bestScore) { best = j; bestScore = score; }
    });
    if (best >= 0) { used.add(best); pairs.push([i, best]); }
  });
  return pairs;
}
