/**
 * Data paths from runtime evidence. A read fails with the path the notebook built
 * (`FileNotFoundError: [Errno 2] No such file or directory: 'C:\\Users\\me\\titanic\\titanic_train.csv'`);
 * the static data-path rule could not see it because the path was assembled across cells (a directory
 * variable in one cell joined to a file name in another), or named with the author's own file names.
 *
 * The repair rewrites the string literals the path was built from, wherever they are in the notebook:
 * the whole path, a directory prefix (then every path built on it follows), and the file name when the
 * author's name differs from the competition's (`titanic_train.csv` -> `train.csv`, matched by name
 * tokens). Several equally good data files -> several candidates, in order; generate-and-verify keeps
 * the one whose run agrees with the stored outputs (a printed shape or head identifies the file).
 * A write into a directory that does not exist goes to the working directory instead.
 */
import type { Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { parseNotebookCells, disposeCells } from './engine.js';
import type { SyntaxNode } from '../python/parser.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import type { TextEdit } from './types.js';

/** Where the sandbox mounts the data, as old kernels wrote it (relative to /kaggle/working). */
export const DATA_ROOT = '../input';
/** The sandbox's HOME: a path the notebook wrote as `~/...` shows up expanded in the message. */
const SANDBOX_HOME = '/nbm/home';
/** Tokens that say nothing about which file is meant. */
const NOISE = new Set(['data', 'dataset', 'datasets', 'input', 'kaggle', 'raw', 'csv', 'file', 'files', 'df', 'the', 'all', 'new', 'final', 'original', 'my']);

export interface PathCandidate {
  patch: Patch;
  /** The data file (or directory) the candidate points at. */
  label: string;
  /** The file name says nothing about which data file (only the competition's name): the stored outputs must confirm it. */
  needsAgreement?: boolean;
}

/** The path a failing read or write names, from the error message. */
export function missingPath(ename: string, evalue: string): { path: string; write: boolean } | undefined {
  const write = /Cannot save file into a non-existent directory/.exec(evalue);
  if (write) {
    const dir = /directory:? '([^']+)'/.exec(evalue)?.[1];
    return dir ? { path: dir, write: true } : undefined;
  }
  // Kaggle's kernel template listed the data with `check_output(["ls", "../input"])`; an author's own
  // folder there fails as the command's exit status, which names the path.
  if (ename === 'CalledProcessError') {
    const ls = /Command '\['ls', (?:'-\w+', )*'([^']+)'\]' returned non-zero exit status/.exec(evalue);
    return ls ? { path: ls[1]!, write: false } : undefined;
  }
  if (!/FileNotFoundError|OSError|IOError|NotADirectoryError|ValueError/.test(ename)) return undefined;
  const m = /No such file or directory: b?'([^']+)'/.exec(evalue) ?? /No such file or directory: b?"([^"]+)"/.exec(evalue)
    ?? /File b?'?([^'\s]+)'? does not exist/.exec(evalue) ?? /^(\S+) not found\.$/.exec(evalue.trim());
  return m ? { path: m[1], write: false } : undefined;
}

/** Forward slashes, no doubled separators, `~` for the sandbox home, no trailing slash. */
function norm(p: string): string {
  let s = p.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  if (s.startsWith(SANDBOX_HOME)) s = `~${s.slice(SANDBOX_HOME.length)}`;
  return s.length > 1 ? s.replace(/\/$/, '') : s;
}

function tokens(name: string, competition?: string): string[] {
  // The competition's words in either number (`house_price_train.csv` for house-prices).
  const comp = new Set((competition ?? '').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean).flatMap((t) => [t, t.replace(/s$/, '')]));
  return name.toLowerCase().replace(/\.[a-z0-9]+$/, '').split(/[^a-z0-9]+/).filter((t) => t && !NOISE.has(t) && !comp.has(t));
}

function ext(name: string): string {
  return /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
}

/**
 * A name made only of the competition's name and words that say nothing (`titanic.csv`,
 * `house_prices_data.csv`, `bike.csv`) may mean any data file of its kind: the ones with its
 * extension, the training data first (a notebook's first read is nearly always it). Each is a guess
 * that only the stored outputs of the reading cells (a shape, a head) can confirm.
 */
export function competitionNamedFiles(base: string, dataFiles: readonly string[], competition?: string): string[] {
  if (!competition || !ext(base) || tokens(base, competition).length) return [];
  const same = dataFiles.filter((f) => ext(f) === ext(base));
  const train = (f: string) => (/(^|[^a-z])train/i.test(f.split('/').pop()!) ? 0 : 1);
  return same.sort((a, b) => train(a) - train(b) || a.localeCompare(b));
}

/**
 * Words of the author's file name that the data file's name does not explain (`dummy` in
 * `dummy_test.csv` -> `test.csv`, `clean` in `train_clean.csv`), numbers aside (`train (1).csv`, a
 * second download). Such a name often means a table the author made from the competition's data
 * (encoded, filled, scaled) and saved: mapping it to the raw file runs, but on other data.
 */
