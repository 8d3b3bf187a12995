/**
 * The rule engine: parse each code cell once (IPython syntax masked), run the applicable rules'
 * structural matchers, and either report findings (scan) or apply the rewrites (fix): edits are
 * byte ranges from the tree, applied bottom-up; overlapping edits are resolved by rule order (the
 * earlier rule wins, the later one is retried on the next pass); cells are re-parsed between passes
 * until nothing changes. A cell whose rewrite would parse worse than before is not rewritten.
 */
import type { Notebook, CodeCell } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import type { Finding, FixType } from '../../core/patch.js';
import { parsePython } from '../python/parser.js';
import { maskIPython, overlapsMasked } from '../python/ipython.js';
import { applyTextEdits } from '../python/edits.js';
import { indexTree, releaseArgs } from './tree.js';
import { RuleDispatch } from './dispatch.js';
import { CellContext, NotebookContext, releaseCellCache, type EnvironmentInfo, type ParsedCell, type RuntimeEvidence, type DataFacts } from './context.js';
import type { EraHint, Rule, RuleMatch, TextEdit } from './types.js';
import { Era, normalizeVersions, ruleAppliesToEnvironment } from './versions.js';
import { codeOf, ruleFilter } from './selection.js';
import { releaseSuppressions, suppressedBy } from './suppression.js';

export interface EngineOptions {
  /** Rules to consider (default: every registered rule). */
  rules?: readonly Rule[];
  /** Only these rule ids. */
  ruleIds?: readonly string[];
  /** Rule selectors (codes, code prefixes like `PD`, rule ids, ALL) that run; absent: every rule (selection.ts). */
  select?: readonly string[];
  /** Rule selectors that do not run (the most specific of --select / --ignore wins). */
  ignore?: readonly string[];
  /** Which kinds to apply/report (default: error-repair only). */
  kinds?: readonly FixType[];
  /** Include rules that are recognised from runtime errors only (rulesForError). */
  includeErrorTriggered?: boolean;
  /** Environment library versions (any key spelling); defaults to debian13 as measured. */
  versions?: Record<string, unknown>;
  /** Environment facts (unavailable libraries and candidates, importable modules). */
  environment?: EnvironmentInfo;
  /** When the notebook was written / which versions its author used. */
  era?: EraHint;
  /** File names of the competition data (paths relative to the data dir), for data-path rules. */
  dataFiles?: readonly string[];
  /** Competition slug, when known (data also mounted at /kaggle/input/<competition>/). */
  competition?: string;
  /** Override the notebook's Python major version (else: metadata, else syntax). */
  pythonMajor?: 2 | 3;
  /** Evidence from the failing run (set by rulesForError's caller). */
  runtime?: RuntimeEvidence;
  /** Facts about the mounted data (evidence-gated pins). */
  dataFacts?: DataFacts;
}

export interface CellChange {
  cell: number;
  before: string;
  after: string;
  rules: string[];
  fixType: FixType;
}

export const MAX_PASSES = 8;

const PY2_SYNTAX_TYPES = ['print_statement', 'exec_statement'];

/** Mask and parse one cell (the tree must be deleted by the caller via disposeCells). */
export async function parseCell(index: number, source: string): Promise<ParsedCell | undefined> {
  const m = maskIPython(source);
  if (!m.python) return undefined;
  const tree = parsePython(m.text);
  return { index, source, text: m.text, masked: m.masked, tree, idx: indexTree(tree) };
}

export function disposeCells(cells: Iterable<ParsedCell | undefined>): void {
  for (const c of cells) if (c) disposeCell(c);
}

/**
 * Delete a cell's tree and drop what the per-cell caches (WeakMaps keyed by the cell or its tree)
 * hold for it. A cell that lived through a young-generation GC sits in the old generation until the
 * next full GC, and its cache entries with it; everything those entries reach (lookup maps, nodes,
 * their memos) then survived every young GC too and was copied and promoted: two fifths of what a
 * scan allocated, when the entries were left for the full GC to clear.
 */
export function disposeCell(cell: ParsedCell): void {
  cell.tree.delete();
  cell.idx.byType.release();
  releaseArgs(cell.tree);
  releaseCellCache(cell);
  releaseSuppressions(cell);
}

export async function parseNotebookCells(nb: Notebook): Promise<ParsedCell[]> {
  const out: ParsedCell[] = [];
  for (let i = 0; i < nb.cells.length; i++) {
    const cell = nb.cells[i];
    if (cell.cell_type !== 'code') continue;
    const parsed = await parseCell(i, sourceText(cell.source));
    if (parsed) out.push(parsed);
  }
  return out;
}

