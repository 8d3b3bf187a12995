/** The durable store: fsync'ed JSONL lines, torn-line tolerance, and the crash accounting of resume. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readStore, ResultStore, RESULTS_FILE, MAX_UNEXPLAINED_STARTS } from '../../../src/agent/audit/store.js';
import type { AuditRecord } from '../../../src/agent/audit/record.js';
import { emptyRecord } from '../../../src/agent/audit/baseline.js';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-store-'));
const rec = (id: string, verdict: AuditRecord['verdict'] = 'reproduced'): AuditRecord =>
  emptyRecord({ id, path: `/nb/${id}`, artifactDir: `notebooks/${id}` }, 'baseline', { verdict, status: 'ok', reason: 'r' });
const session = { resume: false, input: '/in', mode: 'baseline' as const, jobs: 2, notebooks: 3, options: {} };

it('round-trips sessions, starts and finished records', () => {
  const d = dir();
  const s = ResultStore.open(d, 1);
  s.sessionStart(session);
  s.started('a');
  s.started('b');
  s.finished(rec('a'));
  s.released('b', 'interrupted');
  s.close();
  const st = readStore(d);
  assert.equal(st.sessions.length, 1);
  assert.deepEqual([...st.finished.keys()], ['a']);
  assert.equal(st.finished.get('a')!.verdict, 'reproduced');
  assert.equal(st.unexplainedStarts.size, 0, 'a released notebook is not a crash suspect');
  assert.equal(st.spans.length, 1);
});

it('a torn last line is skipped on read and fenced off before the next append', () => {
  const d = dir();
  const s = ResultStore.open(d, 1);
  s.sessionStart(session);
  s.finished(rec('a'));
  s.close();
  fs.appendFileSync(path.join(d, RESULTS_FILE), '{"type":"finished","id":"b","rec');
  assert.equal(readStore(d).skipped, 1);
  const s2 = ResultStore.open(d, 2);
  s2.sessionStart({ ...session, resume: true });
  s2.finished(rec('c'));
  s2.close();
  const st = readStore(d);
  assert.deepEqual([...st.finished.keys()].sort(), ['a', 'c']);
  assert.equal(st.skipped, 1);
  assert.equal(st.sessions.length, 2);
});

it('counts the sessions that died while a notebook ran', () => {
  const d = dir();
  for (let n = 1; n <= MAX_UNEXPLAINED_STARTS; n++) {
    const s = ResultStore.open(d, n);
    s.sessionStart({ ...session, resume: n > 1 });
    s.started('killer');
    if (n === 1) {
      s.started('victim');
      s.finished(rec('other'));
    }
    s.close(); // no finished line: the process "died"
  }
  const st = readStore(d);
  assert.equal(st.unexplainedStarts.get('killer'), MAX_UNEXPLAINED_STARTS);
  assert.equal(st.unexplainedStarts.get('victim'), 1);
  assert.equal(st.unexplainedStarts.has('other'), false);
});

it('each line is on disk when the call returns (one line per record, newline-terminated)', () => {
  const d = dir();
  const s = ResultStore.open(d, 1);
  s.sessionStart(session);
  s.finished(rec('a', 'not-reproduced'));
  const text = fs.readFileSync(path.join(d, RESULTS_FILE), 'utf8');
  s.close();
  assert.ok(text.endsWith('\n'));
  assert.equal(text.trim().split('\n').length, 2);
  assert.equal(JSON.parse(text.trim().split('\n')[1]!).record.verdict, 'not-reproduced');
});
