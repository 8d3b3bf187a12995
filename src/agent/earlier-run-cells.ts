/**
 * Cells the author ran before the failing one that sit below it in the file: the mirror of
 * later-run-cells.ts. A cell below with a lower stored count ran earlier, so in the author's kernel
 * the failing cell already saw its changes: a feature-engineering cell at the foot of the notebook
 * (`train['dayofweek'] = train.datetime.dt.dayofweek` at [65]) run before a plot above it that uses
 * the new column (`sns.pointplot(data=train, hue='dayofweek')` at [157]). Top to bottom the column
 * does not exist yet: a KeyError, or the plotting library's "Could not interpret value".
 *
 * The repair moves those cells just above the failing one, in the author's order: the cells below it
 * with a lower count that change what it reads (directly or through the cells feeding it), and the
 * cells below, run earlier still, that read what a moved cell binds. A moved cell must find what it
 * reads where it lands. When the error names a label (a column), one of the moved cells must write
 * it. Unproven as a cause, so the stored outputs decide whether it is kept.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import { analyzeNotebook } from '../fixers/python/defuse.js';
import { escapeRe } from '../fixers/rules/helpers.js';
import { storedCounts, type OrderRepair } from './execution-order.js';
import { upstreamReads } from './later-run-cells.js';

/** The label an error says is missing (a column), when it names one. */
export function missingLabel(evalue: string): string | undefined {
  // KeyError's message comes quoted as a whole when it is a sentence (`"['x'] not in index"`).
  const bare = evalue.trim().replace(/^"(.*)"$/s, '$1');
  const m = /^'([^']+)'$/.exec(evalue.trim()) // KeyError
    ?? /Could not interpret (?:value|input) [`']([^`']+)[`']/.exec(evalue) // seaborn 0.12+ / before
    ?? /^\['([^']+)'\] not in index/.exec(bare)
    ?? /None of \[Index\(\['([^']+)'\]/.exec(evalue)
    ?? /object has no attribute '([^']+)'/.exec(evalue);
  return m?.[1];
}

export function earlierRunOrder(original: Notebook, work: Notebook, failingCell: number, currentOrder: number[], evalue = ''): OrderRepair | undefined {
  const counts = storedCounts(original);
  const own = counts.get(failingCell);
  const failPos = currentOrder.indexOf(failingCell);
  if (own === undefined || failPos < 0) return undefined;
  const du = analyzeNotebook(work);
  const above = currentOrder.slice(0, failPos);
  const reads = upstreamReads(du.byCell, counts, above, failingCell, own);
  const available = new Set<string>();
  for (const cell of above) for (const d of du.byCell.get(cell)?.defines ?? []) available.add(d);
  const definedAnywhere = (n: string) => du.cells.some((c) => c.defines.includes(n));
  const below = currentOrder.slice(failPos + 1).filter((c) => (counts.get(c) ?? Infinity) < own).sort((a, b) => counts.get(a)! - counts.get(b)!);
  const moved: number[] = [];
  const binds = new Set<string>();
  const touched = new Set<string>();
  for (const cell of below) {
    const c = du.byCell.get(cell);
    if (!c) continue;
    const writes = [...c.mutates, ...c.defines.filter((d) => available.has(d))];
    const hit = writes.filter((w) => reads.has(w));
    const follows = moved.length > 0 && c.uses.some((u) => binds.has(u));
    if (!hit.length && !follows) continue;
    // It runs where it lands: what it reads is bound above the failing cell or by a cell moved before it.
    if (!c.uses.every((u) => available.has(u) || binds.has(u) || !definedAnywhere(u))) continue;
    moved.push(cell);
    for (const w of hit) touched.add(w);
    for (const d of [...c.defines, ...c.mutates]) binds.add(d);
  }
  if (!touched.size) return undefined;
  const label = missingLabel(evalue);
  if (label && !moved.some((c) => labelWritten(sourceText(work.cells[c]?.source), label))) return undefined;
  const rest = currentOrder.filter((c) => !moved.includes(c));
  const at = rest.indexOf(failingCell);
  const order = [...rest.slice(0, at), ...moved, ...rest.slice(at)];
  const many = moved.length > 1;
  const cells = moved.map((c) => `cell ${c} [${counts.get(c)}]`).join(', ');
  return { order, moved, why: `run ${cells} before cell ${failingCell} [${own}]: the author ran ${many ? 'them' : 'it'} before it (execution counts), and ${many ? 'they change' : 'it changes'} ${[...touched].join(', ')}, which cell ${failingCell} reads${label ? ` (${label} is written there)` : ''}` };
}

/** The cell writes the label: a quoted key in an assignment target or a rename (`df['x'] =`, `rename(columns={'a': 'x'})`). */
function labelWritten(source: string, label: string): boolean {
  const q = escapeRe(label);
  return new RegExp(`\\[\\s*['"]${q}['"]\\s*\\]\\s*=[^=]|['"]${q}['"]\\s*\\]\\s*=[^=]|:\\s*['"]${q}['"]|\\.${q}\\s*=[^=]|\\bassign\\([^)]*\\b${q}\\s*=`).test(source);
}
