/**
 * The modernization loop (`nbmodernize modernize`), readable in one sitting:
 *   static rules -> run -> diagnose -> fix (rules, then LLM) -> validate -> apply ->
 *   re-run (incrementally when safe) -> ... -> a clean run from a fresh kernel decides.
 * Every execution and patch is appended to trajectory.jsonl as it happens; report.json, the
 * diff and edits.jsonl are written at the end (also after a stop or an interruption).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sourceText, toLines, type Notebook } from '../core/notebook.js';
import { errorMessage } from '../core/errors.js';
import { log } from '../core/log.js';
import { firstFailure, type CellRecord, type RunResult, type RunStatus } from '../core/run-result.js';
import type { FixType, Patch } from '../core/patch.js';
import type { FixRecord, ModernizeReport, StopReason } from '../core/modernize-report.js';
import { MODERNIZE_REPORT_SCHEMA_VERSION } from '../core/modernize-report.js';
import { toolVersion } from '../core/version.js';
import { DEFAULT_KERNEL, KernelSession, RESEEDED_KERNEL } from '../executor/kernel-session.js';
import { executeCells, type ExecEvent } from '../executor/run-notebook.js';
import { openSandbox } from '../executor/sandbox.js';
import { listProducedFiles } from '../executor/kaggle-layout.js';
import type { Sandbox, SandboxRequest } from '../executor/types.js';
import { fixNotebook, pinDefaults, type RuleFinding } from '../fixers/rules/index.js';
import { buildContext, previewDataDir, type AttemptSummary } from '../fixers/context/index.js';
import { proposePatch, validatePatch, applyEdits, syntaxProblems, type LlmProvider } from '../fixers/llm/index.js';
import { judge, findSubmissionFile, type OracleVerdict } from './oracle.js';
import { decideVerdict, type ExpectedTarget, type VerdictResult } from './verdict.js';
import { diagnose, errorSignature, type Diagnosis } from './diagnosis.js';
import { decideReexecution } from './reexecution.js';
import { budgetStop, DEFAULT_BUDGETS, ProgressTracker, type Budgets } from './budgets.js';
import { JsonlLog } from './trajectory.js';
import { writeArtifacts } from './artifacts.js';
import { DEFAULT_VERIFY_LIMITS, candidateKey, distinctCandidates, generateAndVerify, pinCandidates, rankDriftTrial, rankTrial, type Candidate, type TrialOutcome, type VerifyLimits } from './generate-verify.js';
import { copyOutFiles } from '../executor/copy-out.js';
import { parallelizePatch } from '../fixers/rules/runtime-parallel.js';
import { repairCandidates } from './repair-candidates.js';
import { readDataFacts } from './data-facts.js';
import { reorderCells } from './execution-order.js';
import { excuseUnstable, unstableValues } from './nondeterminism.js';
import { storedErrors } from './stored-errors.js';
import { localModuleMissing, selectProjectFiles, stageProject, unchangedStaged, type StagedManifest } from '../executor/project-files.js';
import { findBuiltEnvironment } from '../executor/environment/cache.js';
import { loadSymbolIndex } from '../executor/environment/symbol-index.js';
import type { SymbolIndex } from '../core/symbol-index.js';
import { pinEvidentDefaults } from '../fixers/rules/evident-pins.js';
import { eraFromRemovedApis, eraFromStoredOutputs, versionLessThan } from '../fixers/rules/era-evidence.js';
import { missingPath } from '../fixers/rules/missing-path.js';
import type { EraHint } from '../fixers/rules/types.js';

export interface ModernizeOptions {
  sandbox: SandboxRequest;
  outDir: string;
  notebookPath: string;
  /** null: rules only (the reason says why, e.g. no API key). */
  llm?: { provider: LlmProvider | null; reason: string; model?: string; providerName?: string };
  budgets?: Partial<Budgets>;
  timeoutS?: number;
  cellTimeoutS?: number;
  expected?: ExpectedTarget;
  tolerance?: number;
  /** Re-run from the patched cell when safe (default true); false = full re-run after every patch. */
  incremental?: boolean;
  /** Forbidden for patches to read (ground truth, test labels). */
  forbiddenPaths?: string[];
  /** When the notebook was written / which versions its author used (merged with what its outputs show). */
  era?: EraHint;
  /** Generate-and-verify limits per problem (candidates, cell executions). */
  verify?: Partial<VerifyLimits>;
  signal?: AbortSignal;
  onEvent?: (e: AgentEvent) => void;
}

export type AgentEvent =
  | { type: 'static-pass'; changedCells: number; findings: number }
  | { type: 'run'; mode: 'full' | 'incremental' | 'final'; fromCell: number }
  | { type: 'exec'; event: ExecEvent }
  | { type: 'diagnosis'; diagnosis: Diagnosis }
  | { type: 'fix'; fix: FixRecord }
  | { type: 'rejected'; source: string; reason: string }
  | { type: 'stop'; reason: StopReason; detail: string }
  | { type: 'verdict'; verdict: VerdictResult };

