/** Running the build's external commands with line streaming, a log file and cancellation. */
import { spawn } from 'node:child_process';

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Called for each complete line of stdout and stderr, in arrival order. */
  onLine?: (line: string) => void;
  /** Raw output goes here too (the build log). */
  log?: (chunk: string) => void;
  /** Keep stdout in memory (small outputs only: a JSON report, a package list). */
  captureStdout?: boolean;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  /** The last lines of combined output, for error messages. */
  tail: string[];
}

const TAIL_LINES = 30;

export function runCommand(argv: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortError(opts.signal));
    // Own process group, so cancelling reaches dpkg and everything debootstrap started.
    const child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let stdout = '';
    const tail: string[] = [];
    const partial = { out: '', err: '' };
    const emit = (line: string) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      opts.onLine?.(line);
    };
    const feed = (key: 'out' | 'err') => (data: Buffer) => {
      const text = data.toString('utf8');
      opts.log?.(text);
      if (key === 'out' && opts.captureStdout) stdout += text;
      const lines = (partial[key] + text).split('\n');
      partial[key] = lines.pop() ?? '';
      for (const l of lines) emit(l.replace(/\r$/, ''));
    };
    child.stdout!.on('data', feed('out'));
    child.stderr!.on('data', feed('err'));

    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 5000);
      killTimer.unref();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (err) => {
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      for (const key of ['out', 'err'] as const) if (partial[key]) emit(partial[key]);
      if (opts.signal?.aborted) return reject(abortError(opts.signal));
      resolve({ code, stdout, tail });
    });
  });
}

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    // already gone
  }
}

export function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason ?? 'aborted'));
}