function metadataPython(nb: Notebook): { major?: 2 | 3; version?: string } {
  const li = nb.metadata?.language_info ?? {};
  const ks = nb.metadata?.kernelspec ?? {};
  const version = typeof li.version === 'string' ? li.version : undefined;
  const fromVersion = version ? Number(version.split('.')[0]) : undefined;
  if (fromVersion === 2 || fromVersion === 3) return { major: fromVersion, version };
  const name = `${ks.name ?? ''} ${ks.display_name ?? ''}`;
  if (/python\s*2/i.test(name)) return { major: 2, version: '2.7' };
  if (/python\s*3/i.test(name)) return { major: 3, version };
  const cm = nb.metadata?.language_info?.codemirror_mode;
  if (cm && typeof cm === 'object' && (cm.version === 2 || cm.version === 3)) return { major: cm.version, version };
  return {};
}

export const EMPTY_ENVIRONMENT: EnvironmentInfo = { name: 'debian13', unavailable: {}, modules: new Set() };

/** Notebook-level facts shared by every pass. */
export function notebookInfo(nb: Notebook, cells: ParsedCell[], opts: EngineOptions) {
  const meta = metadataPython(nb);
  let major = opts.pythonMajor ?? meta.major;
  if (!major) {
    const py2 = cells.some((c) => PY2_SYNTAX_TYPES.some((t) => (c.idx.byType.get(t)?.length ?? 0) > 0));
    major = py2 ? 2 : 3;
  }
  const pythonVersion = meta.version ?? (major === 2 ? '2.7' : undefined);
  return {
    pythonMajor: major,
    pythonVersion,
    env: normalizeVersions(opts.versions as Record<string, unknown> | undefined),
    environment: opts.environment ?? EMPTY_ENVIRONMENT,
    era: new Era(opts.era ?? {}, pythonVersion),
    dataFiles: [...(opts.dataFiles ?? [])],
    competition: opts.competition,
    ...(opts.runtime ? { runtime: opts.runtime } : {}),
    ...(opts.dataFacts ? { dataFacts: opts.dataFacts } : {}),
    writtenFiles: nb.cells.flatMap((c) => {
      if (c.cell_type !== 'code') return [];
      const m = /^[ \t]*%%writefile\s+(?:-a\s+)?(\S+)/.exec(sourceText(c.source));
      return m ? [m[1]] : [];
    }),
  };
}

/**
 * selectRules' answers without selectors (what `scan` and `fix` ask for every notebook), by rule
 * list, then kinds and environment: filtering some 540 rules by kind and version per notebook was
 * a fiftieth of a scan. The same answer is also the same array, which lets the dispatch index of a
 * list be built once (dispatch.ts). Callers never modify the list they are given.
 */
const selections = new WeakMap<readonly Rule[], Map<string, Rule[]>>();

export function selectRules(all: readonly Rule[], opts: EngineOptions, env: Record<string, string>, kinds: readonly FixType[]): Rule[] {
  if (opts.ruleIds || opts.select || opts.ignore) return filterRules(all, opts, env, kinds);
  let byKey = selections.get(all);
  if (!byKey) selections.set(all, (byKey = new Map()));
  const key = `${kinds.join(',')}|${opts.includeErrorTriggered ? 1 : 0}|${JSON.stringify(env)}`;
  let rules = byKey.get(key);
  if (!rules) byKey.set(key, (rules = filterRules(all, opts, env, kinds)));
  return rules;
}

function filterRules(all: readonly Rule[], opts: EngineOptions, env: Record<string, string>, kinds: readonly FixType[]): Rule[] {
  // Selectors name rules among all registered ones, whatever subset this call considers.
  const selected = ruleFilter(opts);
  return all.filter((r) =>
    kinds.includes(r.kind) &&
    (!opts.ruleIds || opts.ruleIds.includes(r.id)) &&
    selected(r) &&
    (r.trigger !== 'error' || opts.includeErrorTriggered) &&
    ruleAppliesToEnvironment(r, env));
}

interface RawFinding {
  rule: Rule;
  cell: number;
  match: RuleMatch;
  /** Edits to apply (empty when report-only). */
  edits: TextEdit[];
  note?: string;
  /** The cell's `# nbmodernize: ignore` directive that silences it (then it has no edits). */
  suppressed?: string;
}

export type EngineFinding = Finding & { link: string };