interface RunState {
  notebook: Notebook; // executed copy of `work` (outputs of the latest execution of each cell)
  cells: CellRecord[]; // latest record per code cell
  status: RunStatus;
  complete: boolean; // every code cell ran (no stop)
  fresh: boolean; // this state came from a single top-to-bottom run in a fresh kernel
}

export async function modernizeNotebook(original: Notebook, opts: ModernizeOptions): Promise<ModernizeReport> {
  const startedAt = new Date();
  const budgets: Budgets = { ...DEFAULT_BUDGETS, ...Object.fromEntries(Object.entries(opts.budgets ?? {}).filter(([, v]) => v !== undefined)) };
  const incremental = opts.incremental ?? true;
  const emit = opts.onEvent ?? (() => {});
  const timeoutS = opts.timeoutS ?? 600;
  const cellTimeoutS = opts.cellTimeoutS ?? timeoutS;
  fs.mkdirSync(opts.outDir, { recursive: true });
  const trajectory = new JsonlLog(path.join(opts.outDir, 'trajectory.jsonl'));
  const edits = new JsonlLog(path.join(opts.outDir, 'edits.jsonl'));
  const dataFiles = opts.sandbox.data ? fs.readdirSync(opts.sandbox.data.dir) : [];
  const provider = opts.llm?.provider ?? null;

  const fixes: FixRecord[] = [];
  const reexecutions: ModernizeReport['reexecutions'] = [];
  const attempts: AttemptSummary[] = [];
  const tried = new Set<string>();
  const changedBy = new Map<number, { fixType: FixType; sources: string[] }>();
  const llm = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, promptTokensMax: 0 };
  let work: Notebook = structuredClone(original);
  // Errors the author's own run raised (stored error outputs): the same again is part of the record.
  const expectedErrors = storedErrors(original);
  let stopReason: StopReason | undefined;
  let stopDetail = '';
  let baseline: ModernizeReport['baseline'] = { status: 'not-run' };
  let finalRun: { run: RunResult; executed: Notebook } | undefined;
  let verdict: VerdictResult | undefined;
  let sandbox: Sandbox | undefined;
  let session: KernelSession | undefined;
  let fullRuns = 0;
  let staticFindings: RuleFinding[] = [];
  /** The author's execution order, once an execution-order repair chose it (else file order). */
  let runOrder: number[] | undefined;
  /** Values that differed between two clean runs (nondeterministic: listed, not judged). */
  const unstable = new Set<string>();
  let symbols: SymbolIndex | undefined;
  // The notebook's own project (helper modules, small files), staged into the working dir before each clean run.
  const project = opts.sandbox.project ? { request: { ...opts.sandbox.project, exclude: [...(opts.sandbox.project.exclude ?? []), ...relInside(opts.sandbox.project.dir, opts.outDir)] }, selection: selectProjectFiles(opts.sandbox.project) } : undefined;
  let staged: StagedManifest | undefined;
  const ownFiles = (dir: string) => listProducedFiles(dir, staged ? unchangedStaged(staged, dir) : undefined);
  const verifyLimits = { ...DEFAULT_VERIFY_LIMITS, ...(opts.verify ?? {}) };
  // The era as the stored outputs show it (estimator reprs, library warnings), for the pins.
  const era: EraHint & { bounds: NonNullable<EraHint['bounds']> } = { ...(opts.era ?? {}), bounds: { ...eraFromStoredOutputs(original), ...(opts.era?.bounds ?? {}) } };
  const stop = (reason: StopReason, detail: string) => {
    stopReason = reason;
    stopDetail = detail;
    trajectory.append({ type: 'stop', reason, detail });
    emit({ type: 'stop', reason, detail });
  };

  const applyPatch = (patch: Patch, step: number, trigger: string, error?: unknown): FixRecord => {
    const before = new Map<number, string>();
    const { sources } = applyEdits(work, patch.edits);
    work = structuredClone(work);
    for (const [cell, src] of sources) {
      before.set(cell, sourceText(work.cells[cell].source));
      work.cells[cell].source = toLines(src);
      const sourceLabel = patch.source.kind === 'rule' ? patch.source.ruleIds.join('+') : patch.source.model;
      const prev = changedBy.get(cell);
      changedBy.set(cell, { fixType: patch.fixType, sources: [...(prev?.sources ?? []), sourceLabel] });
      edits.append({ step, cell, fixType: patch.fixType, source: sourceLabel, before: before.get(cell), after: src, trigger, error });
    }
    const cells = [...sources.keys()].sort((a, b) => a - b);
    const fix: FixRecord = {
      step,
      type: patch.fixType,
      source: patch.source.kind === 'rule' ? patch.source.ruleIds.join('+') : patch.source.model,
      sourceKind: patch.source.kind,
      cell: cells[0] ?? -1,
      cells,
      summary: patch.summary,
      trigger,
    };
    fixes.push(fix);
    trajectory.append({ ...fix, type: 'patch', fixType: fix.type, edits: patch.edits });
    emit({ type: 'fix', fix });
    return fix;
  };

  try {
    // 1. Static pass: every safe rule, all at once, before the first run (free, deterministic).
    const staticFix = await fixNotebook(work, { dataFiles, era });
    staticFindings = staticFix.originalFindings;
    // The removed APIs the notebook used are era evidence too (it ran before they were removed); the
    // rewritten notebook no longer shows them, so the bounds are kept for the pins that follow.
    for (const [lib, b] of Object.entries(eraFromRemovedApis(staticFindings))) {
      const cur = era.bounds[lib as keyof typeof era.bounds];
      if (!cur || versionLessThan(b.version, cur.version)) era.bounds[lib as keyof typeof era.bounds] = b;
    }
    for (const patch of staticFix.patches) applyPatch(patch, 0, 'static scan');
    // Old defaults whose effect the data itself shows (e.g. 'None' fields read as NaN since pandas 2.0).
    const dataFacts = opts.sandbox.data ? readDataFacts(opts.sandbox.data.dir, { exclude: opts.sandbox.data.exclude ?? [] }) : undefined;
    if (dataFacts) {
      trajectory.append({ type: 'data-facts', facts: dataFacts });
      for (const patch of (await pinEvidentDefaults(work, { dataFiles, dataFacts, era })).patches) applyPatch(patch, 0, 'static pin: the data holds values read differently since the notebook was written');
    }
    emit({ type: 'static-pass', changedCells: staticFix.patches.length, findings: staticFix.originalFindings.length });
    trajectory.append({ type: 'static-pass', changedCells: staticFix.patches.map((p) => p.edits[0].cell), findings: staticFix.findings.map((f) => ({ cell: f.cell, rule: f.ruleId, message: f.message, autoFixable: f.autoFixable })) });

    sandbox = await openSandbox(opts.sandbox, { signal: opts.signal });
    if (project) trajectory.append({ type: 'project', dir: project.request.dir, files: project.selection.files.length, bytes: project.selection.files.reduce((a, f) => a + f.bytes, 0), skipped: project.selection.skipped.slice(0, 50) });
    // The environment's public names, for moved and missing imports (built once per environment).
    const built = opts.sandbox.cacheDir ? findBuiltEnvironment(opts.sandbox.environment, opts.sandbox.cacheDir) : undefined;
    symbols = built ? await loadSymbolIndex(built) : undefined;
    session = await KernelSession.start(sandbox);
    const sb = sandbox;
    const sess = session;

    const execute = async (requested: 'full' | 'incremental' | 'final', fromCell: number, prev?: RunState, kernel?: string): Promise<RunState> => {
      // A reordered run is always re-run whole: "the cells after the patched one" has no file-order meaning then.
      const mode = runOrder && requested === 'incremental' ? 'full' : requested;
      if (mode === 'full' && requested === 'incremental') fromCell = 0;
      if (mode !== 'incremental') {
        if (sess.cellExecutions > 0 || !sess.alive || (kernel ?? DEFAULT_KERNEL) !== sess.kernelName) await sess.restart(kernel ? { kernel } : {});
        clearWorkDir(sb);
        if (project && sb.workDirHost) staged = stageProject(project.request, project.selection, sb.workDirHost);
        fullRuns += 1;
      }
      emit({ type: 'run', mode, fromCell });
      const input = structuredClone(work);
      // Cells above the re-run point keep the outputs of their earlier execution.
      if (mode === 'incremental' && prev) {
        for (let i = 0; i < fromCell; i++) if (input.cells[i]?.cell_type === 'code') (input.cells[i] as any).outputs = (prev.notebook.cells[i] as any).outputs;
      }
      const spentBefore = mode === 'incremental' && prev ? prev.cells.filter((c) => c.index < fromCell).reduce((s, c) => s + (c.durationMs ?? 0), 0) : 0;
      const res = await executeCells(input, sess, {
        ...(runOrder ? { order: runOrder } : {}),
        ...(expectedErrors.size ? { expectedErrors } : {}),
        deadline: Date.now() + timeoutS * 1000 - spentBefore,
        cellTimeoutMs: cellTimeoutS * 1000,
        allowErrors: false,
        collectState: true,
        signal: opts.signal,
        emit: (event) => emit({ type: 'exec', event }),
        ...(mode === 'incremental' ? { fromCell } : {}),
      });
      const cells = mode === 'incremental' && prev ? [...prev.cells.filter((c) => c.index < fromCell), ...res.cells] : res.cells;
      trajectory.append({
        type: 'execution',
        mode,
        fromCell,
        status: res.status,
        cells: res.cells.map((c) => ({ index: c.index, status: c.status, durationMs: c.durationMs, peakMemoryBytes: c.peakMemoryBytes, error: c.error ? { ename: c.error.ename, evalue: c.error.evalue } : undefined, state: c.state })),
      });
      return { notebook: res.notebook, cells, status: res.status, complete: !cells.some((c) => c.status === 'not-run'), fresh: mode !== 'incremental' };
    };

    /** What the loop knows beyond the notebook, for the repair mechanisms. */
    const repairInputs = (st: RunState) => ({
      original,
      era,
      ...(symbols ? { symbols } : {}),
      ...(opts.sandbox.data?.competition ? { competition: opts.sandbox.data.competition } : {}),
      ...(runOrder ? { runOrder } : {}),
      ...(st.cells.length ? {} : {}),
    });

    const rawOracle = (state: RunState): OracleVerdict => {
      const submission = findSubmissionFile(ownFiles(sb.workDirHost).map((f) => ({ ...f, path: path.join(sb.workDirHost, f.name) })));
      return judge({ original, current: state.notebook, ...(opts.expected ? { expectedScore: opts.expected } : {}), ...(submission ? { submission } : {}), tolerance: opts.tolerance });
    };
    const oracleFor = (state: RunState) => (): OracleVerdict => excuseUnstable(rawOracle(state), unstable);

    // 2. First run (after the static pass).
    let state = await execute('full', 0);
    const firstErr = state.cells.find((c) => c.error);
    baseline = { status: state.status, ...(firstErr?.error ? { error: { cell: firstErr.index, ename: firstErr.error.ename, evalue: firstErr.error.evalue } } : {}) };
    const progress = new ProgressTracker();
    let lastPatchSignature: string | undefined;
    let step = 0;
    let escalate = false;
    // Set when the kernel's state is not the kept state's (a rejected trial ran last).
    let forceRestart = false;
    // The code version (sources and order) whose drift was already checked by a second clean run.
    let rerunFor: string | undefined;

    /**
     * Generate and verify over `candidates` for the problem at `target`: each trial applies one
     * candidate to a copy, runs (incrementally when the kernel's state allows) and is ranked by
     * `rank`; the best that `accept` allows becomes a fix and the loop's state. True when one was kept.
     */
    const verifyCandidates = async (
      candidates: Candidate[], problem: { cell: number; why: string; signature: string }, trigger: { ename: string; evalue: string } | undefined,
      rank: (s: RunState, fromCell: number, cellExecutions: number) => TrialOutcome,
      accept: (o: TrialOutcome) => boolean,
    ): Promise<boolean> => {
      const target = problem.cell;
      // The run the kernel's state comes from, and the first cell whose code in the kernel is a trial's:
      // a trial that failed again at the target ran nothing after it, so the next trial can resume
      // from its own first patched cell if that is no later than the previous trial's.
      let base: RunState | undefined = forceRestart ? undefined : state;
      let baseFrom = Infinity;
      const gv = await generateAndVerify(candidates, async (c, index) => {
        const saved = { work, runOrder };
        work = withSources(work, applyEdits(work, c.patch.edits).sources);
        if (c.order) runOrder = c.order;
        const execBefore = sess.cellExecutions;
        const patched = c.patch.edits.map((e) => e.cell);
        const fromCell = c.order ? 0 : Math.min(...patched, target);
        let s: RunState;
        if (base && !c.order && fromCell <= baseFrom) {
          const decision = decideReexecution({ incrementalEnabled: incremental, kernelAlive: sess.alive, patchedCells: patched, failedCell: target, lastRunCells: base.cells, lastRunWasComplete: base.complete && base.status === 'ok' });
          trajectory.append({ type: 'reexecution', step, candidate: index, ...decision });
          s = decision.mode === 'incremental' ? await execute('incremental', decision.fromCell, base) : await execute('full', 0);
        } else {
          s = await execute('full', 0);
        }
        const outcome = rank(s, fromCell, sess.cellExecutions - execBefore);
        const stoppedAtTarget = firstFailure(s.cells)?.index === target;
        base = stoppedAtTarget && !c.order ? s : undefined;
        baseFrom = fromCell;
        trajectory.append({ type: 'candidate', step, index, label: c.label, source: c.patch.source, summary: c.patch.summary, edits: c.patch.edits, ...(c.order ? { order: c.order } : {}), outcome });
        work = saved.work;
        runOrder = saved.runOrder;
        return { state: s, outcome };
      }, { ...verifyLimits, deadline: startedAt.getTime() + budgets.maxWallS * 1000 });
      for (const c of candidates.slice(0, gv.trials.length)) tried.add(candidateKey(c));
      const kept = gv.kept && accept(gv.kept.outcome) ? gv.kept : undefined;
      if (gv.kept && !kept) for (const t of gv.trials) t.kept = false;
      trajectory.append({ type: 'verify', step, cell: target, trials: gv.trials, kept: kept?.index ?? null, ...(gv.stoppedBy ? { stoppedBy: gv.stoppedBy } : {}) });
      // The kernel holds the last trial's state: unless that is the kept one, the next run starts fresh.
      forceRestart = !kept || gv.lastIndex !== kept.index;
      if (!kept) {
        for (const t of gv.trials) emit({ type: 'rejected', source: 'rule', reason: `candidate ${t.label}: ${t.outcome.detail}` });
        return false;
      }
      const c = kept.candidate;
      if (c.order) runOrder = c.order;
      const fix = applyPatch(c.patch, step, problem.why, trigger);
      fix.candidates = gv.trials.map((t) => ({ label: t.label, summary: t.summary, outcome: t.outcome.rank, detail: t.outcome.detail, kept: t.kept }));
      if (c.order) fix.summary = `${c.patch.summary} (run order: ${c.order.join(', ')})`;
      attempts.push({ fixType: c.patch.fixType, source: fix.source, cells: fix.cells, summary: c.patch.summary, outcome: 'pending' });
      lastPatchSignature = problem.signature;
      escalate = false;
      state = kept.state;
      if (forceRestart) state = { ...state, fresh: false };
      return true;
    };

    for (;;) {
      if (opts.signal?.aborted) {
        stop('interrupted', 'interrupted by the user');
        break;
      }
      let diagnosis = diagnose(state.status, state.cells, oracleFor(state));
      // A drift on a clean run from a fresh kernel: first ask whether the value is reproducible at
      // all. One more clean run; values that differ between the two are nondeterministic, not judged.
      const codeKey = JSON.stringify([work.cells.map((c) => c.source), runOrder ?? null]);
      if (diagnosis.kind === 'fix' && diagnosis.fixType === 'score-calibration' && state.fresh && state.status === 'ok' && rerunFor !== codeKey) {
        rerunFor = codeKey;
        const first = rawOracle(state);
        // On the re-seeded kernel: set and str-hash ordering differ between the two runs, so a
        // value that depends on them shows up as unstable instead of as a stable drift.
        const again = await execute('full', 0, undefined, RESEEDED_KERNEL);
        if (again.status === 'ok' && !firstFailure(again.cells)) {
          const found = unstableValues(first, rawOracle(again));
          for (const k of found) unstable.add(k);
          trajectory.append({ type: 'rerun', why: 'a drift on a clean run: is it reproducible?', kernel: sess.kernelName, unstable: [...found] });
          state = again;
          diagnosis = diagnose(state.status, state.cells, oracleFor(state));
        }
      }
      emit({ type: 'diagnosis', diagnosis });
      trajectory.append({ type: 'diagnosis', diagnosis });
      if (attempts.length) attempts[attempts.length - 1].outcome = diagnosis.kind === 'done' ? 'fixed: the run is clean and matches' : `next problem: ${diagnosis.why}`;
      if (fixes.length) fixes[fixes.length - 1].outcome ??= diagnosis.kind === 'done' ? 'clean' : diagnosis.why;

      if (diagnosis.kind === 'done') {
        // 3. Only a clean run from a fresh kernel decides; if it disagrees, keep fixing from it.
        if (!state.fresh) {
          state = await execute('final', 0);
          if (diagnose(state.status, state.cells, oracleFor(state)).kind !== 'done') continue;
        }
        finalRun = { run: runResultFor(state, sb, sess, startedAt, opts, timeoutS, cellTimeoutS, staged ? unchangedStaged(staged, sb.workDirHost) : undefined), executed: state.notebook };
        stop('reproduced', 'the clean run from a fresh kernel reproduces');
        break;
      }

      // No progress: the same problem after two different patches -> escalate once, then stop.
      if (lastPatchSignature === diagnosis.signature) {
        const p = progress.record(diagnosis.signature);
        if (p === 'stop' || (p === 'escalate' && !provider)) {
          stop('no-progress', `the same problem after ${p === 'stop' ? 'escalation' : 'two different patches'}: ${diagnosis.why}`);
          break;
        }
        escalate = p === 'escalate';
      }
      const over = budgetStop(budgets, { fixes: fixes.filter((f) => f.step > 0).length, spentUsd: llm.costUsd, startedAt: startedAt.getTime() });
      if (over) {
        stop(over, `${over} reached (${diagnosis.why})`);
        break;
      }

      // 4. Fixers in order: matching rules, then the LLM.
      step += 1;
      let patch: Patch | undefined;
      if (!escalate && diagnosis.fixType === 'error-repair' && diagnosis.error) {
        // Generate and verify: every plausible repair, tried in order; the first that runs and
        // agrees with the stored outputs is kept (trials are recorded, not counted as fixes).
        const candidates = distinctCandidates(
          await repairCandidates({ notebook: work, cell: diagnosis.cell, error: diagnosis.error, dataFiles, ...repairInputs(state) }),
          (c) => !tried.has(candidateKey(c)) && (c.order ? JSON.stringify(c.order) !== JSON.stringify(runOrder) : changes(work, c.patch)),
        );
        const before = diagnosis.error;
        if (candidates.length && await verifyCandidates(candidates, diagnosis, { ename: before.ename, evalue: before.evalue },
          (s, fromCell, execs) => rankTrial(diagnosis.cell, fromCell, before, s.cells, oracleFor(s)().comparisons, execs),
          () => true)) continue;
      } else if (!escalate && diagnosis.fixType === 'runtime-reduction') {
        // The one speed-up that cannot change a result: scikit-learn's parallel-safe calls on all cores.
        const p = await parallelizePatch(work, diagnosis.cell);
        if (p && !tried.has(patchKey(p)) && changes(work, p)) patch = p;
      } else if (!escalate && diagnosis.fixType === 'score-calibration') {
        const candidates = await pinDefaults(work, { dataFiles, era });
        patch = candidates.find((p) => !tried.has(patchKey(p)) && changes(work, p));
        if (!patch) {
          // Verified pins: where the era is unknown, the old defaults of the calls that feed the drifted
          // cell are candidates; one is kept only if its run makes the stored outputs agree.
          const target = diagnosis.cell;
          const driftedBefore = oracleFor(state)().comparisons.filter((c) => !c.ok).length;
          const pins = pinCandidates(await pinDefaults(work, { dataFiles, era: { ...era, unknownAsOld: true } }), target);
          const cands = distinctCandidates(pins, (c) => !tried.has(candidateKey(c)) && changes(work, c.patch));
          if (cands.length && await verifyCandidates(cands, diagnosis, undefined,
            (s, _fromCell, execs) => rankDriftTrial(target, driftedBefore, s.cells, oracleFor(s)().comparisons, execs),
            (o) => o.rank === 'agrees')) continue;
        }
      }
      if (!patch && provider) {
        const context = await buildContext({
          notebook: work,
          targetCell: diagnosis.cell,
          fixType: diagnosis.fixType,
          cells: state.cells,
          ...(diagnosis.error ? { error: diagnosis.error } : {}),
          versions: sb.environment.versions,
          python: sb.environment.python,
          dataFiles: opts.sandbox.data ? previewDataDir(opts.sandbox.data.dir, { exclude: opts.forbiddenPaths ?? [] }) : [],
          dataDirLabel: '../input/ (also /kaggle/input/<competition>/)',
          attempts,
          findings: staticFindings.filter((f) => !f.autoFixable),
          timeBudgetS: timeoutS,
          ...(diagnosis.drift ? {
            target: {
              original: diagnosis.drift.original ?? undefined,
              current: diagnosis.drift.current ?? undefined,
              note: diagnosis.drift.oracle === 'expected-score' ? 'submission scored against the ground truth' : `stored outputs of cell ${diagnosis.cell}${diagnosis.drift.context ? `: "${diagnosis.drift.context.trim().slice(0, 120)}"` : ''}`,
            },
            targetOutputs: { original: outputText(original, diagnosis.cell), current: outputText(state.notebook, diagnosis.cell) },
          } : {}),
        });
        const allowed = [diagnosis.cell, ...(context.cellsShown ?? [])];
        const res = await proposePatch({
          provider,
          notebook: work,
          fixType: diagnosis.fixType,
          targetCell: diagnosis.cell,
          context: context.text,
          allowedCells: allowed,
          forbiddenPaths: opts.forbiddenPaths,
          ...(escalate ? { note: 'Earlier patches did not change the outcome. Rethink the root cause and rewrite the whole cell if needed.' } : {}),
        });
        llm.calls += res.calls.length;
        for (const c of res.calls) {
          llm.inputTokens += c.usage.inputTokens;
          llm.outputTokens += c.usage.outputTokens;
        }
        llm.costUsd += res.costUsd;
        llm.promptTokensMax = Math.max(llm.promptTokensMax, res.promptTokens);
        trajectory.append({ type: 'llm', step, fixType: diagnosis.fixType, cell: diagnosis.cell, promptTokens: res.promptTokens, calls: res.calls.map((c) => ({ outcome: c.outcome, feedback: c.feedback, usage: c.usage, costUsd: c.costUsd, reply: c.reply })), failure: res.failure });
        if (res.failure) {
          for (const c of res.calls) if (c.outcome !== 'ok') emit({ type: 'rejected', source: 'llm', reason: c.feedback ?? c.outcome });
          if (res.failure.kind === 'llm-error') {
            stop(res.failure.llmKind === 'budget' ? 'spend-cap' : 'llm-error', res.failure.message);
          } else {
            stop('no-fix-available', `the model gave no valid patch after reflections: ${res.failure.message}`);
          }
          break;
        }
        patch = res.patch;
      }
      if (!patch) {
        // A library the environment does not have is a diagnosis, not something to guess away.
        const missing = staticFindings.find((f) => f.cell === diagnosis.cell && (f.ruleId === 'env-unavailable-library' || f.ruleId === 'env-missing-module'));
        if (missing && diagnosis.error && /ModuleNotFoundError|ImportError/.test(diagnosis.error.ename)) {
          // A module of the author's own: say where it was looked for, once, plainly.
          const own = missing.ruleId === 'env-missing-module' && project
            ? localModuleMissing(diagnosis.error.evalue, project.selection.files.map((f) => f.rel), new Set(), project.request.dir)
            : undefined;
          stop('unfixable', own ?? missing.message);
          break;
        }
        // A read of a file the mounted data does not have (and no candidate mapped it to one): say so plainly.
        const absent = diagnosis.error ? missingPath(diagnosis.error.ename, diagnosis.error.evalue) : undefined;
        if (absent && !absent.write && opts.sandbox.data) {
          stop('unfixable', `the notebook reads ${absent.path}, which the data provided does not hold (data files: ${dataFiles.join(', ') || 'none'}); an input this run does not have`);
          break;
        }
        stop('no-fix-available', `${provider ? 'no fixer' : 'no rule (rules only: ' + (opts.llm?.reason ?? 'no LLM configured') + ')'} proposes a patch for cell ${diagnosis.cell}: ${diagnosis.why}`);
        break;
      }
      // 5. Validate before running (rules are trusted to be syntactically safe, LLM patches are checked by proposePatch).
      const check = await validatePatch(patch, work, { forbiddenPaths: opts.forbiddenPaths });
      if (!check.ok && patch.source.kind === 'rule') {
        // A rule may fix one Python 2 construct in a cell that still has others: judge it on what it added.
        const stillBroken = await Promise.all(patch.edits.map(async (e) => (await syntaxProblems(sourceText(work.cells[e.cell].source), e.cell)).length > 0));
        check.problems = check.problems.filter((p) => !((p.kind === 'syntax' || p.kind === 'python2') && stillBroken.some(Boolean)));
        check.reasons = check.problems.map((p) => (p.cell >= 0 ? `cell ${p.cell}: ${p.message}` : p.message));
        check.ok = check.problems.length === 0;
      }
      if (!check.ok) {
        emit({ type: 'rejected', source: patch.source.kind, reason: check.reasons.join('; ') });
        trajectory.append({ type: 'rejected', patch, reasons: check.reasons });
        tried.add(patchKey(patch));
        continue;
      }
      tried.add(patchKey(patch));
      const fix = applyPatch(patch, step, diagnosis.why, diagnosis.error ? { ename: diagnosis.error.ename, evalue: diagnosis.error.evalue } : undefined);
      attempts.push({ fixType: patch.fixType, source: fix.source, cells: fix.cells, summary: patch.summary, outcome: 'pending' });
      lastPatchSignature = diagnosis.signature;
      escalate = false;

      // 6. Re-execute: incrementally from the patched cell when the kernel state is trustworthy.
      const failedCell = firstFailure(state.cells)?.index;
      const decision = decideReexecution({
        incrementalEnabled: incremental,
        kernelAlive: sess.alive && !forceRestart,
        patchedCells: fix.cells,
        failedCell,
        lastRunCells: state.cells,
        lastRunWasComplete: state.complete && state.status === 'ok',
      });
      reexecutions.push({ step, ...decision });
      trajectory.append({ type: 'reexecution', step, ...decision });
      log.info(`step ${step}: ${decision.mode} from cell ${decision.fromCell}: ${decision.reason}`);
      state = decision.mode === 'incremental' ? await execute('incremental', decision.fromCell, state) : await execute('full', 0);
      forceRestart = false;
    }
  } catch (err) {
    if (opts.signal?.aborted) stop('interrupted', 'interrupted by the user');
    else stop('sandbox-error', errorMessage(err));
  } finally {
    // Files the final run wrote (submission.csv) belong to the outputs.
    // Capped (per file and in all), so a notebook that fills its quota cannot fill the output dir.
    if (sandbox && finalRun) {
      for (const f of copyOutFiles(sandbox.workDirHost, ownFiles(sandbox.workDirHost), path.join(opts.outDir, 'files'))) {
        if (f.notCopied) log.warn(`${f.name} (${f.bytes} bytes) was not copied to the outputs: ${f.notCopied}`);
      }
    }
    await session?.close({ abandon: sandbox?.killsAllOnStop }).catch(() => undefined);
    await sandbox?.stop().catch(() => undefined);
    trajectory.close();
    edits.close();
  }

  if (finalRun) verdict = decideVerdict({ original, executed: finalRun.executed, run: finalRun.run, expected: opts.expected, tolerance: opts.tolerance, unstable });
  if (verdict) emit({ type: 'verdict', verdict });
  const report: ModernizeReport = {
    schemaVersion: MODERNIZE_REPORT_SCHEMA_VERSION,
    tool: { name: 'nbmodernize', version: toolVersion() },
    notebook: { path: opts.notebookPath, output: null },
    verdict: verdict?.verdict ?? (stopReason === 'sandbox-error' ? 'failed' : 'not-reproduced'),
    reason: verdict?.reason ?? stopDetail,
    stopReason: stopReason ?? 'no-fix-available',
    oracle: verdict?.oracle.oracle ?? (opts.expected ? 'expected-score' : 'stored-outputs'),
    comparisons: verdict?.oracle.comparisons ?? [],
    baseline,
    finalRun: finalRun ? { status: finalRun.run.status, wallMs: finalRun.run.wallMs, errorCell: finalRun.run.error?.cell ?? null } : null,
    staticFindings: staticFindings.length,
    fixes,
    cellExecutions: session?.cellExecutions ?? 0,
    fullRuns,
    incremental,
    reexecutions,
    llm: { provider: opts.llm?.providerName ?? null, model: opts.llm?.model ?? null, ...llm, note: provider ? 'LLM enabled' : `rules only: ${opts.llm?.reason ?? 'no LLM configured'}` },
    environment: sandbox?.environment ?? null,
    sandbox: sandbox?.kind ?? null,
    startedAt: startedAt.toISOString(),
    wallMs: Date.now() - startedAt.getTime(),
    artifacts: {},
  };
  // An execution-order repair is written as the order itself: the cells are moved, so the notebook runs top to bottom.
  if (runOrder) {
    const moved = reorderCells(work, runOrder);
    const executed = finalRun ? reorderCells(finalRun.executed, runOrder).notebook : undefined;
    const remapped = new Map([...changedBy].map(([cell, info]) => [moved.newIndex.get(cell) ?? cell, info]));
    for (const [oldIdx, newIdx] of moved.newIndex) if (oldIdx !== newIdx && !remapped.has(newIdx)) remapped.set(newIdx, { fixType: 'error-repair', sources: ['execution-order'] });
    return writeArtifacts({ report, original, modernized: moved.notebook, executed, changedBy: remapped, outDir: opts.outDir, notebookPath: opts.notebookPath });
  }
  return writeArtifacts({ report, original, modernized: work, executed: finalRun?.executed, changedBy, outDir: opts.outDir, notebookPath: opts.notebookPath });
}

