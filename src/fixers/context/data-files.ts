/**
 * The data files a notebook can see, with the first lines of each CSV: the one part of the
 * context that touches the file system, kept apart so the builder stays pure.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DataFilePreview {
  /** Relative to the data directory, '/'-separated. */
  path: string;
  bytes: number;
  /** First lines of text files (CSV, TSV, TXT), each cut to maxLineChars. */
  head?: string[];
}

export interface PreviewOptions {
  maxFiles?: number;
  lines?: number;
  maxLineChars?: number;
  maxDepth?: number;
  /** Relative paths (or basenames) never listed, e.g. ground-truth files. */
  exclude?: string[];
}

const TEXT_EXT = /\.(csv|tsv|txt|json|jsonl)$/i;

export function previewDataDir(dir: string, opts: PreviewOptions = {}): DataFilePreview[] {
  const maxFiles = opts.maxFiles ?? 30;
  const lines = opts.lines ?? 3;
  const maxLineChars = opts.maxLineChars ?? 300;
  const maxDepth = opts.maxDepth ?? 3;
  const exclude = (opts.exclude ?? []).map((e) => e.replace(/\\/g, '/'));
  const out: DataFilePreview[] = [];
  const isExcluded = (rel: string): boolean =>
    exclude.some((e) => rel === e || rel.startsWith(e.replace(/\/$/, '') + '/') || path.posix.basename(rel) === e || path.resolve(dir, rel) === path.resolve(e));
  const walk = (abs: string, rel: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= maxFiles) return;
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (isExcluded(r)) continue;
      const a = path.join(abs, e.name);
      if (e.isDirectory()) {
        if (depth < maxDepth) walk(a, r, depth + 1);
        continue;
      }
      if (!e.isFile()) continue;
      const st = fs.statSync(a);
      const item: DataFilePreview = { path: r, bytes: st.size };
      if (TEXT_EXT.test(e.name) && lines > 0) item.head = headLines(a, lines, maxLineChars);
      out.push(item);
    }
  };
  walk(path.resolve(dir), '', 0);
  return out;
}

function headLines(file: string, n: number, maxLineChars: number): string[] {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(64 * 1024, (maxLineChars + 2) * n * 4));
    const read = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, read).toString('utf8').replace(/^\uFEFF/, '');
    return text.split(/\r?\n/).slice(0, n).filter((l, i, a) => i < a.length - 1 || l !== '').map((l) => (l.length > maxLineChars ? l.slice(0, maxLineChars) + '…' : l));
  } finally {
    fs.closeSync(fd);
  }
}
