/**
 * A loopback stand-in for LLM APIs, for tests that drive the REAL SDKs through our providers.
 * Listens on 127.0.0.1 (port 0 = any free port) and speaks, non-streaming:
 *   - OpenAI Chat Completions: POST {base}/v1/chat/completions
 *   - Anthropic Messages:      POST {base}/v1/messages
 * It answers from a script: an ordered list of steps (a reply text and/or tool calls, an HTTP
 * error, a malformed body, a delay, a dropped connection), one step per request whatever the endpoint, and records
 * every request it received. When the script runs out it answers 500 "standin script exhausted".
 *
 * `session(steps)` scopes a script to one test: the session has its own base URLs (a path prefix
 * /s/<id>), its own script and its own request log, so a reply one test scripted but never used
 * cannot answer another test's request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandinStep =
  | {
      reply: string;
      /**
       * Tool calls to make (tool mode), in the request's wire format: OpenAI `tool_calls` with
       * finish_reason "tool_calls", Anthropic `tool_use` blocks with stop_reason "tool_use".
       * `reply` is the text said alongside ('' for none). Ids default to call_<request>_<k>.
       */
      toolCalls?: Array<{ name: string; input: Record<string, unknown>; id?: string }>;
      /** Model name to report (default: the model requested). */
      model?: string;
      /** Token counts to report (default: ~chars/4 of the request and the reply). */
      usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
      /** Report that the reply was cut off by max tokens. */
      truncated?: boolean;
    }
  | {
      status: number;
      message?: string;
      /** Sent as the Retry-After header (seconds, or an HTTP date). */
      retryAfter?: string | number;
      headers?: Record<string, string>;
    }
  | {
      /** A raw 200 body that is not what the API promises (invalid JSON, missing fields, ...). */
      malformed: string;
      contentType?: string;
    }
  | { delayMs: number; then?: StandinStep }
  | { hangUp: true }
  /** Decide from the request (e.g. echo a cell the prompt shows). */
  | { dynamic: (req: StandinRequest) => StandinStep };

export interface StandinRequest {
  api: 'openai' | 'anthropic' | 'unknown';
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  raw: string;
  at: number;
  /** The API key the client sent (x-api-key or Authorization: Bearer). */
  apiKey?: string;
}

export interface StandinOptions {
  /** When set, requests without this key get 401. */
  requireKey?: string;
}

/** One test's script and requests, reached through its own base URLs. */
export class StandinSession {
  readonly requests: StandinRequest[] = [];
  readonly script: StandinStep[];

  constructor(private readonly base: () => string, steps: StandinStep[]) {
    this.script = [...steps];
  }

  get openaiBaseUrl(): string { return `${this.base()}/v1`; }
  get anthropicBaseUrl(): string { return this.base(); }
  push(...steps: StandinStep[]): void { this.script.push(...steps); }
  get pending(): number { return this.script.length; }
}

export class LlmStandin {
  readonly requests: StandinRequest[] = [];
  /** Requests whose client went away while a delayed reply was held open (e.g. an aborted call). */
  abandoned = 0;
  private readonly script: StandinStep[];
  private readonly sessions = new Map<string, StandinSession>();
  private server!: http.Server;
  port = 0;

  private constructor(script: StandinStep[], private readonly opts: StandinOptions) {
    this.script = [...script];
  }

