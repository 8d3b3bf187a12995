/** Progress text: plain lines per notebook, the live bar with done/total, reproduced, ETA and spend. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { AuditProgress } from '../../../src/agent/audit/progress.js';
import { emptyRecord } from '../../../src/agent/audit/baseline.js';

const job = (id: string) => ({ id, path: `/nb/${id}`, artifactDir: `notebooks/${id}` });

it('tracks done/total, reproduced, spend and an ETA from this session\'s pace', () => {
  let now = 0;
  const p = new AuditProgress(2, () => now);
  const prior = emptyRecord(job('old'), 'fix', { verdict: 'reproduced', status: 'ok', reason: '', llm: { calls: 1, inputTokens: 1, outputTokens: 1, costUsd: 0.5 } });
  assert.match(p.update({ type: 'plan', total: 4, todo: 3, alreadyDone: 1, crashedBefore: 0, records: [prior] })!, /4 notebooks, 1 already done, 3 to run, 2 at once/);
  assert.match(p.bar(), /1\/4 +reproduced 1 +ETA – +\$0\.50/);
  p.update({ type: 'started', job: job('a') });
  p.update({ type: 'progress', job: job('a'), progress: { phase: 'cell', cell: 3, of: 9 } });
  assert.match(p.bar(200), /▶ a \(cell 3\/9\)/);
  now = 60_000;
  const line = p.update({ type: 'finished', record: emptyRecord(job('a'), 'baseline', { verdict: 'not-reproduced', status: 'error', reason: '', taxonomy: { exceptionClass: 'KeyError', cause: 'other' }, wallMs: 61_000 }) })!;
  assert.equal(line, '[2/4] ✗ not-reproduced  a  1m01s  KeyError · other error');
  assert.match(p.bar(), /2\/4 +reproduced 1 +ETA 2m00s/);
  assert.match(p.bar(40), /^2\/4 +reproduced 1 +ETA 2m00s +\$0\.50/, 'narrow: the numbers stay, the bar goes');
  assert.match(p.update({ type: 'released', job: job('b') })!, /interrupted {2}b \(will run again on --resume\)/);
});
