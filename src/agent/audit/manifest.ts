/**
 * The audit's INPUT: a directory of notebooks (searched recursively), a single notebook, or a
 * manifest (JSON or CSV) with one entry per notebook. Manifest problems are reported all at once,
 * before anything runs: an audit of a thousand notebooks should not die on entry 917.
 * A notebook that is missing or unreadable is NOT a manifest problem: it becomes a "failed" row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { isMetricName, parseCsv, ScoringError, type MetricName } from '../oracle/index.js';
import type { DataMount } from '../../executor/types.js';
import { artifactDirFor, type AuditJob, type JobSettings } from './jobs.js';
import { indexDataRoot, matchCompetition, type CompetitionMatch, type DataRootIndex } from './data-match.js';

export interface InputOptions {
  /** --data DIR: the same data for every notebook of a directory input (a manifest entry overrides it). */
  data?: DataMount;
  /** --data-root DIR: competitions as subdirectories; a notebook's competition is found by data-match.ts. */
  dataRoot?: string;
  /** Audit-wide settings from the flags; a manifest's "defaults" and each entry override them. */
  defaults: JobSettings;
  /** Never audit notebooks inside this directory (the audit's own output). */
  exclude?: string;
}

export interface LoadedInput {
  kind: 'directory' | 'manifest' | 'notebook';
  root: string;
  jobs: AuditJob[];
  /** How notebooks of a directory input were matched to --data-root's competitions, when not all by folder name. */
  dataNotes?: string[];
}

