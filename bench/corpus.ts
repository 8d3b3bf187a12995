/**
 * The development corpora beside the checkout (../shared/corpus and ../shared/corpus-more), read in
 * place, with folds by source repository.
 *
 * Why folds by repository: notebooks of one repository share an author's habits (paths, helpers,
 * idioms); a rule tuned on one of them flatters every sibling. The hidden evaluation uses other
 * repositories, so a figure counts only from folds whose repositories were not looked at.
 * Fold = FNV-1a(source_repo) mod 2, per set: `corpus-0`, `corpus-1`, `more-0`, `more-1`.
 * Development looks at `corpus-0` (32 notebooks) and `more-1` (50); `corpus-1` (17) and `more-0`
 * (53, more than half of corpus-more) are reported, not studied. `more-0` is the fold no rule was
 * ever written from; `corpus-1` was seen by earlier sessions' rules, so it flatters.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/core/paths.js';

export type CorpusSet = 'corpus' | 'more';

export interface CorpusNotebook {
  name: string;
  path: string;
  competition: string;
  dataDir: string;
  set: CorpusSet;
  repo: string;
  fold: string;
}

export const DEV_FOLDS = ['corpus-0', 'more-1'];
export const HELD_OUT_FOLDS = ['corpus-1', 'more-0'];

export function sharedDir(): string {
  return path.resolve(process.env.NBM_SHARED_DIR || path.join(packageRoot(), '..', 'shared'));
}

export function corpusDir(set: CorpusSet = 'corpus'): string {
  return path.join(sharedDir(), set === 'corpus' ? 'corpus' : 'corpus-more');
}

/** 32-bit FNV-1a: stable across runs and machines (folds must never move). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(s, 'utf8')) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function foldOf(set: CorpusSet, repo: string): string {
  return `${set}-${fnv1a(repo) % 2}`;
}

function manifestRepos(root: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    const m = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8'));
    for (const n of m.notebooks ?? []) out.set(path.normalize(n.file), n.source_repo);
  } catch { /* no manifest: fold by file-name owner below */ }
  return out;
}

/** Notebooks of one set (default: the original corpus), in a stable order. */
export function corpusNotebooks(set: CorpusSet = 'corpus'): CorpusNotebook[] {
  const root = corpusDir(set);
  if (!fs.existsSync(path.join(root, 'notebooks'))) return [];
  // corpus-more has no data of its own: the competitions' standard files live in ../corpus/data.
  const dataRoot = path.join(corpusDir('corpus'), 'data');
  const repos = manifestRepos(root);
  const out: CorpusNotebook[] = [];
  for (const competition of fs.readdirSync(path.join(root, 'notebooks')).sort()) {
    for (const file of fs.readdirSync(path.join(root, 'notebooks', competition)).sort()) {
      if (!file.endsWith('.ipynb')) continue;
      const rel = path.join('notebooks', competition, file);
      const repo = repos.get(rel) ?? file.split('__')[0];
      out.push({
        name: file.replace(/\.ipynb$/, ''), path: path.join(root, rel), competition,
        dataDir: path.join(dataRoot, competition), set, repo, fold: foldOf(set, repo),
      });
    }
  }
  return out;
}

/** Select notebooks by `--set corpus|more|all` and `--folds a,b` (fold names, or `dev` / `held-out`). */
export function selectNotebooks(set: string, folds?: string): CorpusNotebook[] {
  const sets: CorpusSet[] = set === 'all' ? ['corpus', 'more'] : [set as CorpusSet];
  let list = sets.flatMap((s) => corpusNotebooks(s));
  if (folds) {
    const wanted = new Set(folds.split(',').flatMap((f) => (f === 'dev' ? DEV_FOLDS : f === 'held-out' ? HELD_OUT_FOLDS : [f])));
    list = list.filter((c) => wanted.has(c.fold));
  }
  return list;
}

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
