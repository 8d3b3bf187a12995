/**
 * The review page's server: Node's own http on 127.0.0.1 only, a random token required on every
 * request (the page carries it in its URL; EventSource cannot send headers), the Host header
 * checked (a DNS-rebinding page cannot reach it), and writes only as JSON POSTs (no form can
 * forge one). The page (reports/review.*) is plain HTML/CSS/JS served from the project: nothing
 * from a CDN, nothing leaves the machine. Live run progress goes out as server-sent events.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { log } from '../../core/log.js';
import { reportsDir } from '../report/html.js';
import { ruleDocsPage } from './rule-docs.js';
import type { ReviewSession, RunEvent } from './session.js';

export interface ReviewServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const ASSETS: Record<string, string> = {
  '/': 'review.html',
  '/review.css': 'review.css',
  '/review.js': 'review.js',
};
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const MAX_BODY = 64 * 1024;

export async function startReviewServer(session: ReviewSession, opts: { port?: number; token?: string } = {}): Promise<ReviewServer> {
  const token = opts.token ?? crypto.randomBytes(24).toString('base64url');
  const listeners = new Set<http.ServerResponse>();
  const broadcast = (e: RunEvent) => {
    const data = `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
    for (const res of listeners) res.write(data);
  };
  let port = 0;
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log.warn(`review server: ${err instanceof Error ? err.message : String(err)}`);
      const status = (err as { status?: number }).status;
      if (!res.headersSent) send(res, status ?? 500, { error: status ? (err as Error).message : 'internal error' });
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) return send(res, 421, { error: 'wrong host' });
    if (!sameToken(url.searchParams.get('t') ?? '', token)) return send(res, 403, { error: 'missing or wrong token: open the URL the review command printed' });
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const route = `${req.method} ${url.pathname}`;
    if (req.method === 'GET' && ASSETS[url.pathname]) {
      const file = ASSETS[url.pathname]!;
      res.writeHead(200, {
        'Content-Type': TYPES[path.extname(file)]!,
        // Everything the page needs comes from here: nothing else may load.
        'Content-Security-Policy': "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'",
      });
      const body = fs.readFileSync(path.join(reportsDir(), file), 'utf8');
      // The page's own links carry the token (base64url: nothing to escape).
      return void res.end(file === 'review.html' ? body.replaceAll('{{TOKEN}}', token) : body);
    }
    const rules = /^\/rules\/([a-z-]+)\.md$/.exec(url.pathname);
    if (req.method === 'GET' && rules) {
      const page = ruleDocsPage(rules[1]!);
      if (!page) return send(res, 404, { error: 'no such rule docs' });
      res.writeHead(200, { 'Content-Type': TYPES['.html']!, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" });
      return void res.end(page);
    }
    switch (route) {
      case 'GET /api/state':
        return send(res, 200, session.view());
      case 'GET /api/events': {
        res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
        res.write(': connected\n\n');
        listeners.add(res);
        req.on('close', () => listeners.delete(res));
        return;
      }
      case 'POST /api/decide': {
        const body = await readJson(req);
        const ids = Array.isArray(body?.ids) ? body.ids.filter((x: unknown): x is string => typeof x === 'string') : [];
        if (!ids.length || (body.decision !== 'accepted' && body.decision !== 'rejected')) return send(res, 400, { error: 'expected {ids: [...], decision: "accepted"|"rejected"}' });
        if (session.isRunning) return send(res, 409, { error: 'a re-run is under way' });
        try {
          session.decide(ids, body.decision);
        } catch (err) {
          return send(res, 400, { error: (err as Error).message });
        }
        return send(res, 200, session.view());
      }
      case 'POST /api/rerun': {
        await readJson(req);
        if (!session.canRerun) return send(res, 400, { error: 're-run is not available (the review was started without a sandbox)' });
        if (session.isRunning) return send(res, 409, { error: 'a re-run is already under way' });
        // Answer at once; the progress and the verdict come as events.
        void session.rerun(broadcast).catch((err) => broadcast({ type: 'run-failed', message: String(err) }));
        return send(res, 202, { started: true });
      }
      case 'POST /api/write': {
        await readJson(req);
        if (session.isRunning) return send(res, 409, { error: 'a re-run is under way' });
        const out = session.write();
        return send(res, 200, { notebook: out.notebook, record: out.record, totals: out.content.totals, run: out.content.run });
      }
      default:
        return send(res, 404, { error: 'not found' });
    }
  }

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/?t=${token}`,
    close: () => new Promise<void>((ok) => {
      for (const res of listeners) res.end();
      server.close(() => ok());
      server.closeAllConnections();
    }),
  };
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** A small JSON body, only as application/json (a cross-site form cannot send that without a CORS preflight we never answer). */
async function readJson(req: http.IncomingMessage): Promise<any> {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) throw Object.assign(new Error('expected application/json'), { status: 415 });
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw Object.assign(new Error('the body is not JSON'), { status: 400 });
  }
}
