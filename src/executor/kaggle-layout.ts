/**
 * The Kaggle directory layout old notebooks expect. Inside docker/bwrap:
 *   /kaggle/input/<competition>/...   the data, read-only
 *   /kaggle/input/<file>              the same files again, for kernels that read ../input/train.csv
 *   /kaggle/working                   the writable working dir (cwd); what lands here is copied out
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotebookInputError } from '../core/errors.js';
import type { DataMount } from './types.js';

export const KAGGLE_INPUT = '/kaggle/input';
export const KAGGLE_WORKING = '/kaggle/working';

export interface Mount { hostPath: string; target: string; readOnly: boolean }

export function validateDataMount(data: DataMount): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(data.dir);
  } catch {
    throw new NotebookInputError(`data directory ${data.dir} does not exist`, 'missing-data', 'pass --data DIR with the competition files');
  }
  if (!st.isDirectory()) throw new NotebookInputError(`data path ${data.dir} is not a directory`, 'missing-data');
  if (!/^[A-Za-z0-9._-]+$/.test(data.competition)) {
    throw new NotebookInputError(`competition slug "${data.competition}" may only hold letters, digits, '.', '_' and '-'`, 'missing-data');
  }
}

/** Read-only mounts for the data: the directory under its slug, and each top-level entry directly. */
export function dataMounts(data: DataMount): Mount[] {
  validateDataMount(data);
  const dir = path.resolve(data.dir);
  const exclude = new Set(data.exclude ?? []);
  const entries = fs.readdirSync(dir).sort().filter((e) => !e.startsWith('.') && !exclude.has(e));
  // With exclusions the competition dir is assembled entry by entry, so what is excluded is not there at all.
  const mounts: Mount[] = exclude.size
    ? entries.map((e) => ({ hostPath: path.join(dir, e), target: `${KAGGLE_INPUT}/${data.competition}/${e}`, readOnly: true }))
    : [{ hostPath: dir, target: `${KAGGLE_INPUT}/${data.competition}`, readOnly: true }];
  for (const entry of entries) {
    if (entry === data.competition) continue;
    mounts.push({ hostPath: path.join(dir, entry), target: `${KAGGLE_INPUT}/${entry}`, readOnly: true });
  }
  return mounts;
}

/** Files the notebook left in its working dir (what `submission.csv` users look for). */
export function listProducedFiles(workDir: string, ignore: Set<string> = new Set()): Array<{ name: string; bytes: number }> {
  const out: Array<{ name: string; bytes: number }> = [];
  const visit = (rel: string) => {
    const abs = path.join(workDir, rel);
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (ignore.has(r) || entry.name === '.ipynb_checkpoints' || entry.name === '__pycache__') continue;
      if (entry.isDirectory()) visit(r);
      else if (entry.isFile()) out.push({ name: r, bytes: fs.statSync(path.join(workDir, r)).size });
    }
  };
  if (fs.existsSync(workDir)) visit('');
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Symlinks in the working dir to each data entry (`target` is where the entry is seen from inside). */
export function linkDataIntoWorkDir(workDir: string, data: DataMount, insidePath: (m: Mount) => string): void {
  for (const m of dataMounts(data)) {
    const slugDir = `${KAGGLE_INPUT}/${data.competition}`;
    if (m.target === slugDir || m.target.startsWith(`${slugDir}/`)) continue;
    const link = path.join(workDir, path.basename(m.target));
    if (!fs.existsSync(link)) fs.symlinkSync(insidePath(m), link);
  }
}
