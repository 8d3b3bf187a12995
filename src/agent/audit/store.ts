/**
 * The audit's durable store: DIR/results.jsonl, append-only, one JSON object per line, each line
 * fsync'ed before the audit moves on. Only the coordinating process writes it (workers report over
 * IPC), so lines never interleave. Why not SQLite: better-sqlite3 needs a native build that this
 * project's npm refuses (install scripts are blocked), and a single writer appending whole lines
 * gets the same guarantee: a line is either complete on disk or it is not there (a torn last line
 * after a power cut is ignored on read and fenced off with a newline before appending again).
 *
 * Lines:
 *   {type:"session", n, at, pid, resume, input, mode, jobs, options}   one per `audit` invocation
 *   {type:"started", id, session, at}                                   a worker took the notebook
 *   {type:"finished", id, session, at, record}                          its AuditRecord
 *   {type:"released", id, session, at, reason}                          given back unfinished (Ctrl-C)
 *
 * A "started" with no "finished"/"released" after it means the audit process itself died (kill -9,
 * power, OOM killer) while the notebook ran. Resume runs it again, but after MAX_UNEXPLAINED_STARTS
 * such deaths it is recorded as crashed instead: a notebook that takes the audit down is not retried
 * forever. (A notebook whose worker process dies runs once more on a new worker, then is recorded as crashed.)
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditRecord } from './record.js';

export const RESULTS_FILE = 'results.jsonl';
export const MAX_UNEXPLAINED_STARTS = 3;

export interface SessionLine {
  type: 'session';
  n: number;
  at: string;
  pid: number;
  resume: boolean;
  input: string;
  mode: 'baseline' | 'fix';
  jobs: number;
  notebooks: number;
  options: Record<string, unknown>;
}

export type StoreLine =
  | SessionLine
  | { type: 'started'; id: string; session: number; at: string }
  | { type: 'finished'; id: string; session: number; at: string; record: AuditRecord }
  | { type: 'released'; id: string; session: number; at: string; reason: string };

export interface StoreState {
  sessions: SessionLine[];
  /** Finished records by id (the last one wins if a notebook was ever finished twice). */
  finished: Map<string, AuditRecord>;
  /** Ids started and never finished or released, with how many times that happened. */
  unexplainedStarts: Map<string, number>;
  /** Lines that could not be parsed (a torn last line). */
  skipped: number;
  /** Per session: when it started and its last line (the audit's elapsed time is their sum). */
  spans: Array<{ n: number; start: string; end: string }>;
}

export function readStore(dir: string): StoreState {
  const file = path.join(dir, RESULTS_FILE);
  const state: StoreState = { sessions: [], finished: new Map(), unexplainedStarts: new Map(), skipped: 0, spans: [] };
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return state;
  }
  const open = new Map<string, number>();
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let line: StoreLine;
    try {
      line = JSON.parse(raw) as StoreLine;
    } catch {
      state.skipped += 1;
      continue;
    }
    const span = state.spans[state.spans.length - 1];
    if (span && line.type !== 'session' && line.at > span.end) span.end = line.at;
    switch (line.type) {
      case 'session':
        state.sessions.push(line);
        state.spans.push({ n: line.n, start: line.at, end: line.at });
        // Whatever was running when the previous session ended without a word died with it.
        for (const [id, n] of open) state.unexplainedStarts.set(id, (state.unexplainedStarts.get(id) ?? 0) + n);
        open.clear();
        break;
      case 'started':
        open.set(line.id, (open.get(line.id) ?? 0) + 1);
        break;
      case 'finished':
        state.finished.set(line.id, line.record);
        open.delete(line.id);
        state.unexplainedStarts.delete(line.id);
        break;
      case 'released':
        open.delete(line.id);
        break;
    }
  }
  for (const [id, n] of open) state.unexplainedStarts.set(id, (state.unexplainedStarts.get(id) ?? 0) + n);
  return state;
}

export function hasStore(dir: string): boolean {
  return fs.existsSync(path.join(dir, RESULTS_FILE));
}

export class ResultStore {
  private fd: number;
  private closed = false;

  private constructor(readonly file: string, readonly session: number) {
    this.fd = fs.openSync(file, 'a');
  }

  /** Open for appending; `session` numbers this invocation. */
  static open(dir: string, session: number): ResultStore {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, RESULTS_FILE);
    // Fence off a torn last line so the next line starts on its own.
    if (fs.existsSync(file)) {
      const size = fs.statSync(file).size;
      if (size > 0) {
        const fd = fs.openSync(file, 'r');
        const b = Buffer.alloc(1);
        fs.readSync(fd, b, 0, 1, size - 1);
        fs.closeSync(fd);
        if (b[0] !== 0x0a) fs.appendFileSync(file, '\n');
      }
    }
    const store = new ResultStore(file, session);
    store.syncDir(dir);
    return store;
  }

  private syncDir(dir: string): void {
    // The file's directory entry must be durable too, or a crash right after creation loses the file.
    try {
      const d = fs.openSync(dir, 'r');
      fs.fsyncSync(d);
      fs.closeSync(d);
    } catch { /* not supported on every file system */ }
  }

  private append(line: StoreLine): void {
    if (this.closed) return;
    // One write(2) of a whole line in O_APPEND mode, then fsync: durable before we go on.
    fs.writeSync(this.fd, JSON.stringify(line) + '\n');
    fs.fsyncSync(this.fd);
  }

  sessionStart(line: Omit<SessionLine, 'type' | 'n' | 'at' | 'pid'>): void {
    this.append({ type: 'session', n: this.session, at: new Date().toISOString(), pid: process.pid, ...line });
  }

  started(id: string): void {
    this.append({ type: 'started', id, session: this.session, at: new Date().toISOString() });
  }

  finished(record: AuditRecord): void {
    this.append({ type: 'finished', id: record.id, session: this.session, at: new Date().toISOString(), record });
  }

  released(id: string, reason: string): void {
    this.append({ type: 'released', id, session: this.session, at: new Date().toISOString(), reason });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}