/** Top-level module a library's rules need imported somewhere in the notebook (else they cannot match). */
const LIBRARY_MODULE: Partial<Record<string, string>> = {
  numpy: 'numpy', pandas: 'pandas', 'scikit-learn': 'sklearn', seaborn: 'seaborn', xgboost: 'xgboost', scipy: 'scipy', statsmodels: 'statsmodels',
};

const LIBRARY_MODULES = [...new Set(Object.values(LIBRARY_MODULE))] as string[];

/** activeRules' answers by rule list, then by which LIBRARY_MODULES the notebook imports (bit i: the i-th). */
const actives = new WeakMap<readonly Rule[], Map<number, Rule[]>>();

/** The rules whose library the notebook imports: the same array for notebooks that import alike (selectRules says why). */
function activeRules(nbCtx: NotebookContext, rules: readonly Rule[]): Rule[] {
  let imported = 0;
  LIBRARY_MODULES.forEach((m, i) => { if (nbCtx.importedModules.has(m)) imported |= 1 << i; });
  let byImports = actives.get(rules);
  if (!byImports) actives.set(rules, (byImports = new Map()));
  let active = byImports.get(imported);
  if (!active) {
    byImports.set(imported, (active = rules.filter((r) => {
      const mod = LIBRARY_MODULE[r.library];
      return !mod || nbCtx.importedModules.has(mod);
    })));
  }
  return active;
}

function runRules(nbCtx: NotebookContext, allRules: readonly Rule[]): RawFinding[] {
  const out: RawFinding[] = [];
  const rules = activeRules(nbCtx, allRules);
  const dispatch = new RuleDispatch(nbCtx, rules);
  for (const cell of nbCtx.cells) {
    const ctx = new CellContext(nbCtx, cell);
    for (const rule of dispatch.rulesFor(cell)) {
      for (const match of rule.find(ctx)) {
        let edits = match.edits ?? [];
        let note: string | undefined;
        if (edits.length && !rule.editsIPython && ctx.inError(match.node)) {
          edits = [];
          note = 'not rewritten: the code around it does not parse';
        } else if (!rule.editsIPython && edits.some((e) => overlapsMasked(cell.masked, e.start, e.end))) {
          edits = [];
          note = 'not rewritten: it overlaps IPython syntax';
        }
        const suppressed = suppressedBy(cell, rule);
        out.push({ rule, cell: cell.index, match, edits: suppressed ? [] : edits, note, ...(suppressed ? { suppressed } : {}) });
      }
    }
  }
  return out;
}

function toFinding(f: RawFinding): EngineFinding {
  const p = f.match.node.startPosition;
  let message = f.match.message ?? f.rule.message;
  if (f.note && !f.suppressed) message += ` (${f.note})`;
  const code = codeOf(f.rule);
  return {
    ruleId: f.rule.id,
    ...(code ? { code } : {}),
    cell: f.cell,
    line: p.row + 1,
    column: p.column + 1,
    message,
    autoFixable: f.edits.length > 0,
    fixType: f.rule.kind,
    library: f.rule.library,
    link: f.rule.link,
    ...(f.suppressed ? { suppressed: f.suppressed } : {}),
  };
}

/** Findings split into the active ones and those a cell's directive silences. */
function splitFindings(raw: RawFinding[]): { findings: EngineFinding[]; suppressed: EngineFinding[] } {
  const all = raw.map(toFinding);
  return { findings: all.filter((f) => !f.suppressed), suppressed: all.filter((f) => f.suppressed) };
}

/** Evidence about the notebook's era from the removed APIs it uses. */
function addEraEvidence(era: Era, findings: RawFinding[]): void {
  for (const f of findings) {
    const r = f.rule;
    if (r.kind !== 'error-repair' || !r.removedIn) continue;
    if (r.library === 'python' || r.library === 'environment' || r.library === 'data') continue;
    era.bound(r.library, r.removedIn, `it uses ${r.old} (removed in ${r.library} ${r.removedIn})`);
  }
}

export interface ScanResult {
  findings: EngineFinding[];
  /** Findings silenced by `# nbmodernize: ignore` comments (each with the directive in `suppressed`). */
  suppressed: EngineFinding[];
  pythonMajor: 2 | 3;
}

