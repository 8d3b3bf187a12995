/** Run the real CLI (compiled bin) as a child process and capture everything. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';
import { descendants as procDescendants } from '../../src/executor/process-tree.js';

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

/** All descendants of a process (from /proc), to check that a command left nothing running. */
export function descendants(pid: number): number[] {
  return procDescendants(pid).map((p) => p.pid);
}

export function alive(pid: number): boolean {
  try {
    // A zombie still answers kill(0); it has exited for our purposes.
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
