/**
 * The curated context for one LLM call about one cell: the cell (and its traceback), the author's
 * markdown above it, the cells that define what it uses (def-use, transitively, bounded), the
 * runtime state of those names, the versions of what it imports, the data files, earlier
 * attempts, rule findings and target vs current result; and from AFTER the target, the cells
 * defining names it uses that no earlier cell defines, and the cells reading what it defines. Sections have priorities; when the token
 * budget (~4 chars/token) is exceeded the lowest-priority sections are dropped first, and the
 * result says what was dropped and how big the prompt is.
 */
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import type { Finding, FixType } from '../../core/patch.js';
import type { CellError, CellRecord, VariableSummary } from '../../core/run-result.js';
import { analyzeNotebook, consumerCells, type NotebookDefUse } from '../python/defuse.js';
import { dependencyCells } from './dependencies.js';
import type { DataFilePreview } from './data-files.js';
import { estimateTokens, trimMiddle, trimTraceback } from './text.js';

export interface AttemptSummary {
  fixType: FixType;
  /** Rule id or model. */
  source: string;
  cells: number[];
  summary: string;
  /** What happened when it ran, e.g. "same error", "new error KeyError: 'Age' in cell 9", "score 0.71 (target 0.81)". */
  outcome: string;
}

export interface ResultTarget {
  metric?: string;
  original?: number | string;
  current?: number | string;
  higherIsBetter?: boolean;
  /** Where the numbers come from, e.g. "stored outputs of cell 42" or "submission.csv scored against ground truth". */
  note?: string;
}

export interface ContextInput {
  notebook: Notebook;
  /** Position in notebook.cells of the cell to fix. */
  targetCell: number;
  fixType: FixType;
  /** Computed when absent (pass it to reuse across calls). */
  defuse?: NotebookDefUse;
  /** Cell records of the last run (state summaries, durations, errors). */
  cells?: CellRecord[];
  /** The failing cell's error; defaults to the target's CellRecord.error. */
  error?: CellError;
  /** Installed distributions or modules -> version. */
  versions?: Record<string, string>;
  python?: string;
  dataFiles?: DataFilePreview[];
  /** How the notebook reaches the data, e.g. "../input/" (shown above the file list). */
  dataDirLabel?: string;
  attempts?: AttemptSummary[];
  findings?: Finding[];
  target?: ResultTarget;
  /** Stored (original) and new printed output of the target cell, for score-calibration. */
  targetOutputs?: { original?: string; current?: string };
  /** The notebook's time budget, for runtime-reduction. */
  timeBudgetS?: number;
  /** Default 8000 tokens. */
  budgetTokens?: number;
  maxDepCells?: number;
  maxDepth?: number;
  /** Later cells reading what the target defines, shown (low priority) so a change keeps them working; default 4. */
  maxConsumerCells?: number;
}

export interface ContextSection {
  id: string;
  title: string;
  /** Higher survives longer; required sections are never dropped (only trimmed). */
  priority: number;
  required: boolean;
  text: string;
  tokens: number;
  included: boolean;
}

export interface BuiltContext {
  /** The user-message body. */
  text: string;
  tokens: number;
  budgetTokens: number;
  overBudget: boolean;
  sections: ContextSection[];
  /** Ids of the sections dropped for the budget, lowest priority first. */
  dropped: string[];
  /** Cells whose source is in the prompt (target first). */
  cellsShown: number[];
  /** Names the target uses that no earlier cell defines. */
  unresolved: Array<{ name: string; definedLaterIn?: number }>;
}

/** Module -> distribution name where they differ. */
export const MODULE_DISTRIBUTIONS: Readonly<Record<string, string>> = {
  sklearn: 'scikit-learn', cv2: 'opencv-python', PIL: 'pillow', skimage: 'scikit-image', yaml: 'pyyaml',
  bs4: 'beautifulsoup4', dateutil: 'python-dateutil', mpl_toolkits: 'matplotlib', google: 'protobuf',
};

const STDLIB = new Set(
  ('os sys re math json csv time datetime random collections itertools functools operator string warnings pickle copy glob ' +
    'io pathlib shutil subprocess typing statistics decimal fractions heapq bisect gc zipfile gzip tarfile hashlib uuid ' +
    'logging argparse textwrap pprint unicodedata calendar timeit multiprocessing threading contextlib dataclasses enum abc ' +
    'numbers struct array queue socket urllib http email html xml sqlite3 tempfile traceback inspect types codecs locale __future__ ' +
    'cPickle StringIO urllib2 sets').split(' '),
);

