/** The development corpus beside the checkout (../shared/corpus), read in place. */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';

export interface CorpusNotebook { name: string; path: string; competition: string; dataDir: string }

export function corpusDir(): string {
  return path.resolve(process.env.NBM_SHARED_DIR || path.join(packageRoot(), '..', 'shared'), 'corpus');
}

export function corpusNotebooks(): CorpusNotebook[] {
  const root = corpusDir();
  const out: CorpusNotebook[] = [];
  for (const competition of fs.readdirSync(path.join(root, 'notebooks')).sort()) {
    for (const file of fs.readdirSync(path.join(root, 'notebooks', competition)).sort()) {
      if (!file.endsWith('.ipynb')) continue;
      out.push({ name: file.replace(/\.ipynb$/, ''), path: path.join(root, 'notebooks', competition, file), competition, dataDir: path.join(root, 'data', competition) });
    }
  }
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
