/**
 * report.html in a real browser: headless Chromium (Debian's `chromium` package) driven by
 * playwright-core. The page must load from disk with no console errors and no network, draw its
 * charts and table, filter and sort, open a side-by-side diff and a trajectory. Screenshots are
 * kept in test-output/ as artifacts. Skipped only when chromium is absent and CI is not true.
 */
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/browser.js';
import { packageRoot } from '../../src/core/paths.js';
import { writeReport } from '../../src/agent/report/write.js';
import type { AuditRecord } from '../../src/agent/audit/record.js';
import { auditDir, fixAuditRecords, record } from '../unit/report/fixtures.js';

const available = fs.existsSync(CHROMIUM);
const mustRun = process.env.CI === 'true';
const outputDir = path.join(packageRoot(), 'test-output');

/** A --fix audit of 25 notebooks: the fixture's five plus twenty varied ones. */
function records(): AuditRecord[] {
  const causes = [
    ['ModuleNotFoundError', 'missing-module'], ['AttributeError', 'removed-api'], ['SyntaxError', 'python2'], ['FileNotFoundError', 'data-path'],
    ['Timeout', 'timeout'], ['KernelDied', 'kernel-death'], ['NameError', 'python2'], ['TypeError', 'removed-api'],
  ] as const;
  const extra = Array.from({ length: 20 }, (_, i) => {
    const [cls, cause] = causes[i % causes.length]!;
    const fixed = i % 3 === 0;
    const before = { verdict: 'not-reproduced' as const, status: 'error' as const, reason: `${cls} in cell ${i % 7}`, error: { cell: i % 7, ename: cls, evalue: `problem ${i}` }, taxonomy: { exceptionClass: cls, cause } };
    return record(`corpus/nb-${String(i).padStart(2, '0')}.ipynb`, {
      verdict: fixed ? 'reproduced' : 'not-reproduced',
      status: fixed ? 'ok' : 'error',
      reason: fixed ? 'clean run within budget; stored-outputs oracle matches' : `the clean run ended with error: cell ${i % 7}: ${cls}: problem ${i}`,
      oracle: 'stored-outputs',
      score: { original: 0.7 + i / 100, new: fixed ? 0.7 + i / 100 : null, label: 'cell 9' },
      ...(fixed ? {} : { error: before.error, taxonomy: { exceptionClass: cls, cause } }),
      before,
      fixes: Array.from({ length: i % 5 }, (_, k) => ({ type: k % 4 === 3 ? 'runtime-reduction' : 'error-repair', source: k % 2 ? 'gpt-4.1-mini' : 'numpy-aliases', sourceKind: k % 2 ? 'llm' : 'rule', cell: k })),
      llm: { calls: i % 5, inputTokens: 1000 * (i % 5), outputTokens: 100 * (i % 5), costUsd: 0.003 * (i % 5) },
      wallMs: 2000 + i * 9000,
      cellMs: 1000 + i * 8000,
      stopReason: fixed ? 'reproduced' : 'max-fixes',
    });
  });
  return [...fixAuditRecords(), ...extra];
}

let context: BrowserContext | undefined;
after(async () => {
  await context?.close();
});

async function openReport(): Promise<{ page: Page; errors: string[]; requests: string[]; dialogs: string[]; html: string }> {
  const dir = auditDir(records());
  const { files } = writeReport(dir);
  const launched = await launchChromium();
  context = launched.context;
  const { page, errors } = launched;
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // The page must need nothing but itself: any non-file request is recorded and refused.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(`file://${files.html}`);
  await page.waitForSelector('#nb-table tbody tr');
  return { page, errors, requests, dialogs, html: files.html };
}

const rows = (page: Page) => page.locator('#nb-table tbody tr');

