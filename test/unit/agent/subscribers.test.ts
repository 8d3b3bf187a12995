/** The subscribers of the loop's one event stream: the report builder, the trajectory and edits writers. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeNotebook } from '../../support/notebooks.js';
import { judge } from '../../../src/agent/oracle/index.js';
import { DEFAULT_BUDGETS } from '../../../src/agent/budgets.js';
import { DEFAULT_VERIFY_LIMITS } from '../../../src/agent/generate-verify.js';
import { modernizationLoop } from '../../../src/agent/loop.js';
import { ReportBuilder } from '../../../src/agent/report-builder.js';
import { editsWriter, trajectoryWriter } from '../../../src/agent/trajectory.js';
import { ModernizeReport } from '../../../src/core/modernize-report.js';
import { TrajectoryLine } from '../../../src/core/trajectory-schema.js';
import { FakeEnvironment, replaceCell, scriptedFixer } from './fake-environment.js';

it('report.json, trajectory.jsonl and edits.jsonl are built from the same events', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-subs-'));
  const nb = makeNotebook(['a = 1', 'broken()', 'b = 2']);
  const env = new FakeEnvironment((src) => (src.startsWith('broken') ? { error: { ename: 'NameError', evalue: 'x' } } : undefined));
  const report = new ReportBuilder();
  const trajectory = trajectoryWriter(path.join(dir, 'trajectory.jsonl'));
  const edits = editsWriter(path.join(dir, 'edits.jsonl'));
  const stream = modernizationLoop({
    original: nb, work: nb, environment: env, fixers: [scriptedFixer('rules', [{ kind: 'patch', patch: replaceCell(1, 'fixed()') }])],
    budgets: DEFAULT_BUDGETS, spentUsd: () => 0, startedAt: Date.now(), incremental: true, verifyLimits: DEFAULT_VERIFY_LIMITS, forbiddenPaths: [],
    judge: (executed) => judge({ original: nb, current: executed }),
    stuck: { findings: [], dataFiles: [], hasData: false, llm: { enabled: false, reason: 'test' } },
  });
  for await (const e of stream) for (const on of [report.on, trajectory.on, edits.on]) on(e);
  trajectory.close();
  edits.close();

  const r = report.build({ notebookPath: 'x.ipynb', startedAt: new Date(), expected: false, incremental: true, cellExecutions: env.cellExecutions, llm: { provider: null, model: null, note: 'rules only' }, environment: null, sandbox: 'fake' });
  assert.ok(ModernizeReport.safeParse(r).success);
  assert.equal(r.verdict, 'reproduced');
  assert.deepEqual(r.baseline, { status: 'ok', error: { cell: 1, ename: 'NameError', evalue: 'x' } });
  assert.deepEqual(r.fixes.map((f) => [f.step, f.cell, f.outcome]), [[1, 1, 'clean']]);
  assert.deepEqual(r.reexecutions.map((x) => [x.mode, x.fromCell]), [['incremental', 1]]);
  assert.equal(r.fullRuns, 2, 'the first run and the final clean run');

  const lines = fs.readFileSync(path.join(dir, 'trajectory.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) assert.ok(TrajectoryLine.safeParse(l).success, `line ${l.type} fits the schema`);
  assert.ok(!lines.some((l) => l.type === 'exec'), 'live cell ticks are not trajectory lines');
  assert.deepEqual(lines.map((l) => l.type), ['run', 'execution', 'diagnosis', 'fix', 'reexecution', 'run', 'execution', 'diagnosis', 'run', 'execution', 'stop', 'verdict']);
  const edit = JSON.parse(fs.readFileSync(path.join(dir, 'edits.jsonl'), 'utf8'));
  assert.deepEqual([edit.step, edit.cell, edit.before, edit.after], [1, 1, 'broken()', 'fixed()']);
  fs.rmSync(dir, { recursive: true, force: true });
});
