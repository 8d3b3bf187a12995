/** Run the real CLI (compiled bin) as a child process and capture everything. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../../src/core/paths.js';

export interface CliRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onSpawn?: (pid: number) => void } = {}): Promise<CliRun> {
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
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
