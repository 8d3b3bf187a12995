/**
 * The review page in a real browser: a real modernized output dir (the review fixture through
 * `modernize --no-llm` in the sandbox), `nbmodernize review` started through the compiled CLI,
 * headless Chromium (Debian's `chromium`) driven by playwright-core. Keyboard navigation, reject
 * with dependents shown, a re-run in the sandbox whose verdict arrives live, write, and the
 * written notebook's cells and metadata. No console errors; no request leaves 127.0.0.1.
 * A screenshot per step is kept in test-output/review/.
 */
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { packageRoot } from '../../src/core/paths.js';
import { runCli, type CliRun } from '../support/cli.js';
import { modernizedFixture, modernizeInto, NO_LLM_ENV, reviewFixture, sandboxKind } from '../support/review.js';
import { makeNotebook } from '../support/notebooks.js';
import { LlmStandin } from '../support/llm-standin.js';

const available = fs.existsSync(CHROMIUM);
const mustRun = process.env.CI === 'true';
const shots = path.join(packageRoot(), 'test-output', 'review');

const contexts: BrowserContext[] = [];
const servers: Array<{ pid: number; done: Promise<CliRun> }> = [];
after(async () => {
  for (const c of contexts) await c.close();
  for (const s of servers) {
    try {
      process.kill(s.pid, 'SIGINT');
    } catch { /* already gone */ }
    await s.done;
  }
});

/** Starts `nbmodernize review` and resolves with the URL it prints. */
function startReview(outDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let pid = 0;
    const done = runCli(['review', outDir, '--no-browser', '--sandbox', sandboxKind()], {
      env: { ...NO_LLM_ENV, DISPLAY: '', WAYLAND_DISPLAY: '' },
      timeoutMs: 600_000,
      onSpawn: (p) => (pid = p),
      onStderr: (text) => {
        const m = /review: (http:\/\/127\.0\.0\.1:\d+\/\?t=[\w-]+)/.exec(text);
        if (m) resolve(m[1]!);
      },
    });
    servers.push({ pid, done });
    void done.then((r) => reject(new Error(`review exited early (${r.code}): ${r.stderr}`)));
  });
}

/** The review of `outDir` in a fresh Chromium; only the review server may be asked for anything. */
async function openReview(outDir: string): Promise<{ page: Page; errors: string[]; foreign: string[]; local: string[]; origin: string }> {
  const url = await startReview(outDir);
  const origin = new URL(url).origin;
  const { context, page, errors } = await launchChromium();
  contexts.push(context);
  const foreign: string[] = [];
  const local: string[] = [];
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (u.startsWith(`${origin}/`)) {
      local.push(u);
      return route.continue();
    }
    foreign.push(u);
    return route.abort();
  });
  await page.goto(url);
  await page.waitForSelector('article.change');
  return { page, errors, foreign, local, origin };
}

const skip = !available && !mustRun ? 'chromium is not installed (apt-get install chromium)' : false;
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
const change = (page: Page, id: string) => page.locator(`article.change[data-id="${id}"]`);

