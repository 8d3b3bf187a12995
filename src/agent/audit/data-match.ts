/**
 * Which competition under `--data-root` a notebook reads. The folder a notebook sits in names it when
 * the names agree; they often do not quite: Kaggle's slug is `forest-cover-type-prediction` where a data
 * root says `forest-cover-type`, a user's folders say `Titanic` or `titanic_notebooks`, or the notebooks
 * lie in one flat directory. Before, any such notebook silently ran with no data and failed on its first
 * `read_csv`, a failure no repair could reach. Now, in order:
 *  1. the folder's name equals a competition's;
 *  2. one competition's name and the folder's are the same words, or one's words start the other's
 *     (`forest-cover-type` / `forest-cover-type-prediction`), and exactly one competition qualifies;
 *  3. the notebook's code names columns or files only one competition's data holds (`'Cover_Type'`,
 *     `'SalePrice'`, `'gender_submission.csv'`): the competition with the most such names, when it has
 *     at least two and strictly more than any other.
 * Otherwise no data is matched, and the caller says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { codeCells, readNotebookFile, sourceText } from '../../core/notebook.js';

export interface CompetitionMatch {
  dir: string;
  competition: string;
  by: 'folder' | 'name' | 'content';
  /** For `content`: the names that decided it (at most five). */
  evidence?: string[];
}

/** A data root's competitions with the names their files hold (file names and CSV header columns). */
export interface DataRootIndex {
  root: string;
  competitions: Array<{ name: string; dir: string; names: Set<string> }>;
}

const words = (s: string): string[] => s.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

function startsWithWords(long: string[], short: string[]): boolean {
  return short.length > 0 && short.length <= long.length && short.every((w, i) => long[i] === w);
}

/** The first line of a CSV file, read without loading the file (train.csv files run to gigabytes). */
function csvHeader(file: string): string[] {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const line = buf.subarray(0, n).toString('utf8').split(/\r?\n/)[0] ?? '';
    return line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1')).filter((c) => c.length > 0);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function indexDataRoot(root: string): DataRootIndex {
  const competitions: DataRootIndex['competitions'] = [];
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return { root, competitions };
  }
  for (const e of entries.filter((d) => d.isDirectory() && !d.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = path.join(root, e.name);
    const names = new Set<string>();
    let files: string[] = [];
    try {
      files = fs.readdirSync(dir);
    } catch { /* unreadable: no names */ }
    for (const f of files) {
      names.add(f);
      if (/\.csv$/i.test(f)) for (const c of csvHeader(path.join(dir, f))) names.add(c);
    }
    competitions.push({ name: e.name, dir, names });
  }
  return { root, competitions };
}

/** The code cells of a notebook file, joined; empty when it cannot be read (the run reports that). */
function notebookCode(nbPath: string): string {
  try {
    return codeCells(readNotebookFile(nbPath).notebook).map(({ cell }) => sourceText(cell.source)).join('\n');
  } catch {
    return '';
  }
}

/** Names quoted in the code (`'SalePrice'`, `"train.csv"`, the file part of a quoted path). */
function quotedNames(code: string): Set<string> {
  const out = new Set<string>();
  for (const m of code.matchAll(/(['"])([^'"\n]{1,200})\1/g)) {
    const s = m[2]!;
    out.add(s);
    const base = s.split(/[\\/]/).pop();
    if (base) out.add(base);
  }
  return out;
}

export function matchCompetition(nbPath: string, index: DataRootIndex): CompetitionMatch | undefined {
  const folder = path.basename(path.dirname(nbPath));
  const exact = index.competitions.find((c) => c.name === folder);
  if (exact) return { dir: exact.dir, competition: exact.name, by: 'folder' };
  const fw = words(folder);
  const byName = index.competitions.filter((c) => {
    const cw = words(c.name);
    return startsWithWords(fw, cw) || startsWithWords(cw, fw);
  });
  if (byName.length === 1) return { dir: byName[0]!.dir, competition: byName[0]!.name, by: 'name' };
  const quoted = quotedNames(notebookCode(nbPath));
  if (quoted.size === 0) return undefined;
  const scored = index.competitions.map((c) => {
    const others = index.competitions.filter((o) => o !== c);
    const own = [...c.names].filter((n) => quoted.has(n) && !others.some((o) => o.names.has(n)));
    return { c, own };
  }).sort((a, b) => b.own.length - a.own.length);
  const [best, next] = scored;
  if (!best || best.own.length < 2 || (next && next.own.length >= best.own.length)) return undefined;
  return { dir: best.c.dir, competition: best.c.name, by: 'content', evidence: best.own.slice(0, 5) };
}
