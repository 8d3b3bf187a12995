/** Per-job memory: available memory split over the jobs, never more than the machine has. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { planMemory, MIN_JOB_MB, MAX_JOB_MB } from '../../../src/agent/audit/memory.js';

const GiB = 2 ** 30;

it('splits available memory evenly and caps each job at 16 GiB', () => {
  const two = planMemory({ jobs: 2, freeBytes: 20 * GiB, totalBytes: 24 * GiB });
  assert.equal(two.jobs, 2);
  assert.ok(two.memoryMb * 2 < 20 * 1024, 'the jobs together stay below what is free');
  assert.ok(two.memoryMb > 8000);
  assert.equal(two.note, undefined);
  assert.equal(planMemory({ jobs: 1, freeBytes: 200 * GiB, totalBytes: 256 * GiB }).memoryMb, MAX_JOB_MB);
});

it('runs fewer at once when memory is short, and says so', () => {
  const p = planMemory({ jobs: 8, freeBytes: 4 * GiB, totalBytes: 8 * GiB });
  assert.ok(p.jobs < 8 && p.jobs >= 1);
  assert.ok(p.memoryMb >= MIN_JOB_MB);
  assert.match(p.note ?? '', /instead of 8/);
  assert.equal(planMemory({ jobs: 4, freeBytes: 0.5 * GiB, totalBytes: 1 * GiB }).jobs, 1, 'always at least one');
});

it('honours a smaller --memory, lowers a larger one', () => {
  assert.equal(planMemory({ jobs: 2, freeBytes: 20 * GiB, totalBytes: 24 * GiB, requestedMb: 2048 }).memoryMb, 2048);
  const big = planMemory({ jobs: 2, freeBytes: 8 * GiB, totalBytes: 24 * GiB, requestedMb: 16000 });
  assert.ok(big.memoryMb < 4096);
  assert.match(big.note ?? '', /--memory 16000 lowered/);
});
