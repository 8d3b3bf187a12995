/**
 * `nbmodernize worker`: takes notebooks from the queue and runs them on this machine through the
 * same worker processes and warm sandboxes as a local audit (slots.ts). A notebook's outcome, good
 * or bad, is the job's result; only what is not the notebook's doing (the process died, the
 * sandbox could not start, the data is not on this machine) fails the job, to be retried.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorMessage } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { chooseBackend } from '../../executor/sandbox.js';
import type { SandboxRequest } from '../../executor/types.js';
import type { WorkerProcess } from '../audit/pool.js';
import type { AuditJob, JobSettings } from '../audit/jobs.js';
import type { WorkerConfig } from '../audit/protocol.js';
import type { AuditRecord } from '../audit/record.js';
import { packArtifacts, shipArtifacts } from './artifacts.js';
import { consume, type JobHandle } from './bullmq.js';
import { JobGivenBack, JobRefused } from './errors.js';
import { ARTIFACTS_MARK, FOLDER_MARK, swapRecordPaths, PAYLOAD_VERSION, type QueueJobData, type QueueJobResult } from './payload.js';
import { lockTiming, malformed, refusal } from './policy.js';
import { WorkerSlots } from './slots.js';
import type { QueueConnection } from './url.js';
import { pidAlive } from '../../executor/environment/cache.js';

export interface QueueWorkerOptions {
  connection: QueueConnection;
  queueName?: string;
  concurrency: number;
  /** Competitions as <dataRoot>/<slug>. */
  dataRoot?: string;
  /** Shared storage for artifacts too large for the queue. */
  artifactsDir?: string;
  inlineLimitBytes: number;
  allowWideSandbox: boolean;
  /** This machine's sandbox settings (memory, threads, cache); the job chooses backend and environment. */
  sandbox: Omit<SandboxRequest, 'kind' | 'environment' | 'data' | 'project'>;
  /** The per-notebook budget this worker expects (seconds): sets the lock timing. */
  budgetS: number;
  /** LLM keys of this machine (--fix jobs). */
  llmEnv: Record<string, string | undefined>;
  /** Once asked to stop, how long running notebooks may take to finish before they are given back. */
  graceMs: number;
  warm: boolean;
  workerName: string;
  spawn: () => WorkerProcess;
  onJob?: (e: { type: 'taken' | 'done' | 'failed' | 'given-back'; id: string; notebook: string; detail?: string }) => void;
}

/** Statuses that say "this machine could not run it", not "the notebook does this". */
const INFRA_STATUS = new Set(['internal-error', 'environment']);