it('reviews a real modernization: keyboard, reject with dependents, live re-run, write', { skip, timeout: 600_000 }, async () => {
  assert.ok(available, `CI=true but ${CHROMIUM} is missing`);
  fs.mkdirSync(shots, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-review-'));
  const { notebook, outDir, originalText } = await modernizedFixture(dir);
  const { page, errors, foreign, local, origin } = await openReview(outDir);

  // 1. The page: every cell, every change, the verdict of modernize's final run.
  assert.equal(await page.locator('#verdict').innerText(), 'reproduced');
  assert.equal(await page.locator('section.cell').count(), 5);
  assert.equal(await page.locator('section.cell.changed').count(), 4);
  assert.deepEqual(await page.locator('article.change').evaluateAll((els) => els.map((e) => e.getAttribute('data-id'))), ['c1', 'c2', 'c3', 'c4', 'c5']);
  // Sources: both rules of cell 2, each linking to its explanation; the loop fix names its trigger.
  const links = change(page, 'c2').locator('a.rule');
  assert.deepEqual(await links.allInnerTexts(), ['PY001 py2-print-statement', 'NP001 numpy-builtin-type-aliases']);
  assert.match((await links.nth(1).getAttribute('href'))!, /^\/rules\/numpy\.md\?t=[\w-]+#np001$/);
  assert.match(await change(page, 'c5').locator('.trigger').innerText(), /^TypeError: slice indices must be integers/);
  // Side by side, word level: the removed and the added words only.
  assert.deepEqual(await change(page, 'c3').locator('.w-del').allInnerTexts(), ['ix']);
  assert.deepEqual(await change(page, 'c3').locator('.w-add').allInnerTexts(), ['loc']);
  assert.equal((await page.locator('#cell-2 .outputs .before pre').innerText()).trim(), 'total 7.25');
  assert.equal((await page.locator('#cell-2 .outputs .after pre').innerText()).trim(), 'total 7.25');
  await shot(page, '01-loaded');

  // 2. Keyboard: j/k move between changes; r rejects the focused one and shows what depends on it.
  for (let i = 0; i < 4; i++) await page.keyboard.press('j');
  await page.keyboard.press('k');
  await page.keyboard.press('j');
  assert.equal(await page.locator('article.change.focused').getAttribute('data-id'), 'c4');
  await page.keyboard.press('r');
  await page.waitForSelector('article.change[data-id="c4"] button.reject[aria-pressed="true"]');
  assert.equal(await page.locator('article.change.focused').getAttribute('data-id'), 'c4', 'focus survives the re-render');
  const deps = change(page, 'c4').locator('.deps li');
  assert.equal(await deps.count(), 1);
  assert.match(await deps.first().innerText(), /^c5 \(py2-integer-division-at-error, cell 4\) — made on top of it in the same cell; now blocked$/);
  assert.equal(await change(page, 'c5').locator('.badge.effect').innerText(), 'blocked');
  assert.match(await page.locator('#verdict').innerText(), /reproduced \(before these decisions\)/);
  await shot(page, '02-rejected-with-dependents');

  // 3. a accepts it again; then reject the loop fix itself (the last change).
  await page.keyboard.press('a');
  await page.waitForSelector('article.change[data-id="c4"] button.accept[aria-pressed="true"]');
  assert.equal(await change(page, 'c4').locator('.deps').count(), 0);
  await page.keyboard.press('j');
  await page.keyboard.press('r');
  await page.waitForSelector('article.change[data-id="c5"] button.reject[aria-pressed="true"]');
  assert.equal(await page.locator('#counts').innerText(), '5 changes: 4 accepted, 1 rejected');
  await shot(page, '03-rejected');

  // 4. Re-run in the sandbox: cells arrive live, then the verdict.
  // Cells and their outputs arrive live, before the verdict: every live output shown is recorded as it appears.
  await page.evaluate(() => {
    const seen: string[] = ((window as any).liveOutputs = []);
    new MutationObserver((records) => {
      for (const r of records) for (const n of Array.from(r.addedNodes)) if (n instanceof HTMLElement && n.matches('pre.live')) seen.push(`${n.closest('section')!.id}: ${n.textContent}`);
    }).observe(document.getElementById('cells')!, { childList: true, subtree: true });
  });
  await page.click('#rerun');
  await page.waitForSelector('#runlog li[data-cell="4"]', { timeout: 300_000 });
  await page.waitForFunction(() => document.getElementById('verdict')!.textContent === 'not-reproduced', undefined, { timeout: 300_000 });
  assert.match(await page.locator('#runlog li[data-cell="4"]').innerText(), /cell 4: error .*TypeError: slice indices/);
  const live: string[] = await page.evaluate(() => (window as any).liveOutputs);
  assert.deepEqual(live.slice(0, 3), ['cell-1: (3, 2)\n', 'cell-2: total 7.25\n', 'cell-3: b1 10\n']);
  assert.match(live[3]!, /^cell-4: TypeError: slice indices/);
  assert.match(await page.locator('#reason').innerText(), /^review re-run: the clean run ended with error/);
  assert.match(await page.locator('#cell-4 .outputs .after pre').innerText(), /TypeError: slice indices/);
  assert.equal(await page.locator('#cell-4 .outputs .stale').count(), 0, 'the outputs are of the code as decided');
  await shot(page, '04-rerun');

  // 5. Write: the reviewed notebook and the decision record; the original untouched.
  await page.click('#write');
  await page.waitForFunction(() => /^wrote /.test(document.getElementById('status')!.textContent ?? ''));
  await shot(page, '05-written');
  const reviewed = JSON.parse(fs.readFileSync(path.join(outDir, 'legacy-review.reviewed.ipynb'), 'utf8'));
  const src = (i: number) => [].concat(reviewed.cells[i].source).join('');
  assert.equal(src(3), 'print("b1", df.loc[1, "b"] * 2)');
  assert.equal(src(4), 'n = df["b"].count()\nvals = list(df["b"])\nprint("first half", vals[:n / 2])');
  assert.equal(reviewed.cells[4].outputs[0].output_type, 'error');
  assert.equal(reviewed.cells[4].outputs[0].ename, 'TypeError');
  assert.deepEqual(reviewed.cells[4].metadata.nbmodernize.review.map((r: any) => [r.id, r.decision, r.effect]), [['c4', 'accepted', 'applied'], ['c5', 'rejected', 'rejected']]);
  assert.deepEqual(reviewed.cells[4].metadata.nbmodernize.sources, ['py2-print-statement']);
  assert.equal(reviewed.cells[3].metadata.nbmodernize.changed, true);
  assert.equal(reviewed.cells[0].metadata.nbmodernize, undefined, 'the markdown cell is not marked');
  assert.equal(reviewed.metadata.nbmodernize.verdict, 'not-reproduced');
  const record = JSON.parse(fs.readFileSync(path.join(outDir, 'review.json'), 'utf8'));
  assert.deepEqual(record.totals, { changes: 5, accepted: 4, rejected: 1, blocked: 0 });
  assert.deepEqual(record.run, { from: 'review', verdict: 'not-reproduced', reason: record.run.reason, current: true });
  assert.equal(fs.readFileSync(notebook, 'utf8'), originalText, 'the original is never modified');

  // 6. A rule's explanation is served by the same server, anchored by its code.
  await page.goto(new URL((await links.nth(1).getAttribute('href'))!, origin).href);
  assert.match(await page.locator('#np001').innerText(), /^NP001 `numpy-builtin-type-aliases`/);
  await shot(page, '06-rule-docs');

  assert.deepEqual(errors, [], 'no console errors');
  assert.deepEqual(foreign, [], 'no request left 127.0.0.1');
  assert.ok(local.some((u) => u.includes('/api/events')), 'the live run came as server-sent events');
});

it('marks the numbers that drifted, in the stored outputs and in the final run', { skip, timeout: 600_000 }, async () => {
  const nb = reviewFixture();
  // The author's run printed 12 where the code gives 10: a drift no rule can fix.
  (nb.cells[3] as any).outputs[0].text = 'b1 12\n';
  const m = await modernizeInto(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-review-drift-')), 'drifted', nb);
  assert.equal(m.report.verdict, 'not-reproduced', m.stderr);
  const { page, errors, foreign } = await openReview(m.outDir);
  // Modernize stopped without a final run: its verdict, and the outputs after come from a re-run.
  assert.equal(await page.locator('#verdict').innerText(), 'not-reproduced (no final run)');
  assert.match(await page.locator('#reason').innerText(), /^modernize stopped without a final run: .*cell 3/);
  await page.click('#rerun');
  await page.waitForFunction(() => document.getElementById('verdict')!.textContent === 'not-reproduced', undefined, { timeout: 300_000 });
  assert.match(await page.locator('#reason').innerText(), /^review re-run: results drifted beyond tolerance \(stored-outputs: cell 3: 12 -> 10\)/);
  assert.deepEqual(await page.locator('#cell-3 .outputs .before mark.drift').allInnerTexts(), ['12']);
  assert.deepEqual(await page.locator('#cell-3 .outputs .after mark.drift').allInnerTexts(), ['10']);
  assert.equal(await page.locator('#cell-2 mark.drift').count(), 0, 'a cell that agrees has nothing marked');
  await page.locator('#cell-3').screenshot({ path: path.join(shots, '07-drift.png') });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
});

it('shows a model-made change with the model, the prompt it was shown and its reply', { skip, timeout: 600_000 }, async () => {
  const nb = makeNotebook(['import math', 'print(math.sqroot(16))']);
  (nb.cells[1] as any).outputs = [{ output_type: 'stream', name: 'stdout', text: '4.0\n' }];
  const standin = await LlmStandin.start([{ reply: 'Plan: a typo in the function name.\n```python\nprint(math.sqrt(16))\n```' }]);
  let m;
  try {
    m = await modernizeInto(fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-review-llm-')), 'typo', nb, {
      args: ['--llm', 'openai', '--model', 'gpt-4.1-mini'],
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: standin.openaiBaseUrl },
    });
  } finally {
    await standin.stop();
  }
  assert.equal(m.report.verdict, 'reproduced', m.stderr);
  const { page, errors, foreign } = await openReview(m.outDir);
  const c1 = change(page, 'c1');
  assert.equal(await c1.locator('.sources').innerText(), 'model gpt-4.1-mini');
  assert.match(await c1.locator('.trigger').innerText(), /^AttributeError: module 'math' has no attribute 'sqroot'/);
  await c1.locator('details summary', { hasText: 'prompt' }).click();
  assert.match(await c1.locator('details pre').first().innerText(), /sqroot/);
  await c1.locator('details summary', { hasText: 'reply 1' }).click();
  assert.match(await c1.locator('details pre').nth(1).innerText(), /^Plan: a typo in the function name\./);
  await page.screenshot({ path: path.join(shots, '08-llm-change.png'), fullPage: true });
  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, []);
});