export function unexplainedTokens(base: string, file: string, competition?: string): string[] {
  const have = new Set(tokens(file.split('/').pop()!, competition));
  return tokens(base, competition).filter((t) => !have.has(t) && !/^\d+$/.test(t));
}

/** Data files the missing name may mean, best first: exact name, then by name tokens. */
export function matchDataFiles(base: string, dataFiles: readonly string[], competition?: string): string[] {
  const files = dataFiles.filter((f) => ext(f));
  const exact = files.filter((f) => f.split('/').pop()!.toLowerCase() === base.toLowerCase());
  if (exact.length) return exact;
  const want = tokens(base, competition);
  const scored = files
    .filter((f) => ext(f) === ext(base))
    .map((f) => {
      const have = tokens(f.split('/').pop()!, competition);
      // Every token of the competition's file name must be in the author's name (train ⊂ titanic_train).
      const covered = have.length > 0 && have.every((t) => want.includes(t));
      return { f, covered, score: have.filter((t) => want.includes(t)).length - 0.01 * have.length };
    })
    .filter((x) => x.covered)
    .sort((a, b) => b.score - a.score || a.f.localeCompare(b.f));
  return scored.map((x) => x.f);
}

interface Literal {
  /** An f-string: its value is the raw text, `{...}` placeholders included. */
  template?: boolean;
  cell: number;
  node: SyntaxNode;
  prefix: string;
  quote: string;
  value: string;
}