  static async start(script: StandinStep[] = [], opts: StandinOptions = {}): Promise<LlmStandin> {
    const s = new LlmStandin(script, opts);
    s.server = http.createServer((req, res) => void s.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      s.server.once('error', reject);
      s.server.listen(0, '127.0.0.1', () => resolve());
    });
    s.port = (s.server.address() as AddressInfo).port;
    return s;
  }

  /** Base URL for the OpenAI SDK (includes /v1). */
  get openaiBaseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Base URL for the Anthropic SDK (it appends /v1/messages). */
  get anthropicBaseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A script of its own for one test (see the header). */
  session(steps: StandinStep[] = []): StandinSession {
    const id = String(this.sessions.size + 1);
    const session = new StandinSession(() => `http://127.0.0.1:${this.port}/s/${id}`, steps);
    this.sessions.set(id, session);
    return session;
  }

  /** Append steps to the script. */
  push(...steps: StandinStep[]): void {
    this.script.push(...steps);
  }

  /** Drop the steps nobody asked for (a test that expects fewer calls than it scripted). */
  clearScript(): void {
    this.script.length = 0;
  }

  /**
   * For afterEach: clears the script and throws when steps were left, so the test that scripted
   * replies it never asked for fails (instead of its leftovers answering the next test's requests).
   */
  expectConsumed(): void {
    // The shared script and every session's (sessions are checked once, then forgotten).
    const left = this.script.length + [...this.sessions.values()].reduce((n, s) => n + s.pending, 0);
    this.clearScript();
    for (const s of this.sessions.values()) s.script.length = 0;
    if (left) throw new Error(`the LLM stand-in still held ${left} scripted step(s) at the end of the test: the code under test made fewer LLM calls than the test scripted`);
  }

  get pending(): number {
    return this.script.length;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: any = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const url = req.url ?? '';
    const api: StandinRequest['api'] = /\/chat\/completions$/.test(url) ? 'openai' : /\/messages$/.test(url) ? 'anthropic' : 'unknown';
    const auth = req.headers['authorization'];
    const apiKey = (req.headers['x-api-key'] as string | undefined) ?? (typeof auth === 'string' ? auth.replace(/^Bearer\s+/i, '') : undefined);
    const record: StandinRequest = { api, method: req.method ?? '', path: url, headers: req.headers, body, raw, at: Date.now(), ...(apiKey ? { apiKey } : {}) };
    this.requests.push(record);
    const scoped = /^\/s\/(\d+)\//.exec(url);
    const session = scoped ? this.sessions.get(scoped[1]!) : undefined;
    if (scoped && !session) return this.json(res, 404, { error: { message: `standin: no session ${scoped[1]}` } });
    session?.requests.push(record);

    if (req.method !== 'POST' || api === 'unknown') {
      return this.json(res, 404, { error: { message: `standin: no route ${req.method} ${url}` } });
    }
    if (this.opts.requireKey !== undefined && apiKey !== this.opts.requireKey) {
      return this.error(res, api, 401, 'invalid api key');
    }
    const step = (session?.script ?? this.script).shift();
    if (!step) return this.error(res, api, 500, 'standin script exhausted');
    await this.serve(res, api, body, step, req);
  }

  private async serve(res: http.ServerResponse, api: 'openai' | 'anthropic', body: any, step: StandinStep, req: http.IncomingMessage): Promise<void> {
    if ('delayMs' in step) {
      // Held open until the delay ends or the client goes away (an aborted request must not leave
      // a timer that keeps the test process alive).
      await new Promise<void>((r) => {
        const timer = setTimeout(r, step.delayMs);
        res.once('close', () => {
          if (!res.writableEnded) this.abandoned += 1;
          clearTimeout(timer);
          r();
        });
      });
      if (req.socket.destroyed || res.destroyed) return;
      return this.serve(res, api, body, step.then ?? { reply: 'ok' }, req);
    }
    if ('dynamic' in step) {
      return this.serve(res, api, body, step.dynamic(this.requests[this.requests.length - 1]!), req);
    }
    if ('hangUp' in step) {
      req.socket.destroy();
      return;
    }
    if ('malformed' in step) {
      res.writeHead(200, { 'content-type': step.contentType ?? 'application/json' });
      res.end(step.malformed);
      return;
    }
    if ('status' in step) {
      const headers: Record<string, string> = { ...(step.headers ?? {}) };
      if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      return this.error(res, api, step.status, step.message ?? `standin error ${step.status}`, headers);
    }
    const model = step.model ?? body?.model ?? 'standin-model';
    const promptChars = JSON.stringify(body?.messages ?? []).length + JSON.stringify(body?.system ?? '').length;
    const input = step.usage?.input ?? Math.ceil(promptChars / 4);
    const calls = (step.toolCalls ?? []).map((c, k) => ({ ...c, id: c.id ?? `call_${this.requests.length}_${k}` }));
    const output = step.usage?.output ?? Math.ceil((step.reply.length + JSON.stringify(calls).length * Number(calls.length > 0)) / 4);
    if (api === 'openai') {
      return this.json(res, 200, {
        id: `chatcmpl-standin-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{
          index: 0,
          message: {
            role: 'assistant', content: calls.length && !step.reply ? null : step.reply, refusal: null,
            ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}),
          },
          finish_reason: step.truncated ? 'length' : calls.length ? 'tool_calls' : 'stop',
          logprobs: null,
        }],
        usage: {
          prompt_tokens: input,
          completion_tokens: output,
          total_tokens: input + output,
          prompt_tokens_details: { cached_tokens: step.usage?.cacheRead ?? 0 },
        },
      });
    }
    const read = step.usage?.cacheRead ?? 0;
    const write = step.usage?.cacheWrite ?? 0;
    return this.json(res, 200, {
      id: `msg_standin_${this.requests.length}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [
        ...(step.reply || !calls.length ? [{ type: 'text', text: step.reply }] : []),
        ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
      ],
      stop_reason: step.truncated ? 'max_tokens' : calls.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: Math.max(0, input - read - write),
        output_tokens: output,
        cache_read_input_tokens: read,
        cache_creation_input_tokens: write,
      },
    });
  }

  private error(res: http.ServerResponse, api: 'openai' | 'anthropic', status: number, message: string, headers: Record<string, string> = {}): void {
    const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
    const body = api === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : { error: { message, type, code: null, param: null } };
    this.json(res, status, body, headers);
  }

  private json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}

/**
 * Stand-ins for one test file: each call starts a fresh one with its own script (so no test's
 * leftover replies reach another); all are stopped by the `after` hook given.
 */
export function standinFactory(after: (fn: () => Promise<void>) => void): (...steps: StandinStep[]) => Promise<LlmStandin> {
  const servers: LlmStandin[] = [];
  after(async () => { for (const s of servers) await s.stop(); });
  return async (...steps) => {
    const s = await LlmStandin.start(steps);
    servers.push(s);
    return s;
  };
}
