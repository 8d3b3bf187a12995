/**
 * Real modernized output dirs for the review tests, made through the compiled CLI and the real
 * sandbox. The review fixture has Python 2 prints, a numpy alias and pandas .ix (static rules) and
 * a Python 2 division found only when cell 4 fails: a loop fix on top of a static change of the
 * same cell.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Notebook } from '../../src/core/notebook.js';
import { runCli } from './cli.js';
import { fixturePath } from './notebooks.js';

export const NO_LLM_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' };

export function sandboxKind(): string {
  return process.env.NBM_TEST_SANDBOX || 'bwrap';
}

export interface Modernized { notebook: string; outDir: string; originalText: string; report: any }

/** Writes `nb` to dir/nb/<name>.ipynb and modernizes it into dir/out. */
export async function modernizeInto(dir: string, name: string, nb: Notebook, opts: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Modernized & { code: number | null; stderr: string }> {
  const nbDir = path.join(dir, 'nb');
  fs.mkdirSync(nbDir, { recursive: true });
  const notebook = path.join(nbDir, `${name}.ipynb`);
  fs.writeFileSync(notebook, JSON.stringify(nb, null, 1));
  const outDir = path.join(dir, 'out');
  const r = await runCli(['modernize', notebook, '--sandbox', sandboxKind(), '--out-dir', outDir, '--json', ...(opts.args ?? ['--no-llm'])], { env: { ...NO_LLM_ENV, ...opts.env } });
  assert.ok(r.stdout, r.stderr);
  return { notebook, outDir, originalText: fs.readFileSync(notebook, 'utf8'), report: JSON.parse(r.stdout), code: r.code, stderr: r.stderr };
}

export function reviewFixture(): Notebook {
  return JSON.parse(fs.readFileSync(fixturePath('review', 'legacy-review.ipynb'), 'utf8'));
}

export async function modernizedFixture(dir: string): Promise<Modernized> {
  const m = await modernizeInto(dir, 'legacy-review', reviewFixture());
  assert.equal(m.code, 0, m.stderr);
  assert.equal(m.report.verdict, 'reproduced');
  assert.deepEqual(m.report.fixes.map((f: any) => [f.step, f.source]), [
    [0, 'py2-print-statement'], [0, 'py2-print-statement+numpy-builtin-type-aliases'], [0, 'pandas-ix'], [0, 'py2-print-statement'], [1, 'py2-integer-division-at-error'],
  ], 'the fixture still needs what the review tests rely on');
  return m;
}
