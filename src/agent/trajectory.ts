/**
 * trajectory.jsonl (every execution and patch, in order) and edits.jsonl (before/after of each
 * changed cell with its fix type and error: a reusable dataset). Each line is appended and
 * flushed as it happens (mini-swe-agent style), so a crash keeps everything up to that point.
 */
import fs from 'node:fs';
import path from 'node:path';

export class JsonlLog {
  private fd: number;
  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }
  append(entry: Record<string, unknown>): void {
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
