/** Run the real CLI (compiled bin) as a child process and capture everything. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';

export interface CliRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onSpawn?: (pid: number) => void; onStderr?: (soFar: string) => void } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(packageRoot(), 'bin', 'nbmodernize.js'), ...args], {
      cwd: opts.cwd ?? packageRoot(),
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid) opts.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      opts.onStderr?.(stderr);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** All live descendants of a process (from /proc), to check that a command left nothing running. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch { /* exited meanwhile */ }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}

export function alive(pid: number): boolean {
  try {
    // A zombie still answers kill(0); it has exited for our purposes.
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
