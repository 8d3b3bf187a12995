/** Shared flag parsing for commands that run notebooks (run, and later modernize/audit/check). */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors.js';
import type { SandboxRequest } from '../executor/types.js';
import type { CliContext } from './context.js';

export const SANDBOX_FLAGS = {
  data: { type: 'string' },
  competition: { type: 'string' },
  'data-next-to-notebook': { type: 'boolean', default: false },
  'data-exclude': { type: 'string', multiple: true },
  sandbox: { type: 'string', default: 'auto' },
  env: { type: 'string', default: 'debian13' },
  python: { type: 'string' },
  url: { type: 'string' },
  token: { type: 'string' },
  memory: { type: 'string' },
  cpus: { type: 'string' },
  threads: { type: 'string' },
  disk: { type: 'string' },
  'cell-timeout': { type: 'string' },
  timeout: { type: 'string' },
  'allow-errors': { type: 'boolean', default: false },
  'project-dir': { type: 'string' },
  'no-project': { type: 'boolean', default: false },
} as const;

export function parseFlags(args: string[], options: Record<string, any>, command: string): { values: Record<string, any>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, any>, positionals };
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`, `see: nbmodernize ${command} --help`);
  }
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

export function sandboxRequestFrom(values: Record<string, any>, ctx: CliContext): SandboxRequest {
  const kind = values.sandbox as string;
  if (!['auto', 'docker', 'bwrap', 'host', 'remote'].includes(kind)) {
    throw new UsageError(`--sandbox must be auto, docker, bwrap, host or remote (got "${kind}")`);
  }
  const req: SandboxRequest = {
    kind: kind as SandboxRequest['kind'],
    environment: values.env,
    cacheDir: ctx.env.NBMODERNIZE_CACHE_DIR!,
    memoryMb: positiveNumber(values.memory, '--memory') ?? defaultMemoryMb(),
    cpus: positiveNumber(values.cpus, '--cpus'),
    ...(values.threads !== undefined ? { threads: Math.floor(positiveNumber(values.threads, '--threads')!) } : {}),
    ...(values.disk !== undefined ? { diskMb: Math.floor(positiveNumber(values.disk, '--disk')!) } : {}),
    python: values.python,
    url: values.url,
    // The token may come from the environment so it stays out of shell history and `ps`.
    token: values.token ?? ctx.env.NBMODERNIZE_REMOTE_TOKEN ?? ctx.env.JUPYTER_TOKEN,
  };
  // The notebook's own project: --project-dir DIR, none with --no-project, else the command's default
  // (the notebook's directory, filled in by projectFor once the notebook is known).
  if (values['no-project']) req.project = null;
  else if (values['project-dir']) req.project = { dir: path.resolve(ctx.cwd, values['project-dir']) };
  if (values.data) {
    const dir = path.resolve(ctx.cwd, values.data);
    req.data = { dir, competition: values.competition ?? path.basename(dir) };
    req.dataNextToNotebook = Boolean(values['data-next-to-notebook']);
    if (values['data-exclude']?.length) req.data.exclude = values['data-exclude'];
  } else if (values.competition) {
    throw new UsageError('--competition needs --data DIR (the competition files to mount)');
  }
  return req;
}

/** The request with its project defaulted to the notebook's own directory (unless set or turned off). */
export function withProjectDefault(req: SandboxRequest, notebookPath: string): SandboxRequest {
  return req.project === undefined ? { ...req, project: { dir: path.dirname(path.resolve(notebookPath)) } } : req;
}

/** Leave headroom for the host: 75% of physical memory, at most 16 GiB per sandbox. */
function defaultMemoryMb(): number {
  const total = Math.floor(os.totalmem() / (1024 * 1024));
  return Math.min(16384, Math.floor(total * 0.75));
}

/** The agent's budgets, the same flags for `modernize` and `audit --fix` (per notebook). */
export const BUDGET_FLAGS = {
  'max-fixes': { type: 'string' },
  'max-spend': { type: 'string' },
  'max-wall': { type: 'string' },
} as const;

export function budgetsFrom(values: Record<string, any>): { maxFixes?: number; spendCapUsd?: number; maxWallS?: number } {
  const maxFixes = positiveNumber(values['max-fixes'], '--max-fixes');
  const spendCapUsd = positiveNumber(values['max-spend'], '--max-spend');
  const maxWallS = positiveNumber(values['max-wall'], '--max-wall');
  return {
    ...(maxFixes !== undefined ? { maxFixes: Math.floor(maxFixes) } : {}),
    ...(spendCapUsd !== undefined ? { spendCapUsd } : {}),
    ...(maxWallS !== undefined ? { maxWallS } : {}),
  };
}

/** How long one LLM request may take and how long its reply may be: `modernize` and `audit --fix`. */
export const LLM_TUNING_FLAGS = {
  'llm-timeout': { type: 'string' },
  'llm-max-tokens': { type: 'string' },
  'llm-mode': { type: 'string' },
} as const;

export function llmTuningFrom(values: Record<string, any>): { timeoutMs?: number; maxTokens?: number; mode?: string } {
  const timeoutS = positiveNumber(values['llm-timeout'], '--llm-timeout');
  const maxTokens = positiveNumber(values['llm-max-tokens'], '--llm-max-tokens');
  return {
    ...(timeoutS !== undefined ? { timeoutMs: Math.round(timeoutS * 1000) } : {}),
    ...(maxTokens !== undefined ? { maxTokens: Math.floor(maxTokens) } : {}),
    ...(values['llm-mode'] !== undefined ? { mode: String(values['llm-mode']) } : {}),
  };
}
