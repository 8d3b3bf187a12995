/**
 * Record/replay of LLM traffic as JSONL (`--record-llm FILE`, `--replay-llm FILE`). One line per
 * call: the full request, its hash, and the response or the typed error. Replay answers without
 * any network: by request hash first, then (by default) in recorded order.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { log } from '../../core/log.js';
import { LlmError, type LlmErrorKind } from './errors.js';
import type { CallOptions, LlmProvider, LlmRequest, LlmResponse } from './types.js';

export const RECORD_VERSION = 1;

export interface RecordEntry {
  v: number;
  seq: number;
  hash: string;
  at: string;
  provider: string;
  model: string;
  request: LlmRequest;
  response?: LlmResponse;
  error?: { kind: LlmErrorKind; message: string; status?: number };
}

/**
 * Hash of what determines the answer: system, messages (with their tool calls), maxTokens,
 * temperature and the tools' names (not cacheKey). A plain request hashes as it always did.
 */
export function requestHash(req: LlmRequest): string {
  const canonical = JSON.stringify({
    system: req.system,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content, toolCalls: m.toolCalls?.map((c) => ({ id: c.id, name: c.name, input: c.input })), toolCallId: m.toolCallId })),
    maxTokens: req.maxTokens,
    temperature: req.temperature,
    tools: req.tools?.map((t) => t.name),
  });
  return crypto.createHash('sha256').update(canonical).digest('hex');
}

export class RecordingProvider implements LlmProvider {
  private seq = 0;

  constructor(readonly inner: LlmProvider, readonly file: string) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }

  get provider(): string { return this.inner.provider; }
  get model(): string { return this.inner.model; }
  get tools(): boolean { return this.inner.tools === true; }

  async complete(req: LlmRequest, call?: CallOptions): Promise<LlmResponse> {
    const base = {
      v: RECORD_VERSION,
      seq: this.seq++,
      hash: requestHash(req),
      at: new Date().toISOString(),
      provider: this.inner.provider,
      model: this.inner.model,
      request: req,
    };
    try {
      const response = await this.inner.complete(req, call);
      this.append({ ...base, response });
      return response;
    } catch (err) {
      if (err instanceof LlmError) {
        this.append({ ...base, error: { kind: err.llmKind, message: err.message, ...(err.details.status !== undefined ? { status: err.details.status } : {}) } });
      }
      throw err;
    }
  }

  private append(entry: RecordEntry): void {
    fs.appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}

export function readRecording(file: string): RecordEntry[] {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new LlmError('replay-exhausted', `cannot read the LLM recording ${file}: ${(err as Error).message}`);
  }
  const entries: RecordEntry[] = [];
  raw.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let e: any;
    try {
      e = JSON.parse(line);
    } catch {
      throw new LlmError('malformed-reply', `${file}:${i + 1}: not a JSON line`);
    }
    if (!e || typeof e.hash !== 'string' || !e.request || (!e.response && !e.error)) {
      throw new LlmError('malformed-reply', `${file}:${i + 1}: not an LLM record (needs hash, request and response or error)`);
    }
    entries.push(e as RecordEntry);
  });
  return entries;
}

export interface ReplayOptions {
  /** When no unused entry has the request's hash: 'sequence' (default) takes the next unused entry in order; 'none' fails. */
  fallback?: 'sequence' | 'none';
}

export class ReplayProvider implements LlmProvider {
  readonly provider: string;
  readonly model: string;
  private readonly entries: RecordEntry[];
  private readonly used: boolean[];
  /** How each call was matched, for the report and tests. */
  readonly matches: Array<'hash' | 'sequence'> = [];

  constructor(source: string | RecordEntry[], private readonly opts: ReplayOptions = {}) {
    this.entries = typeof source === 'string' ? readRecording(source) : source;
    this.used = this.entries.map(() => false);
    this.provider = this.entries[0]?.provider ?? 'replay';
    this.model = this.entries[0]?.model ?? 'replay';
    // A recorded tool conversation replays as one.
    this.tools = this.entries.some((e) => e.request.tools?.length);
  }

  readonly tools: boolean;

  get remaining(): number {
    return this.used.filter((u) => !u).length;
  }

  async complete(req: LlmRequest): Promise<LlmResponse> {
    const hash = requestHash(req);
    let idx = this.entries.findIndex((e, i) => !this.used[i] && e.hash === hash);
    let how: 'hash' | 'sequence' = 'hash';
    if (idx < 0) {
      if ((this.opts.fallback ?? 'sequence') === 'none') {
        throw new LlmError('replay-exhausted', `LLM replay: no recorded answer for this request (hash ${hash.slice(0, 12)}); ${this.remaining} unused of ${this.entries.length}`);
      }
      idx = this.used.findIndex((u) => !u);
      how = 'sequence';
      if (idx < 0) {
        throw new LlmError('replay-exhausted', `LLM replay exhausted: all ${this.entries.length} recorded calls were used and call ${this.matches.length + 1} has no answer`);
      }
      log.warn(`llm replay: request hash ${hash.slice(0, 12)} not recorded; answering with recorded call #${this.entries[idx]!.seq} in sequence order`);
    }
    this.used[idx] = true;
    this.matches.push(how);
    const e = this.entries[idx]!;
    if (e.error) {
      throw new LlmError(e.error.kind, `${e.error.message} (replayed)`, e.error.status !== undefined ? { status: e.error.status } : {});
    }
    return { ...e.response! };
  }
}
