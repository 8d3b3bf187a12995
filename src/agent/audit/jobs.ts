/** One notebook of an audit and the settings it runs with (audit-wide defaults, overridden per manifest entry). */
import type { DataMount } from '../../executor/types.js';
import type { ExpectedTarget } from '../verdict.js';

export interface JobSettings {
  cellTimeoutS?: number;
  timeoutS?: number;
  allowErrors?: boolean;
  tolerance?: number;
  dataNextToNotebook?: boolean;
}

export interface AuditJob extends JobSettings {
  /** Stable key (store, artifacts): the path relative to the input, or the manifest's id. */
  id: string;
  /** Absolute path of the notebook. */
  path: string;
  data?: DataMount;
  expected?: ExpectedTarget & { higherIsBetter?: boolean };
  /** Where this job's artifacts go, relative to the audit directory. */
  artifactDir: string;
}

/** A file-system-safe, readable directory name for a job id. */
export function artifactDirFor(id: string, taken: Set<string>): string {
  const base = `notebooks/${id.replace(/\.ipynb$/i, '').replace(/[\\/]+/g, '__').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120) || 'notebook'}`;
  let dir = base;
  for (let i = 2; taken.has(dir); i++) dir = `${base}-${i}`;
  taken.add(dir);
  return dir;
}