function fence(code: string): string {
  const ticks = code.includes('```') ? '````' : '```';
  return `${ticks}python\n${code.replace(/\s+$/, '')}\n${ticks}`;
}

function cellSource(nb: Notebook, i: number): string {
  return sourceText(nb.cells[i]?.source);
}

export function formatVariable(v: VariableSummary, maxColumns = 25): string {
  const parts: string[] = [`${v.name}: ${v.module ? `${v.module}.` : ''}${v.type}`];
  if (v.shape) parts.push(`shape (${v.shape.join(', ')}${v.shape.length === 1 ? ',' : ''})`);
  if (v.length !== undefined && !v.shape) parts.push(`len ${v.length}`);
  if (v.dtype) parts.push(`dtype ${v.dtype}`);
  if (v.dtypes) {
    const entries = Object.entries(v.dtypes);
    const shown = entries.slice(0, maxColumns).map(([c, t]) => `${c}:${t}`);
    parts.push(`columns [${shown.join(', ')}${entries.length > maxColumns ? `, ... ${entries.length - maxColumns} more` : ''}]`);
  } else if (v.columns) {
    const shown = v.columns.slice(0, maxColumns);
    parts.push(`columns [${shown.join(', ')}${v.columns.length > maxColumns ? `, ... ${v.columns.length - maxColumns} more` : ''}]`);
  }
  if (v.value !== undefined) parts.push(`= ${v.value.length > 120 ? v.value.slice(0, 117) + '...' : v.value}`);
  return '- ' + parts.join(', ');
}

/** The latest summary of each name at or before the target cell (the failing cell's own record first). */
export function stateOf(names: string[], records: CellRecord[] | undefined, targetCell: number): VariableSummary[] {
  if (!records?.length) return [];
  const ordered = records.filter((r) => r.index <= targetCell && r.state).sort((a, b) => b.index - a.index);
  const out: VariableSummary[] = [];
  for (const name of names) {
    for (const r of ordered) {
      const v = r.state!.variables.find((x) => x.name === name);
      if (v) { out.push(v); break; }
    }
  }
  return out;
}

function fmtNum(x: number | string | undefined): string {
  if (x === undefined) return 'unknown';
  return typeof x === 'number' ? String(Number(x.toPrecision(6))) : x;
}

