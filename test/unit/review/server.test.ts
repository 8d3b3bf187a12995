/**
 * The review server over real loopback HTTP: the token on every request, the Host header, JSON
 * only for writes, decisions answered with the new state, the page served with its token.
 * The session is built in code (no sandbox: re-run is refused as unavailable).
 */
import { it, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { Notebook } from '../../../src/core/notebook.js';
import type { ModernizeReport } from '../../../src/core/modernize-report.js';
import { startReviewServer, type ReviewServer } from '../../../src/agent/review/server.js';
import { ReviewSession } from '../../../src/agent/review/session.js';
import type { ReviewInput } from '../../../src/agent/review/changes.js';

const nb = (src: string): Notebook => ({ nbformat: 4, nbformat_minor: 4, metadata: {}, cells: [{ cell_type: 'code', source: src, metadata: {}, outputs: [], execution_count: null }] });
const input: ReviewInput = {
  outDir: '/nonexistent', name: 't', originalPath: '/nonexistent/t.ipynb', original: nb('df.ix[0]'), modernized: nb('df.loc[0]'),
  report: { verdict: 'reproduced', reason: 'ok', finalRun: { status: 'ok', wallMs: 1, errorCell: null }, comparisons: [] } as unknown as ModernizeReport,
  changes: [{ id: 'c1', fix: 1, step: 0, cell: 0, fixType: 'error-repair', sourceKind: 'rule', source: 'pandas-ix', rules: [{ id: 'pandas-ix', code: 'PD001', library: 'pandas' }], summary: '', trigger: 'static scan', before: 'df.ix[0]', after: 'df.loc[0]' }],
  unstable: [],
};

let server: ReviewServer;
after(() => server?.close());

function request(method: string, pathAndQuery: string, opts: { host?: string; body?: string; type?: string } = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path: pathAndQuery, headers: { ...(opts.host ? { Host: opts.host } : {}), ...(opts.type ? { 'Content-Type': opts.type } : {}) } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

it('listens on 127.0.0.1 with a token in the URL, and refuses requests without it or for another host', async () => {
  server = await startReviewServer(new ReviewSession(input), { token: 'secret-token' });
  assert.equal(server.url, `http://127.0.0.1:${server.port}/?t=secret-token`);
  assert.equal((await request('GET', '/api/state')).status, 403);
  assert.equal((await request('GET', '/api/state?t=wrong-token!')).status, 403);
  assert.equal((await request('GET', '/api/state?t=secret-token', { host: 'evil.example:80' })).status, 421);
  const page = await request('GET', '/?t=secret-token');
  assert.equal(page.status, 200);
  assert.match(page.body, /<script src="\/review\.js\?t=secret-token"><\/script>/);
  assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
});

it('decides through JSON posts only, answers with the new state, and says why it cannot re-run', async () => {
  assert.equal((await request('POST', '/api/decide?t=secret-token', { body: 'ids=c1&decision=rejected', type: 'application/x-www-form-urlencoded' })).status, 415);
  assert.equal((await request('POST', '/api/decide?t=secret-token', { body: '{"ids":["c9"],"decision":"rejected"}', type: 'application/json' })).status, 400);
  const ok = await request('POST', '/api/decide?t=secret-token', { body: '{"ids":["c1"],"decision":"rejected"}', type: 'application/json' });
  assert.equal(ok.status, 200);
  const view = JSON.parse(ok.body);
  assert.equal(view.changes[0].decision, 'rejected');
  assert.equal(view.cells[0].source, 'df.ix[0]');
  assert.equal(view.run.current, false);
  const rerun = await request('POST', '/api/rerun?t=secret-token', { body: '{}', type: 'application/json' });
  assert.equal(rerun.status, 400);
  assert.match(rerun.body, /not available/);
  const docs = await request('GET', '/rules/pandas.md?t=secret-token');
  assert.equal(docs.status, 200);
  assert.match(docs.body, /<h3 id="pd001">PD001 `pandas-ix`/);
  assert.equal((await request('GET', '/rules/..%2F..%2Fetc.md?t=secret-token')).status, 404);
});

it('a session takes up the decisions of an earlier review.json for the changes it still has', () => {
  const session = new ReviewSession(input);
  const base = { id: 'c1', cell: 0, step: 0, fixType: 'error-repair', sourceKind: 'rule' as const, source: 'pandas-ix', codes: ['PD001'], decision: 'rejected' as const, effect: 'rejected' as const };
  const record = (decisions: Array<typeof base>) => ({ decisions } as unknown as Parameters<ReviewSession['restore']>[0]);
  assert.equal(session.restore(record([{ ...base, source: 'other-rule' }, { ...base, id: 'c7' }])), 0, 'another change under the same id is not taken');
  assert.equal(session.decisions.get('c1'), 'accepted');
  assert.equal(session.restore(record([base])), 1);
  assert.equal(session.decisions.get('c1'), 'rejected');
});