it('report.html renders, filters, sorts and opens a side-by-side diff in headless Chromium', { skip: !available && !mustRun ? 'chromium is not installed (apt-get install chromium)' : false, timeout: 120_000 }, async () => {
  assert.ok(available, `CI=true but ${CHROMIUM} is missing`);
  fs.mkdirSync(outputDir, { recursive: true });
  const { page, errors, requests, dialogs, html } = await openReport();

  // Headline and charts.
  assert.match(await page.locator('#headline').innerText(), /1 \/ 25\s*→\s*9 \/ 25/);
  for (const id of ['chart-outcomes', 'chart-taxonomy', 'chart-fixtypes', 'chart-fixes', 'chart-runtime']) {
    const svgs = await page.locator(`#${id} svg`).count();
    assert.equal(svgs, 1, `${id} draws one SVG`);
    assert.ok((await page.locator(`#${id} svg rect`).count()) >= 2, `${id} has bars/cells`);
  }
  const heat = await page.locator('#chart-taxonomy svg').textContent();
  for (const label of ['removed API', 'Python 2 syntax', 'unsupported library', 'AttributeError']) assert.ok(heat!.includes(label), label);
  const box = await page.locator('#chart-runtime svg').boundingBox();
  assert.ok(box && box.width > 200 && box.height > 80, 'the runtime chart has a size');

  // Table: all rows, escaped names, no script ran from the data.
  assert.equal(await rows(page).count(), 25);
  assert.equal(await page.locator('#count').innerText(), 'showing 25 of 25');
  assert.equal(await page.locator('#nb-table tbody tr[data-id="houses/<script>alert(1)</script>.ipynb"] td').first().innerText(), 'houses/<script>alert(1)</script>.ipynb');

  // Filtering: text, verdict, a chart click; sorting by a header.
  await page.fill('#q', 'lightgbm');
  assert.equal(await rows(page).count(), 1);
  await page.click('#f-clear');
  assert.equal(await rows(page).count(), 25);
  await page.selectOption('#f-verdict', 'failed');
  assert.equal(await rows(page).count(), 1);
  await page.selectOption('#f-verdict', '');
  await page.locator('#chart-outcomes svg g.clickable', { has: page.locator('rect[data-label="fixed"]') }).click();
  const fixedRows = await rows(page).count();
  assert.equal(fixedRows, 8);
  assert.equal(await page.locator('#f-outcome').inputValue(), 'fixed');
  await page.click('#f-clear');
  await page.click('#nb-table th[data-key="time"]');
  assert.equal(await page.locator('#nb-table th[data-key="time"]').getAttribute('aria-sort'), 'descending');
  assert.equal(await rows(page).first().getAttribute('data-id'), 'houses/drift.ipynb', 'the slowest first');
  await page.screenshot({ path: path.join(outputDir, 'report.png'), fullPage: true });

  // A row opens its diff side by side, then its trajectory and compared values.
  await page.click('#nb-table tbody tr[data-id="titanic/fixed.ipynb"]');
  await page.waitForSelector('#detail:not([hidden])');
  assert.equal(await page.locator('#detail-title').innerText(), 'titanic/fixed.ipynb');
  assert.equal(await page.locator('table.sbs td.del').first().innerText(), 'row = train.ix[0]');
  assert.equal(await page.locator('table.sbs td.add').first().innerText(), 'row = train.loc[0]');
  const sbsRow = page.locator('table.sbs tr', { has: page.locator('td.del') }).first();
  assert.equal(await sbsRow.locator('td').count(), 4, 'old and new on one row');
  // The row leads to the review of that notebook's changes: the command, with the notebook's dir next to the report.
  assert.equal(await page.locator('#detail-body code.review-cmd').innerText(), `nbmodernize review ${path.dirname(html)}/notebooks/titanic_fixed_ipynb`);
  await page.screenshot({ path: path.join(outputDir, 'report-diff.png') });
  await page.click('.tabs button[data-tab="trajectory"]');
  assert.equal(await page.locator('.traj > li').count(), 3);
  assert.equal(await page.locator('.traj .cell').count(), 3);
  await page.screenshot({ path: path.join(outputDir, 'report-trajectory.png') });
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#detail').isHidden(), true);
  await page.click('#nb-table tbody tr[data-id="houses/drift.ipynb"]');
  await page.click('.tabs button[data-tab="values"]');
  assert.match(await page.locator('#detail-body table').innerText(), /0\.1234\s+0\.2\s+62\.00%/);

  assert.deepEqual(errors, [], 'no console errors');
  assert.deepEqual(requests, [], 'no network requests');
  assert.deepEqual(dialogs, [], 'nothing from the data ran as script');
});
