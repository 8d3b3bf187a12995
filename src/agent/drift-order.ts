/**
 * A drift the author's execution order explains. A stored output was printed in the state the
 * author's kernel held at that moment: a cell above with a higher execution count had not run yet
 * (`test['Fare'] = test['Fare'].astype(int)` at [507] above `test.head()` at [494], which shows the
 * float fares), and a cell below with a lower count had run already. When such a cell changes what
 * the drifted cell reads, running the pair in the author's order (later-run-cells.ts,
 * earlier-run-cells.ts: the same moves that repair errors) is a candidate. It is unproven, so, like
 * every drift candidate, it is kept only when the stored outputs then agree (generate-verify.ts).
 *
 * The oracle already leaves unjudged a cell whose effect arrived a few counts later
 * (oracle/order.ts); this reaches the cells run further apart, where the effect may or may not have
 * been in the author's first pass, and lets the record decide.
 */
import type { Notebook } from '../core/notebook.js';
import { codeCellIndices, type OrderRepair } from './execution-order.js';
import { laterRunOrder } from './later-run-cells.js';
import { earlierRunOrder } from './earlier-run-cells.js';
import type { Candidate } from './generate-verify.js';

export function authorOrderDriftCandidates(original: Notebook, work: Notebook, cell: number, runOrder?: number[]): Candidate[] {
  const current = runOrder ?? codeCellIndices(work);
  const direct = laterRunOrder(original, work, cell, current, true);
  const later = laterRunOrder(original, work, cell, current);
  const plans: Array<[OrderRepair | undefined, string]> = [
    // The smaller move first: only the cells changing what the drifted cell itself reads.
    [direct, 'run later by the author'],
    [later && (!direct || later.order.join() !== direct.order.join()) ? later : undefined, 'run later by the author'],
    [earlierRunOrder(original, work, cell, current), 'run earlier by the author'],
  ];
  return plans.filter((p): p is [OrderRepair, string] => !!p[0]).map(([plan, how]) => ({
    patch: { fixType: 'score-calibration', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits: [], summary: plan.why },
    label: `run order (${how}): cells ${plan.moved.join(', ')} ${how === 'run later by the author' ? 'after' : 'before'} cell ${cell}`,
    order: plan.order,
  }));
}
