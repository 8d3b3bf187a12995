/**
 * A real modernized output dir for the review tests: the review fixture (Python 2 prints, a numpy
 * alias, pandas .ix — static rules — and a Python 2 division found only when cell 4 fails, a loop
 * fix on top of a static change of the same cell) copied to `dir` and modernized with rules only
 * through the compiled CLI and the real sandbox.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from './cli.js';
import { fixturePath } from './notebooks.js';

export const NO_LLM_ENV = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' };

export function sandboxKind(): string {
  return process.env.NBM_TEST_SANDBOX || 'bwrap';
}

export async function modernizedFixture(dir: string): Promise<{ notebook: string; outDir: string; originalText: string }> {
  const nbDir = path.join(dir, 'nb');
  fs.mkdirSync(nbDir, { recursive: true });
  const notebook = path.join(nbDir, 'legacy-review.ipynb');
  fs.copyFileSync(fixturePath('review', 'legacy-review.ipynb'), notebook);
  const outDir = path.join(dir, 'out');
  const r = await runCli(['modernize', notebook, '--no-llm', '--sandbox', sandboxKind(), '--out-dir', outDir, '--json'], { env: NO_LLM_ENV });
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.verdict, 'reproduced');
  assert.deepEqual(report.fixes.map((f: any) => [f.step, f.source]), [
    [0, 'py2-print-statement'], [0, 'py2-print-statement+numpy-builtin-type-aliases'], [0, 'pandas-ix'], [0, 'py2-print-statement'], [1, 'py2-integer-division-at-error'],
  ], 'the fixture still needs what the review tests rely on');
  return { notebook, outDir, originalText: fs.readFileSync(notebook, 'utf8') };
}
