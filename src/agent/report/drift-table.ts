/**
 * The concise drift table `check` prints per notebook: cell, original, new — the numbers that
 * moved beyond tolerance, numbers the new run no longer prints, and the failing cell's stored
 * output against the error it raises now.
 */
import type { CodeCell, Notebook } from '../../core/notebook.js';
import { outputText } from '../audit/drift.js';
import type { AuditRecord } from '../audit/record.js';

export interface DriftRow { cell: string; original: string; new: string; note: string }

function fmt(x: number | null): string {
  if (x === null) return '(missing)';
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6)));
}

function firstLine(s: string, max = 60): string {
  const line = s.split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function driftRows(record: AuditRecord, original?: Notebook, limit = 12): DriftRow[] {
  const rows: DriftRow[] = [];
  if (record.error) {
    const cell = record.error.cell;
    const orig = cell !== null && original?.cells[cell]?.cell_type === 'code' ? firstLine(outputText((original.cells[cell] as CodeCell).outputs ?? [])) : '';
    rows.push({ cell: cell === null ? '-' : String(cell), original: orig || '(no output)', new: firstLine(`${record.error.ename}: ${record.error.evalue}`, 80), note: 'error' });
  }
  // Cells from the failing one on did not (all) run: their numbers are missing because of the error.
  const stop = record.error?.cell ?? Infinity;
  for (const c of record.comparisons.filter((x) => !x.ok && (x.cell === null ? !record.error : x.cell < stop))) {
    if (rows.length >= limit) break;
    const note = c.relDiff === null ? 'missing' : `${(c.relDiff * 100).toFixed(1)}% off`;
    rows.push({ cell: c.cell === null ? 'score' : String(c.cell), original: fmt(c.original), new: fmt(c.new), note });
  }
  return rows;
}

export function renderDriftTable(rows: DriftRow[], indent = '    '): string {
  if (!rows.length) return '';
  const head: DriftRow = { cell: 'cell', original: 'original', new: 'new', note: '' };
  const all = [head, ...rows];
  const w = (k: keyof DriftRow) => Math.max(...all.map((r) => r[k].length));
  const [wc, wo, wn] = [w('cell'), w('original'), w('new')];
  return all.map((r) => `${indent}${r.cell.padEnd(wc)}  ${r.original.padEnd(wo)}  ${r.new.padEnd(wn)}  ${r.note}`.trimEnd()).join('\n') + '\n';
}