/** Static findings for a notebook (no rewriting). */
export async function scanCells(nb: Notebook, cells: ParsedCell[], allRules: readonly Rule[], opts: EngineOptions): Promise<ScanResult> {
  const info = notebookInfo(nb, cells, opts);
  const kinds = opts.kinds ?? ['error-repair'];
  const ctx = new NotebookContext(cells, info);
  const repair = runRules(ctx, selectRules(allRules, opts, info.env, kinds.filter((k) => k !== 'score-calibration')));
  addEraEvidence(info.era, repair);
  const pins = kinds.includes('score-calibration')
    ? runRules(ctx, selectRules(allRules, opts, info.env, ['score-calibration']))
    : [];
  ctx.release();
  const { findings, suppressed } = splitFindings([...repair, ...pins]);
  const order = (a: EngineFinding, b: EngineFinding) => a.cell - b.cell || a.line - b.line || a.column - b.column || a.ruleId.localeCompare(b.ruleId);
  return { findings: findings.sort(order), suppressed: suppressed.sort(order), pythonMajor: info.pythonMajor };
}

/** Accept the findings whose edits do not overlap earlier ones (earlier matches win) and apply them; returns the new text and the accepted findings. */
export function applyFindings(source: string, candidates: RawFinding[]): { text: string; accepted: RawFinding[] } {
  const taken: TextEdit[] = [];
  const accepted: RawFinding[] = [];
  const overlaps = (a: TextEdit, b: TextEdit) => {
    if (a.start === a.end && b.start === b.end) return a.start === b.start && a.text === b.text ? 'same' : false;
    if (a.start === a.end) return a.start > b.start && a.start < b.end;
    if (b.start === b.end) return b.start > a.start && b.start < a.end;
    return a.start < b.end && b.start < a.end;
  };
  for (const f of candidates) {
    const fresh: TextEdit[] = [];
    let ok = true;
    for (const e of f.edits) {
      let dup = false;
      for (const t of [...taken, ...fresh]) {
        const o = overlaps(e, t);
        if (o === 'same' || (e.start === t.start && e.end === t.end && e.text === t.text)) { dup = true; break; }
        if (o) { ok = false; break; }
      }
      if (!ok) break;
      if (!dup) fresh.push(e);
    }
    if (!ok) continue;
    taken.push(...fresh);
    accepted.push(f);
  }
  return { text: applyTextEdits(source, taken), accepted };
}

function errorCount(cell: ParsedCell): number {
  return cell.idx.errors.length + (cell.idx.byType.get('MISSING')?.length ?? 0) + (cell.tree.rootNode.hasError ? 1 : 0);
}

export interface FixResult {
  /** New cell sources by notebook cell index (only changed cells). */
  changes: CellChange[];
  /** What is left: findings in the rewritten notebook (report-only ones, for the LLM stage). */
  remaining: EngineFinding[];
  /** Findings in the original notebook (before any rewrite). */
  original: EngineFinding[];
  /** Findings in the original notebook that `# nbmodernize: ignore` comments silence (never applied). */
  suppressed: EngineFinding[];
  pythonMajor: 2 | 3;
}

/**
 * Rewrite the notebook's code cells until no rule applies (or MAX_PASSES). `kinds` run in order:
 * error-repair to a fixpoint first, then score-calibration (pins) on the result.
 */