export async function serveQueue(o: QueueWorkerOptions, signal: AbortSignal): Promise<void> {
  removeOrphans(os.tmpdir());
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `${WORK_PREFIX}${process.pid}-`));
  const auditDir = path.join(workDir, 'audit');
  const slots = new WorkerSlots({ size: o.concurrency, spawn: o.spawn });
  const backends = new Map<string, Promise<string>>();
  const resolveKind = (kind: string, environment: string): Promise<string> => {
    const key = `${kind}\0${environment}`;
    if (!backends.has(key)) {
      const p = chooseBackend({ ...o.sandbox, kind: kind as SandboxRequest['kind'], environment }, { signal, autoBuild: false }).then((c) => c.kind);
      p.catch(() => backends.delete(key));
      backends.set(key, p);
    }
    return backends.get(key)!;
  };

  const handle = async (h: JobHandle): Promise<QueueJobResult> => {
    const data = h.data as QueueJobData;
    if (data?.v !== PAYLOAD_VERSION) throw new JobRefused(`job format ${data?.v} is not the ${PAYLOAD_VERSION} this worker reads (upgrade the worker or the coordinator)`);
    const why = malformed(h.id, data) ?? refusal(data.options, o.allowWideSandbox);
    if (why) throw new JobRefused(why);
    if (signal.aborted) throw new JobGivenBack('shutting down');
    o.onJob?.({ type: 'taken', id: h.id, notebook: data.id });
    let dataDir: string | undefined;
    if (data.data) {
      if (!o.dataRoot) throw new Error(`the notebook needs competition "${data.data.competition}" but this worker has no --data-root`);
      dataDir = path.join(o.dataRoot, data.data.competition);
      if (!fs.existsSync(dataDir)) throw new Error(`competition "${data.data.competition}" is not on this worker (${dataDir} does not exist)`);
    }
    const kind = await resolveKind(data.options.sandbox.kind, data.options.sandbox.environment);
    // Each job gets its own folder: the notebook travels alone, and it is its own project.
    const jobDir = path.join(workDir, 'jobs', h.id);
    fs.mkdirSync(jobDir, { recursive: true });
    const nbPath = path.join(jobDir, data.name);
    fs.writeFileSync(nbPath, Buffer.from(data.notebook, 'base64'));
    // Artifacts go to a directory only this job uses; the record's paths are put back to the audit's.
    const localArtifacts = `jobs/${h.id}`;
    const job: AuditJob = {
      ...jobSettings(data.settings),
      id: data.id,
      path: nbPath,
      artifactDir: localArtifacts,
      ...(dataDir ? { data: { dir: dataDir, competition: data.data!.competition, ...(data.data!.exclude ? { exclude: data.data!.exclude } : {}) } } : {}),
      ...(data.expected ? { expected: data.expected } : {}),
    };
    const config: WorkerConfig = {
      auditDir,
      mode: data.options.mode,
      sandbox: { ...o.sandbox, kind: kind as SandboxRequest['kind'], environment: data.options.sandbox.environment, ...(data.options.sandbox.project === 'none' ? { project: null } : {}) },
      // The next job is not known in advance here; the warm sandbox covers the start-up instead.
      prestart: false,
      warm: o.warm,
      ...(data.options.fix ? { fix: { llmEnv: o.llmEnv, ...data.options.fix } } : {}),
    };
    try {
      const outcome = await slots.run(config, job);
      if (outcome.type === 'interrupted') {
        o.onJob?.({ type: 'given-back', id: h.id, notebook: data.id });
        throw new JobGivenBack('the worker is shutting down');
      }
      if (outcome.type === 'died') throw new Error(outcome.detail);
      const record = outcome.record;
      if (INFRA_STATUS.has(record.status)) throw new Error(`${record.status}: ${record.reason}`);
      // Paths of this machine become marks the coordinator replaces with its own.
      const swaps = [{ from: path.join(auditDir, localArtifacts), to: ARTIFACTS_MARK }, { from: jobDir, to: FOLDER_MARK }];
      const result: QueueJobResult = { record: swapRecordPaths(relocate(record, localArtifacts, data.artifactDir), swaps) };
      const artifacts = shipArtifacts(packArtifacts(path.join(auditDir, localArtifacts), swaps), h.id, { inlineLimitBytes: o.inlineLimitBytes, ...(o.artifactsDir ? { artifactsDir: o.artifactsDir } : {}) });
      if (artifacts.dropped) log.warn(`${data.id}: ${artifacts.dropped}`);
      result.artifacts = artifacts;
      o.onJob?.({ type: 'done', id: h.id, notebook: data.id, detail: `${record.verdict} (${record.status})` });
      return result;
    } catch (err) {
      if (!(err instanceof JobGivenBack)) o.onJob?.({ type: 'failed', id: h.id, notebook: data.id, detail: errorMessage(err) });
      throw err;
    } finally {
      fs.rmSync(jobDir, { recursive: true, force: true });
      fs.rmSync(path.join(auditDir, localArtifacts), { recursive: true, force: true });
    }
  };

  const timing = lockTiming(o.budgetS);
  log.info(`worker ${o.workerName}: queue ${o.connection.display}, ${o.concurrency} at once, lock ${timing.lockDurationMs} ms`);
  const consumer = consume(o.connection, { ...timing, ...(o.queueName ? { name: o.queueName } : {}), concurrency: o.concurrency, workerName: o.workerName, maxStalledCount: 2 }, handle);
  await new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  // Stop taking jobs; let the running notebooks finish, up to the grace period, then give them back.
  log.info(`worker ${o.workerName}: stopping (running notebooks get ${Math.round(o.graceMs / 1000)} s to finish)`);
  const grace = setTimeout(() => slots.abort(), o.graceMs);
  try {
    await consumer.close();
  } finally {
    clearTimeout(grace);
    await slots.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

const WORK_PREFIX = 'nbm-queue-worker-';

/** Only the per-notebook settings, whatever else the job's object holds. */
function jobSettings(s: JobSettings): JobSettings {
  const out: JobSettings = {};
  if (typeof s?.cellTimeoutS === 'number') out.cellTimeoutS = s.cellTimeoutS;
  if (typeof s?.timeoutS === 'number') out.timeoutS = s.timeoutS;
  if (typeof s?.tolerance === 'number') out.tolerance = s.tolerance;
  if (s?.allowErrors === true) out.allowErrors = true;
  if (s?.dataNextToNotebook === true) out.dataNextToNotebook = true;
  return out;
}

/** Work folders of workers that were killed (kill -9 leaves them): their pid is gone. */
function removeOrphans(tmp: string): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync(tmp).filter((n) => n.startsWith(WORK_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^\D+(\d+)-/.exec(name)?.[1]);
    if (!pid || pidAlive(pid)) continue;
    fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
  }
}

/** The record as if it had run in the coordinator's audit directory. */
function relocate(record: AuditRecord, from: string, to: string): AuditRecord {
  const artifacts: Record<string, string> = {};
  for (const [k, v] of Object.entries(record.artifacts)) {
    artifacts[k] = typeof v === 'string' && (v === from || v.startsWith(`${from}/`)) ? to + v.slice(from.length) : (v as string);
  }
  return { ...record, artifacts: artifacts as AuditRecord['artifacts'] };
}
