/**
 * Fault suite, kill -9: audits killed with SIGKILL at random moments, then resumed, must end with
 * the results of an uninterrupted run: none lost, none duplicated. Three targets, each on its own:
 * the orchestrator (then --resume), one worker process, one Jupyter server (the audit goes on by
 * itself: the notebook runs once more on a new worker / in a new sandbox). The moments are random
 * (their seed is printed); each case is one moment.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, descendants, alive, type CliRun } from '../support/cli.js';
import { comparable, readSummary, waitFor, withOutputs, writeTree } from '../support/audit-inputs.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-fault-kill9-'));
const seed = Number(process.env.NBM_FAULT_SEED ?? Date.now() % 100_000);
let state = seed;
/** Deterministic for a seed (mulberry32), so a failing moment can be replayed. */
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** Slow enough to be caught running, with every kind of outcome. */
const input = writeTree(path.join(root, 'in'), {
  ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`nb${i}.ipynb`, withOutputs([[`import time\ntime.sleep(2)\nprint(${i} * 7)`, `${i * 7}\n`]])])),
  'broken.ipynb': withOutputs([['import time\ntime.sleep(1)\nimport pandas as pd\npd.DataFrame({"a": [1]}).ix[0]', '1\n']]),
  'drifted.ipynb': withOutputs([['import time\ntime.sleep(1)\nprint(2 ** 10)', '1000\n']]),
  'malformed.ipynb': '{',
});
const N = 8;
const args = (out: string, ...extra: string[]) => ['audit', input, '--out-dir', out, '--sandbox', 'bwrap', '--jobs', '2', ...extra];

let reference: unknown;
let referenceMs = 0;

function finishedIds(out: string): string[] {
  return fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.type === 'finished').map((l) => l.id);
}

function cmdline(p: number): string {
  try {
    return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The same results as the uninterrupted run, each notebook finished exactly once. */
function assertSameResults(out: string, r: CliRun): void {
  assert.equal(r.code, 0, r.stderr.slice(-2000));
  const ids = finishedIds(out);
  assert.equal(ids.length, new Set(ids).size, `none duplicated: ${ids.join(' ')}`);
  assert.equal(ids.length, N, 'none lost');
  assert.deepEqual(comparable(readSummary(out)), reference);
}

/** Start an audit, wait a random moment within the reference run's length, kill `target` with SIGKILL. */
async function killAtRandom(out: string, target: (pid: number) => number | undefined, extra: string[] = []): Promise<{ run: Promise<CliRun>; pid: number; killed: boolean; tree: number[] }> {
  let pid = 0;
  const run = runCli(args(out, ...extra), { onSpawn: (p) => (pid = p), timeoutMs: 600_000 });
  const at = Date.now() + 500 + random() * referenceMs * 0.8;
  let victim: number | undefined;
  let ended = false;
  void run.then(() => (ended = true));
  // The moment, or the first moment after it that has a target (a worker, a server) to kill.
  await waitFor(() => ended || (Date.now() >= at && (victim = target(pid)) !== undefined), referenceMs + 120_000, 'a moment with something to kill');
  if (ended || victim === undefined) return { run, pid, killed: false, tree: [] };
  // Everything under the audit at the moment of the kill: it must all be gone afterwards.
  const tree = descendants(pid);
  try {
    process.kill(victim, 'SIGKILL');
  } catch (err) {
    // It exited between the look and the kill (the audit was finishing): nothing was killed.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    return { run, pid, killed: false, tree };
  }
  return { run, pid, killed: true, tree };
}

describe('kill -9 mid-audit', { timeout: 1_800_000 }, () => {
  before(async () => {
    const out = path.join(root, 'reference');
    const t0 = Date.now();
    const r = await runCli(args(out), { timeoutMs: 600_000 });
    referenceMs = Date.now() - t0;
    assert.equal(r.code, 0, r.stderr);
    reference = comparable(readSummary(out));
    process.stderr.write(`kill -9 faults: seed ${seed} (NBM_FAULT_SEED=${seed} replays the moments), uninterrupted run ${referenceMs} ms\n`);
  });

  for (let i = 1; i <= 4; i++) {
    it(`orchestrator killed at a random moment (${i}/4), then --resume`, async () => {
      const out = path.join(root, `orch-${i}`);
      const k = await killAtRandom(out, (pid) => pid || undefined);
      const r1 = await k.run;
      if (!k.killed) return assertSameResults(out, r1); // it finished before the moment came
      assert.equal(r1.signal, 'SIGKILL');
      // The workers see the coordinator gone and tear their sandboxes down by themselves.
      await waitFor(() => k.tree.filter(alive).length === 0, 60_000, 'the killed audit\'s processes to exit');
      const r2 = await runCli(args(out, '--resume'), { timeoutMs: 600_000 });
      assertSameResults(out, r2);
    });
  }

  const isWorker = (p: number) => cmdline(p).includes('--worker');
  const isServer = (p: number) => /jupyter|jupyter_server|serverapp/.test(cmdline(p)) && !cmdline(p).startsWith('bwrap');
  for (const [label, pick] of [['a worker', isWorker], ['a Jupyter server', isServer]] as const) {
    for (let i = 1; i <= 3; i++) {
      it(`${label} killed at a random moment (${i}/3): the audit goes on by itself`, async () => {
        const out = path.join(root, `${label.split(' ').pop()}-${i}`);
        const k = await killAtRandom(out, (pid) => {
          const found = descendants(pid).filter(pick);
          return found.length ? found[Math.floor(random() * found.length)] : undefined;
        });
        const r = await k.run;
        assertSameResults(out, r);
        assert.deepEqual(k.tree.filter(alive), [], 'nothing of the audit is left running');
      });
    }
  }
});
