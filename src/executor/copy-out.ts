/**
 * Copying what a notebook wrote to its working dir into the output dir, within size caps: the
 * quota bounds what a notebook can write, these bound what every run in a batch adds to the
 * output dir (a 2 GiB checkpoint is rarely the result anyone wants). Files past a cap are
 * listed with the reason and not copied.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface CopyOutLimits {
  /** Files larger than this are not copied. */
  maxFileBytes: number;
  /** Files past this total are not copied. */
  maxTotalBytes: number;
}

export const DEFAULT_COPY_OUT_LIMITS: CopyOutLimits = { maxFileBytes: 100 * 1024 * 1024, maxTotalBytes: 200 * 1024 * 1024 };

export interface CopiedFile { name: string; bytes: number; path?: string; notCopied?: string }

/**
 * Copy `files` (relative to workDir) to destDir/<name>. Top-level files first (submission.csv
 * lives there), then by name; a file over a cap is skipped and later, smaller ones still fit.
 */
export function copyOutFiles(workDir: string, files: Array<{ name: string; bytes: number }>, destDir: string, limits: CopyOutLimits = DEFAULT_COPY_OUT_LIMITS): CopiedFile[] {
  const depth = (n: string) => n.split('/').length;
  const order = [...files].sort((a, b) => depth(a.name) - depth(b.name) || a.name.localeCompare(b.name));
  const done = new Map<string, CopiedFile>();
  let total = 0;
  for (const f of order) {
    if (f.bytes > limits.maxFileBytes) {
      done.set(f.name, { ...f, notCopied: `larger than the ${mb(limits.maxFileBytes)} MB per-file cap for copied files` });
      continue;
    }
    if (total + f.bytes > limits.maxTotalBytes) {
      done.set(f.name, { ...f, notCopied: `past the ${mb(limits.maxTotalBytes)} MB cap on all copied files` });
      continue;
    }
    const dest = path.join(destDir, f.name);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.copyFileSync(path.join(workDir, f.name), dest);
    total += f.bytes;
    done.set(f.name, { ...f, path: dest });
  }
  return files.map((f) => done.get(f.name)!);
}

function mb(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