export async function fixCells(nb: Notebook, allRules: readonly Rule[], opts: EngineOptions): Promise<FixResult> {
  const kinds = opts.kinds ?? ['error-repair'];
  let cells = await parseNotebookCells(nb);
  const info = notebookInfo(nb, cells, opts);
  let original: EngineFinding[] = [];
  let suppressed: EngineFinding[] = [];
  const rulesByCell = new Map<number, { rules: Set<string>; kinds: Set<FixType> }>();
  const initial = new Map<number, string>(cells.map((c) => [c.index, c.source]));
  const blocked = new Set<string>();
  try {
    // Era evidence from the original notebook.
    {
      const ctx = new NotebookContext(cells, info);
      const repair = runRules(ctx, selectRules(allRules, opts, info.env, ['error-repair']));
      addEraEvidence(info.era, repair);
      const pins = kinds.includes('score-calibration') ? runRules(ctx, selectRules(allRules, opts, info.env, ['score-calibration'])) : [];
      ({ findings: original, suppressed } = splitFindings([...(kinds.includes('error-repair') ? repair : []), ...pins]));
      ctx.release();
    }
    const phases: FixType[][] = [];
    if (kinds.includes('error-repair')) phases.push(['error-repair']);
    if (kinds.includes('score-calibration')) phases.push(['score-calibration']);
    if (kinds.includes('runtime-reduction')) phases.push(['runtime-reduction']);
    for (const phase of phases) {
      const rules = selectRules(allRules, opts, info.env, phase);
      for (let pass = 0; pass < MAX_PASSES; pass++) {
        const ctx = new NotebookContext(cells, info);
        const raw = runRules(ctx, rules).filter((f) => f.edits.length && !blocked.has(key(f)));
        ctx.release();
        if (raw.length === 0) break;
        let changed = false;
        const next: ParsedCell[] = [];
        for (const cell of cells) {
          const mine = raw.filter((f) => f.cell === cell.index);
          if (mine.length === 0) { next.push(cell); continue; }
          const { text, accepted } = applyFindings(cell.source, mine);
          if (text === cell.source) { next.push(cell); continue; }
          const parsed = await parseCell(cell.index, text);
          if (!parsed) { next.push(cell); continue; }
          if (errorCount(parsed) > errorCount(cell)) {
            // The rewrite parses worse: try the accepted matches one by one, keep the good ones.
            disposeCell(parsed);
            const { cell: kept, applied } = await applyOneByOne(cell, accepted, blocked);
            if (kept !== cell) { disposeCell(cell); changed = true; record(rulesByCell, cell.index, applied); }
            next.push(kept);
            continue;
          }
          disposeCell(cell);
          next.push(parsed);
          record(rulesByCell, cell.index, accepted);
          changed = true;
        }
        cells = next;
        if (!changed) break;
      }
    }
    const finalCtx = new NotebookContext(cells, info);
    const remaining = runRules(finalCtx, selectRules(allRules, opts, info.env, kinds))
      .filter((f) => !f.suppressed)
      .map((f) => (blocked.has(key(f)) ? { ...f, edits: [], note: 'not rewritten: the rewrite would not parse' } : f))
      .map(toFinding);
    finalCtx.release();
    const changes: CellChange[] = [];
    for (const cell of cells) {
      const before = initial.get(cell.index)!;
      if (cell.source === before) continue;
      const r = rulesByCell.get(cell.index);
      changes.push({
        cell: cell.index,
        before,
        after: cell.source,
        rules: r ? [...r.rules] : [],
        fixType: r && !r.kinds.has('error-repair') && r.kinds.size ? [...r.kinds][0] : 'error-repair',
      });
    }
    return { changes, remaining, original, suppressed, pythonMajor: info.pythonMajor };
  } finally {
    disposeCells(cells);
  }
}

function key(f: RawFinding): string {
  return `${f.rule.id}@${f.cell}:${f.match.node.startIndex}`;
}

function record(map: Map<number, { rules: Set<string>; kinds: Set<FixType> }>, cell: number, fs: RawFinding[]): void {
  let e = map.get(cell);
  if (!e) map.set(cell, (e = { rules: new Set(), kinds: new Set() }));
  for (const f of fs) {
    e.rules.add(f.rule.id);
    e.kinds.add(f.rule.kind);
  }
}

async function applyOneByOne(cell: ParsedCell, accepted: RawFinding[], blocked: Set<string>): Promise<{ cell: ParsedCell; applied: RawFinding[] }> {
  let cur = cell;
  const applied: RawFinding[] = [];
  // Offsets refer to the original text, so apply each candidate alone against the original and keep
  // only those that parse no worse; the next pass re-matches the rest on the new text.
  for (const f of accepted) {
    const { text } = applyFindings(cell.source, [f]);
    const parsed = await parseCell(cell.index, text);
    if (parsed && errorCount(parsed) <= errorCount(cell)) {
      if (cur !== cell) disposeCell(cur);
      cur = parsed;
      applied.push(f);
      break; // one at a time; the fixpoint loop continues from the new text
    }
    if (parsed) disposeCell(parsed);
    blocked.add(key(f));
  }
  return { cell: cur, applied };
}

/** Build the notebook with the changed sources, cleared outputs and nbmodernize metadata. */
export function applyChanges(nb: Notebook, changes: CellChange[], toLines: (s: string) => string[]): Notebook {
  const out: Notebook = structuredClone(nb);
  for (const ch of changes) {
    const cell = out.cells[ch.cell] as CodeCell;
    cell.source = toLines(ch.after);
    cell.outputs = [];
    cell.execution_count = null;
    const prev = (cell.metadata?.nbmodernize ?? {}) as { rules?: string[] };
    const rules = [...new Set([...(prev.rules ?? []), ...ch.rules])];
    cell.metadata = { ...cell.metadata, nbmodernize: { changed: true, fixType: ch.fixType, rules } };
  }
  return out;
}
