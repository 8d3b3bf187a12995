/**
 * What travels through the queue: one job per notebook (its bytes, its data by competition slug,
 * its settings and the audit's run options) and one result (the record and its artifacts). The
 * job id is a hash of all that, so enqueueing the same notebook with the same options twice is
 * one job, however often the coordinator restarts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readCsvFile } from '../oracle/index.js';
import type { ExpectedTarget } from '../verdict.js';
import type { AuditJob, JobSettings } from '../audit/jobs.js';
import type { AuditRecord } from '../audit/record.js';

import type { Budgets } from '../budgets.js';

export const PAYLOAD_VERSION = 2;

/** The audit-wide options a worker needs; machine-specific ones (memory, threads) are the worker's. */
export interface QueueRunOptions {
  mode: 'baseline' | 'fix';
  sandbox: { kind: string; environment: string; project: 'notebook' | 'none' };
  /** --fix: the LLM choice and limits; API keys are the worker's own, never in the queue. */
  fix?: { llmFlags: { llm?: string; noLlm?: boolean; model?: string; baseUrl?: string; replayLlm?: string; timeoutMs?: number; maxTokens?: number; mode?: string }; budgets: Partial<Budgets> };
}

export interface QueueJobData {
  v: number;
  /** The audit's key for the notebook (path relative to the input). */
  id: string;
  /** The notebook's file name (the worker writes the bytes under it). */
  name: string;
  /** The notebook's bytes, base64. */
  notebook: string;
  artifactDir: string;
  /** Competition slug: the worker mounts <its --data-root>/<slug>. */
  data?: { competition: string; exclude?: string[] };
  settings: JobSettings;
  expected?: ExpectedTarget & { higherIsBetter?: boolean };
  options: QueueRunOptions;
}

export interface QueueJobResult {
  record: AuditRecord;
  /** gzip'ed archive (artifacts.ts), base64, or the name of the file it was written to under --artifacts-dir. */
  artifacts?: { inline?: string; file?: string; dropped?: string };
}

export function jobPayload(job: AuditJob, options: QueueRunOptions): QueueJobData {
  const settings: JobSettings = {};
  for (const k of ['cellTimeoutS', 'timeoutS', 'allowErrors', 'tolerance', 'dataNextToNotebook'] as const) {
    if (job[k] !== undefined) (settings as Record<string, unknown>)[k] = job[k];
  }
  return {
    v: PAYLOAD_VERSION,
    id: job.id,
    name: path.basename(job.path),
    notebook: fs.readFileSync(job.path).toString('base64'),
    artifactDir: job.artifactDir,
    ...(job.data ? { data: { competition: job.data.competition, ...(job.data.exclude?.length ? { exclude: job.data.exclude } : {}) } } : {}),
    settings,
    // The ground truth is a file of this machine: its rows travel instead.
    ...(job.expected ? { expected: { ...job.expected, ...(typeof job.expected.groundTruth === 'string' ? { groundTruth: readCsvFile(job.expected.groundTruth) } : {}) } } : {}),
    options,
  };
}

/** Deterministic: the notebook's bytes plus everything else the job carries (its key included, so two copies of one notebook stay two results). */
export function jobIdFor(data: QueueJobData): string {
  const { notebook, ...rest } = data;
  const h = createHash('sha256');
  h.update(Buffer.from(notebook, 'base64'));
  h.update('\0');
  h.update(stableJson(rest));
  // BullMQ ids must not be plain integers nor contain ':'.
  return `nb-${h.digest('hex').slice(0, 40)}`;
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The worker's copy of the notebook lives in another folder than the coordinator's file, and the
 * record and artifacts quote it ("... is not valid JSON", the run result's notebook path). The
 * worker puts this mark in place of its folder and the coordinator its own, so they read the same
 * as a local audit's.
 */
export const FOLDER_MARK = '@@nbmodernize-notebook-dir@@';
/** The same for the job's artifact directory (run results name the executed notebook by its absolute path). */
export const ARTIFACTS_MARK = '@@nbmodernize-artifacts-dir@@';

/** Every occurrence of `from` in text (also as a JSON string body) replaced by `to`. */
export function replacePath(text: string, from: string, to: string): string {
  const jsonFrom = JSON.stringify(from).slice(1, -1);
  const jsonTo = JSON.stringify(to).slice(1, -1);
  return text.split(jsonFrom).join(jsonTo).split(from).join(to);
}

export interface PathSwap { from: string; to: string }

/** The record with the paths it quotes swapped (worker: its folders for the marks; coordinator: the marks for its own). */
export function swapRecordPaths(record: AuditRecord, swaps: PathSwap[]): AuditRecord {
  return JSON.parse(swaps.reduce((text, s) => replacePath(text, s.from, s.to), JSON.stringify(record))) as AuditRecord;
}