export async function buildContext(input: ContextInput): Promise<BuiltContext> {
  const nb = input.notebook;
  const t = input.targetCell;
  const budget = input.budgetTokens ?? 8000;
  const du = input.defuse ?? analyzeNotebook(nb);
  const record = input.cells?.find((r) => r.index === t);
  const error = input.error ?? record?.error;
  const sections: ContextSection[] = [];
  const add = (id: string, title: string, priority: number, body: string, required = false): void => {
    if (body.trim() === '') return;
    const text = `## ${title}\n${body.trim()}`;
    sections.push({ id, title, priority, required, text, tokens: estimateTokens(text), included: true });
  };

  // The target cell and its error.
  const role = input.fixType === 'runtime-reduction' ? 'the cell to speed up' : input.fixType === 'score-calibration' ? 'the cell to calibrate' : 'the failing cell';
  const targetSrc = cellSource(nb, t);
  add('target', `Cell ${t} (${role})`, 100, fence(trimMiddle(targetSrc, 8000)), true);
  if (error) {
    const tb = trimTraceback(error.traceback, { maxChars: 3000 });
    const head = `${error.ename}: ${error.evalue}`.trim();
    add('error', `Error in cell ${t}`, 100, '```\n' + (tb.includes(error.ename) ? tb : `${tb}\n${head}`).trim() + '\n```', true);
  }

  // Result target (score-calibration decides on it; useful for the others too).
  if (input.target && (input.target.original !== undefined || input.target.current !== undefined)) {
    const tr = input.target;
    const lines = [`Original (target) ${tr.metric ?? 'result'}: ${fmtNum(tr.original)}`, `Current ${tr.metric ?? 'result'}: ${fmtNum(tr.current)}`];
    if (typeof tr.original === 'number' && typeof tr.current === 'number' && tr.original !== 0) {
      const rel = (tr.current - tr.original) / Math.abs(tr.original);
      lines.push(`Relative difference: ${(rel * 100).toFixed(1)}%`);
    }
    if (tr.higherIsBetter !== undefined) lines.push(tr.higherIsBetter ? 'Higher is better.' : 'Lower is better.');
    if (tr.note) lines.push(`Source: ${tr.note}`);
    add('target-result', 'Target vs current result', input.fixType === 'score-calibration' ? 99 : 70, lines.join('\n'), input.fixType === 'score-calibration');
  }
  if (input.targetOutputs && (input.targetOutputs.original || input.targetOutputs.current)) {
    const o = input.targetOutputs;
    add('target-outputs', `Printed output of cell ${t}: original run vs now`, input.fixType === 'score-calibration' ? 92 : 40,
      `Original:\n\`\`\`\n${trimMiddle(o.original ?? '(none)', 1500)}\n\`\`\`\nNow:\n\`\`\`\n${trimMiddle(o.current ?? '(none)', 1500)}\n\`\`\``);
  }

  // Earlier attempts.
  if (input.attempts?.length) {
    const lines = input.attempts.slice(-8).map((a, i) => `${i + 1}. ${a.fixType} by ${a.source} on cell${a.cells.length > 1 ? 's' : ''} ${a.cells.join(', ')}: ${a.summary} -> ${a.outcome}`);
    add('attempts', 'Earlier attempts on this notebook (do not repeat what failed)', 90, lines.join('\n'));
  }

  // The author's intent: markdown directly above.
  const md: string[] = [];
  for (let i = t - 1; i >= 0 && nb.cells[i]?.cell_type === 'markdown' && md.length < 3; i--) md.unshift(sourceText(nb.cells[i]!.source).trim());
  if (md.length) add('markdown', `Markdown above cell ${t} (the author's intent)`, 75, trimMiddle(md.join('\n\n'), 1500));

  // Cells defining what the target uses.
  const { deps, unresolved } = dependencyCells(du, t, { maxDepth: input.maxDepth ?? 3, maxCells: input.maxDepCells ?? 8 });
  for (const d of deps) {
    const rank = deps.filter((x) => x.depth === d.depth && x.cell > d.cell).length; // nearer cells survive longer
    const priority = (d.depth === 1 ? 85 : d.depth === 2 ? 60 : 50) - Math.min(rank, 9) * 0.5;
    const verb = d.relation === 'defines' ? 'defines' : 'modifies';
    add(`cell:${d.cell}`, `Cell ${d.cell} (${verb} ${d.names.slice(0, 8).join(', ')}${d.names.length > 8 ? ', ...' : ''})`, priority, fence(trimMiddle(cellSource(nb, d.cell), 2500)));
  }
  if (unresolved.length) {
    add('unresolved', 'Names used by the cell that no earlier cell defines', 86,
      unresolved.map((u) => `- ${u.name}${u.definedLaterIn !== undefined ? ` (defined later, in cell ${u.definedLaterIn}, shown below)` : ''}`).join('\n'));
  }
  // Definitions that come LATER in the file: the model cannot reproduce a helper it cannot see, nor
  // propose to run its cell first (a move) without it.
  const later = new Map<number, string[]>();
  for (const u of unresolved) if (u.definedLaterIn !== undefined) later.set(u.definedLaterIn, [...(later.get(u.definedLaterIn) ?? []), u.name]);
  for (const [cell, names] of later) {
    if (cell === t) continue;
    add(`after:${cell}`, `Cell ${cell} (defines ${names.slice(0, 8).join(', ')}; LATER in the notebook, it runs after cell ${t})`, 84, fence(trimMiddle(cellSource(nb, cell), 2500)));
  }
  // The cells that read what the target defines: a change of a name, type or shape must suit them.
  const shownAlready = new Set([...deps.map((d) => d.cell), ...later.keys()]);
  consumerCells(du, t, input.maxConsumerCells ?? 4).forEach((c, k) => {
    if (shownAlready.has(c.cell)) return;
    add(`after:${c.cell}`, `Cell ${c.cell} (uses ${c.names.slice(0, 8).join(', ')} from cell ${t}; keep them compatible)`, 55 - k * 0.5, fence(trimMiddle(cellSource(nb, c.cell), 1500)));
  });

  // Runtime state of the names the target uses.
  const target = du.byCell.get(t);
  const usedNames = target ? [...new Set([...target.uses, ...target.mutates])] : [];
  const state = stateOf(usedNames, input.cells, t);
  if (state.length) add('state', 'Runtime state of those names in the last run', 80, state.map((v) => formatVariable(v)).join('\n'));

  // Versions of what the target and its dependencies import.
  const cellsForImports = [t, ...deps.map((d) => d.cell)];
  const mods = new Set<string>();
  for (const c of du.cells) if (c.cell <= t) for (const imp of c.imports) if (cellsForImports.includes(c.cell) || usedNames.includes(imp.bound)) mods.add(imp.top);
  const versionLines: string[] = [];
  if (input.python) versionLines.push(`- python ${input.python}`);
  for (const m of [...mods].sort()) {
    if (!m || STDLIB.has(m)) continue;
    const dist = MODULE_DISTRIBUTIONS[m];
    const v = input.versions?.[m] ?? (dist ? input.versions?.[dist] : undefined) ?? input.versions?.[m.toLowerCase()];
    if (v) versionLines.push(`- ${dist ?? m} ${v}${dist ? ` (imported as ${m})` : ''}`);
    else if (input.versions) versionLines.push(`- ${m}: not in the environment's package list (probably not installed)`);
  }
  if (versionLines.length) add('versions', 'Environment (fixed; packages cannot be installed or changed)', 70, versionLines.join('\n'));

  // Timing, for runtime-reduction.
  if (input.fixType === 'runtime-reduction' && input.cells?.some((r) => r.durationMs !== null)) {
    const timed = input.cells.filter((r) => r.durationMs !== null).sort((a, b) => b.durationMs! - a.durationMs!);
    const total = timed.reduce((s, r) => s + r.durationMs!, 0);
    const lines = timed.slice(0, 6).map((r) => `- cell ${r.index}: ${(r.durationMs! / 1000).toFixed(1)} s${r.status !== 'ok' ? ` (${r.status})` : ''}`);
    lines.unshift(`Total ${(total / 1000).toFixed(1)} s${input.timeBudgetS ? ` of a ${input.timeBudgetS} s budget` : ''}. Slowest cells:`);
    add('timing', 'Cell run times in the last run', 88, lines.join('\n'));
  }

  // Rule findings on the shown cells (then others).
  if (input.findings?.length) {
    const shown = new Set(cellsForImports);
    const sorted = [...input.findings].sort((a, b) => Number(shown.has(b.cell)) - Number(shown.has(a.cell)) || a.cell - b.cell);
    const lines = sorted.slice(0, 15).map((f) => `- cell ${f.cell} line ${f.line}: [${f.ruleId}] ${f.message}`);
    add('findings', 'Findings of the rules (known migrations not applied automatically)', 65, lines.join('\n'));
  }

  // Data files.
  if (input.dataFiles?.length) {
    const fileErr = !!error && /FileNotFound|No such file|IOError|OSError|does not exist/i.test(`${error.ename} ${error.evalue}`);
    const lines: string[] = [];
    if (input.dataDirLabel) lines.push(`Data directory: ${input.dataDirLabel}`);
    for (const f of input.dataFiles.slice(0, 30)) {
      lines.push(`- ${f.path} (${f.bytes} bytes)`);
      for (const h of f.head ?? []) lines.push(`    ${h}`);
    }
    add('data', 'Data files available to the notebook', fileErr ? 95 : 45, lines.join('\n'));
  }

  // Fit the budget: drop the lowest-priority optional sections first.
  // Reading order: environment and history first, then the cells in notebook order ending with
  // the target and its error, then what is known about its state and result.
  const ORDER = ['versions', 'data', 'findings', 'attempts', 'cell:', 'markdown', 'target', 'error', 'unresolved', 'after:', 'state', 'timing', 'target-outputs', 'target-result'];
  const rankOf = (id: string): number => ORDER.findIndex((p) => (p.endsWith(':') ? id.startsWith(p) : id === p));
  const total = (): number => estimateTokens(sections.filter((s) => s.included).map((s) => s.text).join('\n\n'));
  const dropped: string[] = [];
  const optional = sections.filter((s) => !s.required).sort((a, b) => a.priority - b.priority);
  for (const s of optional) {
    if (total() <= budget) break;
    s.included = false;
    dropped.push(s.id);
  }
  // Still over: trim the required sections.
  if (total() > budget) {
    for (const s of sections.filter((x) => x.required && x.included)) {
      const excess = total() - budget;
      if (excess <= 0) break;
      const keep = Math.max(800, s.text.length - excess * 4);
      s.text = trimMiddle(s.text, keep);
      s.tokens = estimateTokens(s.text);
    }
  }
  const included = sections.filter((s) => s.included).sort((a, b) => rankOf(a.id) - rankOf(b.id) || a.id.localeCompare(b.id, 'en', { numeric: true }));
  const text = included.map((s) => s.text).join('\n\n') + '\n';
  const tokens = estimateTokens(text);
  const cellsShown = [t, ...included.filter((s) => /^(cell|after):/.test(s.id)).map((s) => Number(s.id.split(':')[1]))];
  return { text, tokens, budgetTokens: budget, overBudget: tokens > budget, sections, dropped, cellsShown, unresolved };
}
