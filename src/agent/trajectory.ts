/**
 * trajectory.jsonl: the loop's events, one a line (schema: schemas/trajectory-event.schema.json),
 * except the live cell ticks whose content the `execution` event carries; and edits.jsonl (before
 * and after of each changed cell with its fix type and error: a reusable dataset), from the same
 * `fix` events. Each line is appended and flushed as it happens (mini-swe-agent style), so a
 * crash keeps everything up to that point.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from './events.js';

export class JsonlLog {
  private fd: number;
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }
  append(entry: object): void {
    fs.writeSync(this.fd, JSON.stringify({ at: new Date().toISOString(), ...entry }) + '\n');
  }
  close(): void {
    try {
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }
}

export function trajectoryWriter(file: string): { on: (e: AgentEvent) => void; close: () => void } {
  const log = new JsonlLog(file);
  return { on: (e) => e.type !== 'exec' && log.append(e), close: () => log.close() };
}

export function editsWriter(file: string): { on: (e: AgentEvent) => void; close: () => void } {
  const log = new JsonlLog(file);
  return {
    on: (e) => {
      if (e.type !== 'fix') return;
      for (const c of e.changes) log.append({ step: e.fix.step, cell: c.cell, fixType: e.fix.type, source: e.fix.source, before: c.before, after: c.after, trigger: e.fix.trigger, error: e.error });
    },
    close: () => log.close(),
  };
}