/** String literals without interpolation, with their Python value (simple escapes decoded). */
function literals(cell: number, root: SyntaxNode): Literal[] {
  const out: Literal[] = [];
  const walk = (n: SyntaxNode) => {
    if (n.type === 'string') {
      const m = /^([rRuUbBfF]*)('''|"""|'|")([\s\S]*)\2$/.exec(n.text);
      if (m) {
        const raw = /[rR]/.test(m[1]);
        const value = raw ? m[3] : m[3].replace(/\\(\\|'|"|n|t)/g, (_x, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
        out.push({ cell, node: n, prefix: m[1], quote: m[2], value, ...(/[fF]/.test(m[1]) ? { template: true } : {}) });
      }
      return;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(root);
  return out;
}

/** A literal for `value` in the style of the one it replaces (quotes kept; a raw prefix kept only if still valid). */
function literalText(l: Literal, value: string): string {
  const prefix = l.prefix.replace(/[bB]/g, '');
  return `${prefix}${l.quote}${value.replace(/\\/g, /[rR]/.test(prefix) ? '\\' : '\\\\')}${l.quote}`;
}

export async function missingPathPatches(
  nb: Notebook,
  failingCell: number,
  error: { ename: string; evalue: string },
  opts: { dataFiles: readonly string[]; competition?: string },
): Promise<PathCandidate[]> {
  // pandas reads `C://Users/...` as a URL (scheme "C") and asks for fsspec: the path is a Windows one.
  if (/Missing optional dependency 'fsspec'/.test(error.evalue)) return windowsUrlPaths(nb, failingCell, opts);
  const miss = missingPath(error.ename, error.evalue);
  if (!miss) return [];
  const target = norm(miss.path);
  const base = target.split('/').pop() ?? target;
  const cells = await parseNotebookCells(nb);
  try {
    const lits = cells.filter((c) => c.index <= failingCell || miss.write).flatMap((c) => literals(c.index, c.tree.rootNode));
    const whole = lits.filter((l) => norm(l.value) === target);
    // A directory literal the path starts with (`PATH = 'data/'`, `os.path.join(DATA, ...)`).
    const dirs = lits.filter((l) => {
      const v = norm(l.value);
      return v.length > 0 && v !== target && v !== '.' && target.startsWith(`${v}/`) && /[/\\~:]|^\.\.?$|^[\w-]+$/.test(l.value);
    });
    if (miss.write) {
      // Writes go to the working directory: drop the missing directory from every path built on it.
      const edits = lits.filter((l) => norm(l.value) === target || norm(l.value).startsWith(`${target}/`)).map((l) => ({ l, v: norm(l.value).slice(target.length).replace(/^\//, '') || '.' }));
      return edits.length ? [{ label: 'working dir', patch: patchOf(nb, edits.map(({ l, v }) => ({ l, text: literalText(l, v === '.' ? './' : v) })), `writes to ${target}/ go to the working directory`) }] : [];
    }
    const matches = ext(base) ? matchDataFiles(base, opts.dataFiles, opts.competition) : [];
    const out: PathCandidate[] = [];
    // A path template (`'data/bike/{}.csv'.format(name)`, `'data/%s.csv' % name`, an f-string) that
    // produced the missing path: its directory part moves to the data root, its placeholders stay.
    if (!whole.length && !dirs.length && matches.length) {
      const templ = lits.filter((l) => templateMatches(l.value, target));
      if (templ.length) {
        const edits = templ.map((l) => {
          const firstHole = l.value.search(/\{|%[sd]/);
          const cut = l.value.replace(/\\/g, '/').lastIndexOf('/', firstHole);
          return { l, text: literalText(l, `${DATA_ROOT}/${l.value.slice(cut + 1)}`) };
        });
        out.push({ label: matches[0], patch: patchOf(nb, edits, `${miss.path}: the path template's directory -> ${DATA_ROOT}/`) });
      }
    }
    const longestDir = dirs.sort((a, b) => norm(b.value).length - norm(a.value).length)[0];
    const guesses = matches.length || !ext(base) ? [] : competitionNamedFiles(base, opts.dataFiles, opts.competition);
    for (const file of [...matches, ...guesses]) {
      const guess = !matches.includes(file);
      // A name with words the data file's does not explain may be the author's own derived table:
      // like a guess, only the stored outputs of the reading cells (a shape, a head) can confirm it.
      const extra = guess ? [] : unexplainedTokens(base, file, opts.competition);
      const mapped = file.split('/').pop()!;
      const edits: Array<{ l: Literal; text: string }> = [];
      for (const l of whole) edits.push({ l, text: literalText(l, `${DATA_ROOT}/${file}`) });
      if (!whole.length && longestDir) {
        const v = norm(longestDir.value);
        const rest = target.slice(v.length + 1);
        edits.push({ l: longestDir, text: literalText(longestDir, /[/\\]$/.test(longestDir.value) ? `${DATA_ROOT}/` : DATA_ROOT) });
        if (rest !== file) {
          // The file name lives in another literal (`PATH + 'titanic_train.csv'`): rename it too.
          const named = lits.filter((l) => l.value.replace(/^[/\\]/, '') === rest);
          if (!named.length) continue;
          for (const l of named) edits.push({ l, text: literalText(l, l.value.replace(rest, file)) });
        }
      }
      if (!edits.length) continue;
      out.push({
        label: mapped,
        patch: patchOf(nb, edits, `${miss.path} -> ${DATA_ROOT}/${file}${guess ? ' (a name that does not say which data file: kept only if the stored outputs agree)' : extra.length ? ` (the name adds ${extra.map((t) => `'${t}'`).join(', ')}: perhaps a table the author derived; kept only if the stored outputs agree)` : ''}`),
        ...(guess || extra.length ? { needsAgreement: true } : {}),
      });
    }
    // `os.chdir` into the author's folder: stay in the working dir (writes must go there; reads that
    // relied on the folder fail next and are traced to the data one by one).
    const chdirs = whole.filter((l) => /(^|\.)chdir$/.test(l.node.parent?.parent?.childForFieldName('function')?.text ?? ''));
    if (chdirs.length) return [{ label: 'stay in the working dir', patch: patchOf(nb, chdirs.map((l) => ({ l, text: literalText(l, '.') })), `os.chdir(${miss.path}) -> stay in the working directory`) }];
    // A listing of a directory that does not exist (`os.listdir('data')`): the data root itself.
    if (!ext(base) && whole.length) {
      out.push({ label: DATA_ROOT, patch: patchOf(nb, whole.map((l) => ({ l, text: literalText(l, /[/\\]$/.test(l.value) ? `${DATA_ROOT}/` : DATA_ROOT) })), `${miss.path} -> ${DATA_ROOT}`) });
    }
    return out;
  } finally {
    disposeCells(cells);
  }
}

async function windowsUrlPaths(nb: Notebook, cell: number, opts: { dataFiles: readonly string[]; competition?: string }): Promise<PathCandidate[]> {
  const cells = await parseNotebookCells(nb);
  try {
    const parsed = cells.find((c) => c.index === cell);
    if (!parsed) return [];
    const edits = literals(cell, parsed.tree.rootNode).filter((l) => /^[A-Za-z]:[\\/]/.test(l.value)).map((l) => {
      const base = norm(l.value).split('/').pop() ?? '';
      const file = matchDataFiles(base, opts.dataFiles, opts.competition)[0];
      // A competition file is read from the data; anything else is the notebook's own output: the working dir.
      return { l, text: literalText(l, file ? `${DATA_ROOT}/${file}` : base) };
    });
    return edits.length ? [{ label: 'Windows path', patch: patchOf(nb, edits, 'Windows paths (read as URLs) -> the data or the working dir') }] : [];
  } finally {
    disposeCells(cells);
  }
}

/** Does a path template with `{...}` / `%s` placeholders produce `target`? (Only a directory part before the first placeholder.) */
function templateMatches(value: string, target: string): boolean {
  if (!/\{[^{}]*\}|%[sd]/.test(value)) return false;
  const v = norm(value);
  const firstHole = v.search(/\{|%[sd]/);
  if (v.lastIndexOf('/', firstHole) < 0) return false;
  const re = new RegExp(`^${v.split(/\{[^{}]*\}|%[sd]/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
  return re.test(target);
}

function patchOf(nb: Notebook, edits: Array<{ l: Literal; text: string }>, why: string): Patch {
  const byCell = new Map<number, TextEdit[]>();
  for (const { l, text } of edits) addCellEdit(byCell, l.cell, { start: l.node.startIndex, end: l.node.endIndex, text });
  return {
    fixType: 'error-repair',
    source: { kind: 'rule', ruleIds: ['data-path-from-error'] },
    edits: cellReplacements(nb, byCell),
    summary: `cells ${[...byCell.keys()].join(', ')}: ${why}`,
  };
}