export class ManifestError extends UsageError {
  constructor(file: string, readonly problems: string[]) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} in the manifest:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`, 'see docs/audit.md for the manifest format');
  }
}

export function loadInput(input: string, opts: InputOptions): LoadedInput {
  const abs = path.resolve(input);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new UsageError(`${input} does not exist`, 'audit takes a directory of notebooks or a manifest (.json or .csv)');
  }
  const matcher = dataMatcher(opts);
  const withNotes = (input: Omit<LoadedInput, 'dataNotes'>): LoadedInput => {
    const notes = matcher.notes();
    return { ...input, ...(notes.length ? { dataNotes: notes } : {}) };
  };
  if (st.isDirectory()) return withNotes({ kind: 'directory', root: abs, jobs: directoryJobs(abs, opts, matcher) });
  if (/\.ipynb$/i.test(abs)) {
    const id = path.basename(abs);
    return withNotes({ kind: 'notebook', root: path.dirname(abs), jobs: [{ ...opts.defaults, id, path: abs, ...matcher.dataFor(abs), artifactDir: artifactDirFor(id, new Set()) }] });
  }
  if (/\.(json|csv)$/i.test(abs)) return { kind: 'manifest', root: path.dirname(abs), jobs: manifestJobs(abs, opts) };
  throw new UsageError(`${input}: not a directory, a notebook or a manifest (.json / .csv)`);
}

/** Data for each notebook: --data for all, else --data-root's competition the notebook reads (data-match.ts); notes on how. */
function dataMatcher(opts: InputOptions): { dataFor(nbPath: string): { data?: DataMount }; notes(): string[] } {
  let index: DataRootIndex | undefined;
  const by: Record<CompetitionMatch['by'] | 'none', string[]> = { folder: [], name: [], content: [], none: [] };
  return {
    dataFor(nbPath) {
      if (opts.data) return { data: opts.data };
      if (!opts.dataRoot) return {};
      index ??= indexDataRoot(opts.dataRoot);
      const m = matchCompetition(nbPath, index);
      if (!m) {
        by.none.push(path.basename(nbPath));
        return {};
      }
      by[m.by].push(`${path.basename(nbPath)} -> ${m.competition}${m.evidence ? ` (${m.evidence.join(', ')})` : ''}`);
      return { data: { dir: m.dir, competition: m.competition } };
    },
    notes() {
      const list = (xs: string[]) => `${xs.slice(0, 5).join('; ')}${xs.length > 5 ? `; ... ${xs.length - 5} more` : ''}`;
      return [
        ...(by.name.length ? [`${by.name.length} notebook(s) matched to a --data-root competition by a similar folder name: ${list(by.name)}`] : []),
        ...(by.content.length ? [`${by.content.length} notebook(s) matched to a --data-root competition by the columns and files their code names: ${list(by.content)}`] : []),
        ...(by.none.length ? [`${by.none.length} notebook(s) match no competition under --data-root (folder name, similar name or the columns their code names) and run without data: ${list(by.none)}`] : []),
      ];
    },
  };
}

function isFileTarget(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false; // a dangling link
  }
}

function directoryJobs(root: string, opts: InputOptions, matcher: ReturnType<typeof dataMatcher>): AuditJob[] {
  const found: string[] = [];
  const exclude = opts.exclude ? path.resolve(opts.exclude) : undefined;
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.name.startsWith('.') || e.name === 'node_modules' || e.name === '__pycache__') continue;
      if (exclude && (p === exclude || p.startsWith(exclude + path.sep))) continue;
      if (e.isDirectory()) visit(p);
      // A symlinked notebook counts (a sample assembled from links); symlinked folders are not followed (cycles).
      else if (/\.ipynb$/i.test(e.name) && (e.isFile() || (e.isSymbolicLink() && isFileTarget(p)))) found.push(p);
    }
  };
  visit(root);
  const taken = new Set<string>();
  return found.map((p) => {
    const id = path.relative(root, p).split(path.sep).join('/');
    return { ...opts.defaults, id, path: p, ...matcher.dataFor(p), artifactDir: artifactDirFor(id, taken) };
  });
}

// ------------------------------------------------------------------ manifests

/** Accepted keys (camelCase or snake_case) -> canonical name. */
const KEYS: Record<string, string> = {
  id: 'id', path: 'path', notebook: 'path', data: 'data', data_dir: 'data', datadir: 'data', competition: 'competition',
  expected: 'expected', expectedscore: 'expected', expected_score: 'expected', score: 'expected', metric: 'metric',
  higherisbetter: 'higherIsBetter', higher_is_better: 'higherIsBetter',
  groundtruth: 'groundTruth', ground_truth: 'groundTruth',
  idcolumn: 'idColumn', id_column: 'idColumn', targetcolumn: 'targetColumn', target_column: 'targetColumn',
  truthtargetcolumn: 'truthTargetColumn', truth_target_column: 'truthTargetColumn',
  positivelabel: 'positiveLabel', positive_label: 'positiveLabel',
  timeout: 'timeout', timeout_s: 'timeout', celltimeout: 'cellTimeout', cell_timeout: 'cellTimeout',
  allowerrors: 'allowErrors', allow_errors: 'allowErrors', tolerance: 'tolerance',
  datanexttonotebook: 'dataNextToNotebook', data_next_to_notebook: 'dataNextToNotebook',
};

type Entry = Record<string, unknown>;

function canonical(raw: Entry, where: string, problems: string[]): Entry {
  const out: Entry = {};
  for (const [k, v] of Object.entries(raw)) {
    const key = KEYS[k.toLowerCase().replace(/-/g, '_')] ?? KEYS[k.toLowerCase().replace(/[-_]/g, '')];
    if (!key) {
      problems.push(`${where}: unknown field "${k}"`);
      continue;
    }
    if (v === '' || v === null || v === undefined) continue; // empty CSV cells mean "not given"
    // A nested {"score", "metric", ...} object is the expected score spelled out.
    if (key === 'expected' && typeof v === 'object' && !Array.isArray(v)) {
      const inner = canonical(v as Entry, `${where}.expected`, problems);
      for (const [ik, iv] of Object.entries(inner)) out[ik === 'id' ? 'idColumn' : ik] = iv;
      continue;
    }
    out[key] = v;
  }
  return out;
}

function num(v: unknown, field: string, where: string, problems: string[], positive = false): number | undefined {
  if (v === undefined) return undefined;
  const n = typeof v === 'number' ? v : Number(String(v).trim());
  if (!Number.isFinite(n) || (positive && n <= 0)) {
    problems.push(`${where}: ${field} must be a ${positive ? 'positive ' : ''}number, got ${JSON.stringify(v)}`);
    return undefined;
  }
  return n;
}

function bool(v: unknown, field: string, where: string, problems: string[]): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['true', 'yes', '1', 'y'].includes(s)) return true;
  if (['false', 'no', '0', 'n'].includes(s)) return false;
  problems.push(`${where}: ${field} must be true or false, got ${JSON.stringify(v)}`);
  return undefined;
}

function settings(e: Entry, where: string, problems: string[]): JobSettings {
  const s: JobSettings = {};
  const timeout = num(e.timeout, 'timeout', where, problems, true);
  const cell = num(e.cellTimeout, 'cellTimeout', where, problems, true);
  const tol = num(e.tolerance, 'tolerance', where, problems);
  const allow = bool(e.allowErrors, 'allowErrors', where, problems);
  const next = bool(e.dataNextToNotebook, 'dataNextToNotebook', where, problems);
  if (timeout !== undefined) s.timeoutS = timeout;
  if (cell !== undefined) s.cellTimeoutS = cell;
  if (tol !== undefined) {
    if (tol < 0) problems.push(`${where}: tolerance must be >= 0`);
    else s.tolerance = tol;
  }
  if (allow !== undefined) s.allowErrors = allow;
  if (next !== undefined) s.dataNextToNotebook = next;
  return s;
}

function readEntries(file: string): { entries: Entry[]; defaults: Entry; dataRoot?: string } {
  const text = fs.readFileSync(file, 'utf8');
  if (/\.csv$/i.test(file)) {
    let csv;
    try {
      csv = parseCsv(text);
    } catch (err) {
      throw new ManifestError(file, [err instanceof ScoringError ? err.message : String(err)]);
    }
    const entries = csv.rows.filter((r) => r.some((c) => c.trim() !== '')).map((r) => Object.fromEntries(csv.header.map((h, i) => [h, (r[i] ?? '').trim()])));
    return { entries, defaults: {} };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ManifestError(file, [`not valid JSON: ${(err as Error).message}`]);
  }
  if (Array.isArray(doc)) return { entries: doc as Entry[], defaults: {} };
  if (doc && typeof doc === 'object' && Array.isArray((doc as any).notebooks)) {
    const d = doc as { notebooks: Entry[]; defaults?: Entry; dataRoot?: string };
    return { entries: d.notebooks, defaults: d.defaults ?? {}, ...(d.dataRoot ? { dataRoot: d.dataRoot } : {}) };
  }
  throw new ManifestError(file, ['expected an array of entries or an object with "notebooks": [...]']);
}

function manifestJobs(file: string, opts: InputOptions): AuditJob[] {
  const base = path.dirname(file);
  const problems: string[] = [];
  const { entries, defaults: rawDefaults, dataRoot: docRoot } = readEntries(file);
  const defaults = { ...opts.defaults, ...settings(canonical(rawDefaults, 'defaults', problems), 'defaults', problems) };
  const dataRoot = docRoot ? path.resolve(base, docRoot) : opts.dataRoot;
  const taken = new Set<string>();
  const ids = new Set<string>();
  const jobs: AuditJob[] = [];
  entries.forEach((raw, i) => {
    const where = /\.csv$/i.test(file) ? `row ${i + 2}` : `entry ${i + 1}`;
    if (!raw || typeof raw !== 'object') {
      problems.push(`${where}: not an object`);
      return;
    }
    const e = canonical(raw, where, problems);
    if (typeof e.path !== 'string') {
      problems.push(`${where}: "path" (the notebook) is required`);
      return;
    }
    const nbPath = path.resolve(base, e.path);
    const id = typeof e.id === 'string' ? e.id : path.relative(base, nbPath).split(path.sep).join('/');
    if (ids.has(id)) {
      problems.push(`${where}: duplicate notebook ${JSON.stringify(id)} (give each entry a distinct "id")`);
      return;
    }
    ids.add(id);
    const job: AuditJob = { ...defaults, ...settings(e, where, problems), id, path: nbPath, artifactDir: artifactDirFor(id, taken) };
    const competition = typeof e.competition === 'string' ? e.competition : undefined;
    if (typeof e.data === 'string') {
      const dir = path.resolve(base, e.data);
      job.data = { dir, competition: competition ?? path.basename(dir) };
    } else if (competition) {
      if (!dataRoot) problems.push(`${where}: competition "${competition}" without "data": set "dataRoot" in the manifest or pass --data-root DIR`);
      else job.data = { dir: path.join(dataRoot, competition), competition };
    } else if (opts.data) job.data = opts.data;
    if (e.expected !== undefined || e.metric !== undefined || e.groundTruth !== undefined) {
      const expected = num(e.expected, 'expectedScore', where, problems);
      const metric = typeof e.metric === 'string' ? e.metric.toLowerCase() : undefined;
      if (expected === undefined && e.expected === undefined) problems.push(`${where}: "metric"/"groundTruth" given without "expectedScore"`);
      if (!metric || !isMetricName(metric)) problems.push(`${where}: "metric" must be one of accuracy, f1, auc, logloss, rmse, rmsle, mae, r2 (got ${JSON.stringify(e.metric ?? null)})`);
      if (typeof e.groundTruth !== 'string') problems.push(`${where}: an expected score needs "groundTruth" (the CSV to score the submission against)`);
      const higher = bool(e.higherIsBetter, 'higherIsBetter', where, problems);
      if (expected !== undefined && metric && isMetricName(metric) && typeof e.groundTruth === 'string') {
        job.expected = {
          expected,
          metric: metric as MetricName,
          groundTruth: path.resolve(base, e.groundTruth),
          ...(job.tolerance !== undefined ? { tolerance: job.tolerance } : {}),
          ...(typeof e.idColumn === 'string' ? { idColumn: e.idColumn } : {}),
          ...(typeof e.targetColumn === 'string' ? { targetColumn: e.targetColumn } : {}),
          ...(typeof e.truthTargetColumn === 'string' ? { truthTargetColumn: e.truthTargetColumn } : {}),
          ...(e.positiveLabel !== undefined ? { positiveLabel: String(e.positiveLabel) } : {}),
          ...(higher !== undefined ? { higherIsBetter: higher } : {}),
        };
      }
    }
    jobs.push(job);
  });
  if (!entries.length) problems.push('no entries');
  if (problems.length) throw new ManifestError(file, problems);
  return jobs;
}
