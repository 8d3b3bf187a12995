/**
 * The notebook's own project in its working directory: helper modules (`import utils`), small data
 * files of the repository, other notebooks for `%run`. Copied (never linked) into the sandbox's
 * working dir before each clean run, so the notebook can write over its copies while the originals
 * stay untouched; what it writes is told apart from what was staged (only new or changed files are
 * outputs). Hidden entries, VCS and virtualenv directories, caches, symlinks and files over the size
 * limits are skipped, each with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ProjectRequest {
  dir: string;
  /** Per-file limit (bytes); larger files are skipped. */
  maxFileBytes?: number;
  /** Total limit (bytes); files past it are skipped. */
  maxTotalBytes?: number;
  /** Relative paths (or top-level names) never staged, e.g. the tool's own output dir. */
  exclude?: string[];
}

export interface ProjectSelection {
  files: Array<{ rel: string; bytes: number }>;
  skipped: Array<{ rel: string; reason: string }>;
}

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_TOTAL_BYTES = 500 * 1024 * 1024;
const SKIP_DIRS = new Set(['node_modules', '__pycache__', 'venv', 'env', 'site-packages', 'nbmodernize-out', '.ipynb_checkpoints']);

export function selectProjectFiles(req: ProjectRequest): ProjectSelection {
  const maxFile = req.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = req.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const exclude = new Set((req.exclude ?? []).map((e) => e.replace(/\/$/, '')));
  const out: ProjectSelection = { files: [], skipped: [] };
  let total = 0;
  const visit = (rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(req.dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (exclude.has(r)) continue;
      if (e.name.startsWith('.')) { out.skipped.push({ rel: r, reason: 'hidden' }); continue; }
      if (e.isSymbolicLink()) { out.skipped.push({ rel: r, reason: 'symlink (never followed)' }); continue; }
      if (e.isDirectory()) {
        if (SKIP_DIRS.has(e.name) || fs.existsSync(path.join(req.dir, r, 'pyvenv.cfg'))) { out.skipped.push({ rel: r, reason: 'cache or virtualenv directory' }); continue; }
        if (depth >= 6) { out.skipped.push({ rel: r, reason: 'nested too deep' }); continue; }
        visit(r, depth + 1);
        continue;
      }
      if (!e.isFile()) continue;
      const bytes = fs.statSync(path.join(req.dir, r)).size;
      if (bytes > maxFile) { out.skipped.push({ rel: r, reason: `larger than ${Math.round(maxFile / 1048576)} MB` }); continue; }
      if (total + bytes > maxTotal) { out.skipped.push({ rel: r, reason: `past the ${Math.round(maxTotal / 1048576)} MB total` }); continue; }
      total += bytes;
      out.files.push({ rel: r, bytes });
    }
  };
  visit('', 0);
  return out;
}

/** A staged file as it was copied: to tell the notebook's own writes from the staged inputs. */
export type StagedManifest = Map<string, { bytes: number; mtimeMs: number }>;

/** Copy the selection into `workDir` (writable copies: the notebook may overwrite them, never the originals). */
export function stageProject(req: ProjectRequest, selection: ProjectSelection, workDir: string): StagedManifest {
  const manifest: StagedManifest = new Map();
  for (const f of selection.files) {
    const dest = path.join(workDir, f.rel);
    if (fs.existsSync(dest)) continue; // the data layout (or an earlier stage) already put something there
    fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o777 });
    try {
      fs.copyFileSync(path.join(req.dir, f.rel), dest);
    } catch (err) {
      // A file that went away after the selection (a live temp dir beside the notebook) is not the notebook's.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    fs.chmodSync(dest, 0o666);
    const st = fs.statSync(dest);
    manifest.set(f.rel, { bytes: st.size, mtimeMs: st.mtimeMs });
  }
  // Directories the copy created must be writable by the sandbox user too.
  for (const rel of new Set([...manifest.keys()].map((r) => path.dirname(r)).filter((d) => d !== '.'))) {
    let d = rel;
    while (d && d !== '.') {
      try { fs.chmodSync(path.join(workDir, d), 0o777); } catch { /* best effort */ }
      d = path.dirname(d);
    }
  }
  return manifest;
}

/** Staged files the run left as they were: not outputs of the notebook. */
export function unchangedStaged(manifest: StagedManifest, workDir: string): Set<string> {
  const out = new Set<string>();
  for (const [rel, m] of manifest) {
    try {
      const st = fs.statSync(path.join(workDir, rel));
      if (st.size === m.bytes && st.mtimeMs === m.mtimeMs) out.add(rel);
    } catch { /* deleted by the notebook */ }
  }
  return out;
}

/**
 * `ModuleNotFoundError: No module named 'X'` for a module that is neither in the environment nor in the
 * project: the notebook imports a helper of its own that is not here. The message says so, once.
 */
export function localModuleMissing(evalue: string, projectFiles: readonly string[], environmentModules: ReadonlySet<string>, projectDir?: string): string | undefined {
  const m = /No module named '([\w.]+)'/.exec(evalue);
  if (!m) return undefined;
  const top = m[1].split('.')[0];
  if (environmentModules.has(top)) return undefined;
  const present = projectFiles.some((f) => f === `${top}.py` || f.startsWith(`${top}/`));
  if (present) return undefined;
  return `the notebook imports its own module ${top}, which is not in its project directory${projectDir ? ` (${projectDir})` : ''}; run it from its repository checkout or pass --project-dir`;
}