/** Printed text (stdout and text/plain results) of one cell, for score-calibration prompts. */
function outputText(nb: Notebook, cell: number): string {
  const c = nb.cells[cell];
  if (!c || c.cell_type !== 'code') return '';
  return c.outputs
    .map((o: any) => (o.output_type === 'stream' && o.name === 'stdout' ? sourceText(o.text) : o.output_type === 'execute_result' ? sourceText(o.data?.['text/plain']) : ''))
    .join('')
    .slice(0, 2000);
}

/** `inner` relative to `root` when it lies inside it (to keep the output dir out of the project copy). */
function relInside(root: string, inner: string): string[] {
  const rel = path.relative(path.resolve(root), path.resolve(inner));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? [rel.split(path.sep).join('/')] : [];
}

/** A copy of the notebook with these cells' sources replaced. */
function withSources(nb: Notebook, sources: Map<number, string>): Notebook {
  const out = structuredClone(nb);
  for (const [cell, src] of sources) out.cells[cell].source = toLines(src);
  return out;
}

function patchKey(p: Patch): string {
  return JSON.stringify(p.edits);
}

/** A patch that leaves every cell as it is would loop forever. */
function changes(nb: Notebook, p: Patch): boolean {
  const { sources } = applyEdits(nb, p.edits);
  return [...sources].some(([cell, src]) => sourceText(nb.cells[cell].source) !== src);
}

