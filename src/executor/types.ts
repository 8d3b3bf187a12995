/** Contracts between the executor's parts and its callers (agent, CLI). */
import type { ProjectRequest } from './project-files.js';
import type { SandboxKind } from '../core/run-result.js';

export interface DataMount {
  /** Host directory with the competition's files; mounted read-only. */
  dir: string;
  /** Slug: the data appears at /kaggle/input/<competition>/ and directly under /kaggle/input/. */
  competition: string;
  /** Top-level entries not to mount (e.g. a ground_truth/ folder kept for offline scoring). */
  exclude?: string[];
}

export interface SandboxRequest {
  kind: 'auto' | SandboxKind;
  /** Environment name (sandboxes/<name>/environment.json). */
  environment: string;
  cacheDir: string;
  data?: DataMount;
  /**
   * Also make the data files visible in the working dir (symlinks), the layout of notebooks that
   * read 'train.csv' from their own folder. Off by default: the Kaggle layout is the contract.
   */
  dataNextToNotebook?: boolean;
  /**
   * The notebook's own project (helper modules, small files, other notebooks), copied into the working
   * dir before each clean run. null: explicitly none; undefined: the caller's default (the notebook's directory).
   */
  project?: ProjectRequest | null;
  /** host backend: the python that has jupyter_server + ipykernel. */
  python?: string;
  /** remote backend. */
  url?: string;
  token?: string;
  memoryMb?: number;
  cpus?: number;
  /** Thread cap for the notebook's numeric libraries (see threadEnv); unset: the libraries' defaults. */
  threads?: number;
  pids?: number;
  /**
   * Quota (MiB) for what the notebook writes: its working dir (with the socket dir, on one
   * filesystem), and /tmp, HOME and /dev/shm each. Default DEFAULT_DISK_MB (disk-quota.ts).
   */
  diskMb?: number;
}

export interface JupyterEndpoint {
  /** http://host:port/ or http://localhost/ when talking over socketPath. */
  baseUrl: string;
  token: string;
  /** Set when the server listens on a Unix socket (docker, bwrap). */
  socketPath?: string;
}

export interface Sandbox {
  kind: SandboxKind;
  /** Why this backend (e.g. "auto: docker engine reachable and image nbmodernize/debian13:abc built"). */
  reason: string;
  endpoint: JupyterEndpoint;
  /** Host path of the notebook's writable working dir (/kaggle/working inside). */
  workDirHost: string;
  /** The working dir as the kernel sees it. */
  workDirInside: string;
  startMs: number;
  limits: Record<string, number | string | boolean>;
  environment: { name: string; hash: string; python?: string; versions?: Record<string, string> };
  /** True when the sandbox's memory limit made the kernel OOM-kill something (when knowable). */
  oomKilled(): boolean;
  /**
   * True when stop() kills every process in the sandbox (PID namespace, container): a kernel in
   * it needs no graceful shutdown first. False for host (kernels run in their own sessions) and
   * remote (the server outlives us).
   */
  killsAllOnStop?: boolean;
  /** Stop the server and everything it started; idempotent. */
  stop(): Promise<void>;
}