/** Clean the working dir between full runs so one run's files cannot satisfy the next one. */
function clearWorkDir(sb: Sandbox): void {
  if (!sb.workDirHost) return;
  for (const entry of fs.readdirSync(sb.workDirHost)) {
    const p = path.join(sb.workDirHost, entry);
    if (fs.lstatSync(p).isSymbolicLink()) continue; // data links (--data-next-to-notebook)
    fs.rmSync(p, { recursive: true, force: true });
  }
}

function runResultFor(state: RunState, sb: Sandbox, sess: KernelSession, startedAt: Date, opts: ModernizeOptions, timeoutS: number, cellTimeoutS: number, stagedInputs?: Set<string>): RunResult {
  const firstError = state.cells.find((c) => c.error);
  const wallMs = state.cells.reduce((s, c) => s + (c.durationMs ?? 0), 0);
  return {
    schemaVersion: '1.0.0',
    tool: { name: 'nbmodernize', version: toolVersion() },
    notebook: { path: opts.notebookPath, originalFormat: 4, notes: [] },
    status: state.status,
    sandbox: sb.kind,
    sandboxInfo: { kind: sb.kind, requested: opts.sandbox.kind, reason: sb.reason, startMs: sb.startMs, limits: sb.limits },
    environment: sb.environment,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    wallMs,
    kernelStartMs: sess.kernelStartMs,
    options: { cellTimeoutS, timeoutS, allowErrors: false, competition: opts.sandbox.data?.competition ?? null, dataDir: opts.sandbox.data?.dir ?? null },
    cellExecutions: sess.cellExecutions,
    cells: state.cells,
    ...(firstError?.error ? { error: { ...firstError.error, cell: firstError.index } } : {}),
    producedFiles: listProducedFiles(sb.workDirHost, stagedInputs).map((f) => ({ ...f, path: path.join(sb.workDirHost, f.name) })),
    outputs: { notebook: null, dir: opts.outDir },
  };
}

