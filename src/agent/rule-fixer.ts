/**
 * The deterministic fixer. An error: every plausible repair (repair-candidates.ts) as candidates
 * to verify. A drift: an old default the era makes certain is a patch; where the era is unknown,
 * the old defaults of the calls feeding the drifted cell are candidates, kept only if a run makes
 * the stored outputs agree. Over the time or memory budget: the era's certain old defaults up to the
 * slow cell, then (verified) a search restricted to the candidates the stored outputs name, then
 * n_jobs=-1 where it cannot change a result, then (verified) the old defaults that multiplied the work.
 * Escalation skips the rules: they already had their turn.
 */
import type { Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import type { SymbolIndex } from '../core/symbol-index.js';
import { pinDefaults } from '../fixers/rules/index.js';
import type { EraHint } from '../fixers/rules/types.js';
import { distinctCandidates, everySiteCandidates, mergePins, pinCandidates, rankDriftTrial, rankTrial, runPosition } from './generate-verify.js';
import { repairCandidates } from './repair-candidates.js';
import { parallelizePatch } from '../fixers/rules/runtime-parallel.js';
import { searchPinPatch } from '../fixers/rules/runtime-search-pin.js';
import { analyzeNotebook, dependentCells } from '../fixers/python/defuse.js';
import { ixRowPositionDriftPatch } from '../fixers/rules/pandas-ix-at-error.js';
import { editedLiteralPatches } from '../fixers/rules/edited-literal.js';
import { earlierSessionPatch } from './earlier-session.js';
import { authorOrderDriftCandidates } from './drift-order.js';
import { repeatedRunCandidates } from './repeated-runs.js';
import { LINEAR_REGRESSION, sklearnLinearRegressionRank } from '../fixers/rules/sklearn-linear-regression-rank.js';
import { STRATIFIED_SPLITTERS, sklearnStratifiedKFoldPre022 } from '../fixers/rules/sklearn-stratified-kfold.js';
import { IID_SEARCHES, sklearnSearchIid } from '../fixers/rules/sklearn-search-iid.js';
import { LARS_NORMALIZE_CLASSES, sklearnPinLarsNormalize } from '../fixers/rules/sklearn-lars-normalize.js';
import { EVIDENCE_GATED_PINS } from '../fixers/rules/evident-pins.js';
import { calledName, cellsFedBy } from '../fixers/python/unseeded.js';
import type { Fixer, Problem, Proposal } from './fixers.js';
import type { RunState } from './environment.js';
import type { DataFacts } from '../fixers/rules/context.js';
import type { Candidate } from './generate-verify.js';

export interface RuleFixerDeps {
  original: Notebook;
  dataFiles: string[];
  era: EraHint;
  symbols?: SymbolIndex;
  competition?: string;
  /** What the mounted data holds (e.g. fields pandas 2 reads as missing): evidence-gated pins need it as drift candidates too. */
  dataFacts?: DataFacts;
}

export function ruleFixer(d: RuleFixerDeps): Fixer {
  return {
    name: 'rules',
    async propose(p: Problem): Promise<Proposal | undefined> {
      const { diagnosis, notebook } = p;
      if (p.escalate) return undefined;
      if (diagnosis.fixType === 'error-repair' && diagnosis.error) {
        const error = diagnosis.error;
        const candidates = distinctCandidates(await repairCandidates({
          notebook, cell: diagnosis.cell, error, dataFiles: d.dataFiles, original: d.original, era: d.era,
          ...(d.symbols ? { symbols: d.symbols } : {}), ...(d.competition ? { competition: d.competition } : {}), ...(p.runOrder ? { runOrder: p.runOrder } : {}),
          ...(d.dataFacts ? { dataFacts: d.dataFacts } : {}),
        }), p.isNew);
        const pinned = await defaultChangeErrorProposal(d, p);
        if (!candidates.length) return pinned;
        const ruled = (s: RunState, fromCell: number, execs: number) => rankTrial(diagnosis.cell, fromCell, error, s.cells, p.oracle(s).comparisons, execs, p.state.cells);
        if (pinned?.kind !== 'candidates') return { kind: 'candidates', candidates, accept: () => true, rank: ruled };
        // After the rules' own candidates, the pins acting on the cell (a changed default upstream),
        // each kept only where the record agrees (needsAgreement: never a fallback).
        const pins = pinned.candidates;
        const isPin = new Set(pins.map((c) => c.label));
        return {
          kind: 'candidates', candidates: [...candidates, ...pins], accept: () => true,
          rank: (s, fromCell, execs, c) => (c.needsAgreement && isPin.has(c.label) ? pinned.rank(s, fromCell, execs, c) : ruled(s, fromCell, execs)),
        };
      }
      if (diagnosis.fixType === 'runtime-reduction') {
        // First the old defaults the era makes certain, in the cells up to the slow one: they are what
        // the author ran, and the defaults that grew since (forests 10 -> 100 trees, cv 3 -> 5 folds)
        // are often what made the cell slow or too big for memory.
        const certain = eraPins(await pinDefaults(notebook, { dataFiles: d.dataFiles, era: d.era }), diagnosis.cell, 'runtime-reduction', p.runOrder);
        // Each candidate below is kept only if the run then gets past the slow cell and no stored value disagrees.
        const slow = { ename: p.state.cells.find((c) => c.index === diagnosis.cell)?.status ?? 'timeout', evalue: '' };
        const verified = (candidates: Candidate[]): Proposal => ({ kind: 'candidates', candidates, accept: (o) => o.rank === 'agrees', rank: (s, fromCell, execs) => rankTrial(diagnosis.cell, fromCell, slow, s.cells, p.oracle(s).comparisons, execs, p.state.cells) });
        // A restricted search is judged on the slow cell and the cells whose values come from it: a later
        // cell that drifts for reasons of its own (an unrelated model) is the next problem, not this one's.
        // With the era's pins in the pair, the cells they edit and feed are judged too: a pin the record
        // disagrees with (a concat the author's pandas no longer sorted) must not ride in on the search.
        const searchVerified = (candidates: Candidate[], pinned: Patch | undefined = undefined): Proposal => {
          const du = analyzeNotebook(notebook);
          const judged = new Set([diagnosis.cell, ...dependentCells(du, diagnosis.cell)]);
          for (const e of pinned?.edits ?? []) for (const c of [e.cell, ...dependentCells(du, e.cell)]) judged.add(c);
          return {
            kind: 'candidates', candidates, accept: (o) => o.rank === 'agrees',
            rank: (s, fromCell, execs) => rankTrial(diagnosis.cell, fromCell, slow, s.cells, p.oracle(s).comparisons.filter((c) => c.cell !== null && judged.has(c.cell)), execs, p.state.cells),
          };
        };
        if (certain && p.isNew({ label: '', patch: certain })) {
          // A slow run costs a whole cell budget, and a notebook has about one and a half: when the
          // slow cell also runs a search the stored outputs name the best of, the era's defaults and
          // that restriction are tried together first (the era's pins alone if the pair is refused).
          const both = withSearchPin(certain, await searchPinPatch(withEdits(notebook, certain), d.original, diagnosis.cell));
          if (!both) return { kind: 'patch', patch: certain };
          // If the record disagrees with the pair (a pin the author's versions did not have, or the
          // restriction), the restriction alone is the next candidate: the pins are not forced in unverified.
          const alone = await searchPinPatch(notebook, d.original, diagnosis.cell);
          const pair = distinctCandidates([
            { label: 'era defaults + search restricted to the stored best', patch: both },
            ...(alone ? [{ label: 'search restricted to the stored best', patch: alone }] : []),
          ], p.isNew);
          if (pair.length) return searchVerified(pair, certain);
        }
        // A search restricted to the candidates the author's stored outputs name: it keeps the printed
        // results when this environment still scores them as the author's did. Tried before n_jobs:
        // its trial re-runs from the search on far fewer fits, where n_jobs=-1 on a machine with fewer
        // cores than the author's costs a whole budget and often stays over it; rejected, it is tried
        // again after n_jobs (the cell then differs).
        const pin = await searchPinPatch(notebook, d.original, diagnosis.cell);
        const pinned = pin ? distinctCandidates([{ label: 'search restricted to the stored best', patch: pin }], p.isNew) : [];
        if (pinned.length) return searchVerified(pinned);
        // Then the one speed-up that cannot change a result: scikit-learn's parallel-safe calls on all
        // cores, unless the sandbox gives the notebook one thread (an audit of as many notebooks at
        // once as there are cores): n_jobs=-1 then runs one worker, and the re-run would cost a budget for nothing.
        const patch = p.environment.threads === 1 ? undefined : await parallelizePatch(notebook, diagnosis.cell);
        if (patch && p.isNew({ label: '', patch })) return { kind: 'patch', patch };
        // Last, where the era is unknown: the old defaults whose change multiplied the work.
        const grown = distinctCandidates(growthPinCandidates(await pinDefaults(notebook, { dataFiles: d.dataFiles, era: { ...d.era, unknownAsOld: true } }), diagnosis.cell, p.runOrder), p.isNew);
        return grown.length ? verified(grown) : undefined;
      }
      if (diagnosis.fixType !== 'score-calibration') return undefined;
      const target = diagnosis.cell;
      // The old defaults the era makes certain, in the cells up to the drifted one, all in one step:
      // a pin in a later cell cannot move this value (each one tried alone cost a whole run, twice
      // with the re-run that tells drift from chance, and changed nothing).
      const certain = eraPins(await pinDefaults(notebook, { dataFiles: d.dataFiles, era: d.era }), target, 'score-calibration', p.runOrder);
      if (certain && p.isNew({ label: '', patch: certain })) return { kind: 'patch', patch: certain };
      const driftedBefore = p.oracle(p.state).comparisons.filter((c) => !c.ok).length;
      const allPins = await pinDefaults(notebook, { dataFiles: d.dataFiles, era: { ...d.era, unknownAsOld: true }, ...(d.dataFacts ? { dataFacts: d.dataFacts } : {}) });
      const acting = actingPins(allPins, notebook, target);
      // The rule at every site first (the era held everywhere), then each pin alone and all together.
      const evident = (c: Candidate) => c.patch.source.kind === 'rule' && c.patch.source.ruleIds.every((id) => EVIDENCE_GATED_PINS.includes(id));
      const pins = [...everySiteCandidates(allPins, acting), ...pinCandidates(acting, target, p.runOrder)].map((c) => (evident(c) ? { ...c, fromRecord: true } : c));
      // .ix's two readings of an integer row key (label, or position on a non-integer index), after the pins.
      const ix = await ixRowPositionDriftPatch(notebook, d.original, target);
      // A literal edited after its cell ran (the stored result shows the old value), last: the record decides.
      const edited = await editedLiteralPatches(notebook, d.original, target);
      // Cells the author ran before a kernel restart and not after it (earlier-session.ts), last.
      const session = d.original ? earlierSessionPatch(notebook, d.original, target) : undefined;
      // Cells run out of order by the author around the drifted one, in the author's order (drift-order.ts), last.
      const order = d.original ? authorOrderDriftCandidates(d.original, notebook, target, p.runOrder) : [];
      // A cell feeding it that updates a value from itself, run more times as the counts allow (repeated-runs.ts), last.
      const again = d.original ? repeatedRunCandidates(d.original, notebook, target, p.runOrder) : [];
      const candidates = distinctCandidates([...pins, ...(ix ? [ix] : []), ...edited.map((e) => ({ ...e, fromRecord: true })), ...(session ? [session] : []), ...order, ...again], p.isNew);
      if (!candidates.length) return undefined;
      return { kind: 'candidates', candidates, accept: (o) => o.rank === 'agrees', rank: (s, _fromCell, execs, c) => rankDriftTrial(target, driftedBefore, s.cells, p.oracle(s).comparisons, execs, { earliestFirst: !!c.fromRecord }) };
    },
  };
}

/**
 * Errors a value can raise (a domain check on data; an operation its new dtype refuses: get_dummies'
 * columns became bool in pandas 2.0, and a sparse bool column refuses the author's `replace({True: 1})`),
 * as against errors of an API that changed, which have rules.
 */
const VALUE_ERRORS = /^(ValueError|TypeError|FloatingPointError|LinAlgError|ZeroDivisionError|IndexError)$/;

/**
 * An error no rule repairs, in a cell the author's run finished without one, can come from a default
 * that changed upstream: SVR's gamma went from 'auto' to 'scale' in scikit-learn 0.22, and a
 * `mean_squared_log_error` the author computed now meets negative predictions. The pins that act on
 * the failing cell (in it, or in a cell it reads from) are tried like drift candidates — each pin
 * alone, nearest first, all together, the rule at every site — and one is kept only when the cell then runs and the
 * stored values of it and the cells it feeds agree: the record decides, never the error alone.
 */
async function defaultChangeErrorProposal(d: RuleFixerDeps, p: Problem): Promise<Proposal | undefined> {
  const { diagnosis, notebook } = p;
  const error = diagnosis.error;
  if (!error || !VALUE_ERRORS.test(error.ename)) return undefined;
  const recorded = d.original.cells[diagnosis.cell];
  if (recorded?.cell_type !== 'code' || recorded.execution_count === null || recorded.outputs.some((o) => o.output_type === 'error')) return undefined;
  const allPins = await pinDefaults(notebook, { dataFiles: d.dataFiles, era: { ...d.era, unknownAsOld: true }, ...(d.dataFacts ? { dataFacts: d.dataFacts } : {}) });
  const acting = actingPins(allPins, notebook, diagnosis.cell);
  // Nearest pin first (the failing cell's own call is the likeliest cause), the rule at every site after.
  const candidates = distinctCandidates([...pinCandidates(acting, diagnosis.cell, p.runOrder), ...everySiteCandidates(allPins, acting)]
    .map((c) => ({ ...c, needsAgreement: true, patch: { ...c.patch, fixType: 'error-repair' as const } })), p.isNew);
  if (!candidates.length) return undefined;
  // Judged on the failing cell and the cells whose values come from it: a later cell that drifts for
  // reasons of its own (another model's grid) is the next problem, not this one's.
  const judged = new Set([diagnosis.cell, ...dependentCells(analyzeNotebook(notebook), diagnosis.cell)]);
  return {
    kind: 'candidates', candidates, accept: (o) => o.rank === 'agrees',
    rank: (s, fromCell, execs) => rankTrial(diagnosis.cell, fromCell, error, s.cells, p.oracle(s).comparisons.filter((c) => c.cell !== null && judged.has(c.cell)), execs, p.state.cells),
  };
}

/**
 * Pins that edit one place (an import) but act wherever a name is called: a drift is a reason to try
 * one only when a cell that calls the name is the drifted cell or feeds it. Without this, every
 * drift of a notebook that imports LinearRegression (a describe(), a plot's counts) would cost a
 * whole re-run on the rank cutoff.
 */
const ACTS_AT: Record<string, readonly string[]> = {
  [sklearnLinearRegressionRank.id]: [LINEAR_REGRESSION],
  [sklearnStratifiedKFoldPre022.id]: STRATIFIED_SPLITTERS,
  [sklearnSearchIid.id]: IID_SEARCHES,
  [sklearnPinLarsNormalize.id]: LARS_NORMALIZE_CLASSES,
};

export function actingPins(pins: readonly Patch[], notebook: Notebook, target: number): Patch[] {
  const ids = new Set(pins.flatMap((p) => (p.source.kind === 'rule' ? p.source.ruleIds.filter((id) => ACTS_AT[id]) : [])));
  const acting = new Map([...ids].map((id) => [id, fedBy(notebook, ACTS_AT[id]!).has(target)]));
  // A pin at a call site moves only the values that flow from its cell: one in a cell the drifted cell
  // does not read from (a LogisticRegression's solver, for a drift in a KNN score) would spend a
  // trial, and the trials are few, on a run that cannot change the drifted value.
  const du = analyzeNotebook(notebook);
  const feeding = new Map<number, boolean>();
  const feeds = (cell: number): boolean => {
    if (!feeding.has(cell)) feeding.set(cell, cell === target || dependentCells(du, cell).has(target));
    return feeding.get(cell)!;
  };
  return pins.filter((p) => {
    if (p.source.kind !== 'rule') return true;
    if (p.source.ruleIds.some((id) => ACTS_AT[id])) return p.source.ruleIds.every((id) => acting.get(id) ?? true);
    return p.edits.some((e) => feeds(e.cell));
  });
}

/** The cells whose values come from a call of one of `names` (the Python layer's cellsFedBy). */
export function fedBy(notebook: Notebook, names: readonly string[]): Set<number> {
  return new Set(cellsFedBy(notebook, (call) => {
    const name = calledName(call);
    return name && names.includes(name) ? name : undefined;
  }).keys());
}

/**
 * Old defaults whose change multiplied the work a call does: forests grew from 10 to 100 trees and
 * cross-validation from 3 to 5 folds in scikit-learn 0.22. A notebook of the era ran the small ones.
 */
export const COST_GROWTH_PINS: ReadonlySet<string> = new Set(['sklearn-pin-forest-n-estimators', 'sklearn-pin-cv-3-folds']);

/** Candidates (nearest cell first, then all together) from the pins that shrink work, up to the slow `cell`. */
export function growthPinCandidates(pins: readonly Patch[], cell: number, runOrder?: readonly number[]): Candidate[] {
  const grown = pins.filter((p) => p.source.kind === 'rule' && p.source.ruleIds.some((id) => COST_GROWTH_PINS.has(id)));
  return pinCandidates(grown, cell, runOrder).map((c) => ({ ...c, patch: { ...c.patch, fixType: 'runtime-reduction' } }));
}

/** The notebook with a patch's whole-cell replacements applied (a copy). */
function withEdits(nb: Notebook, patch: Patch): Notebook {
  const out: Notebook = structuredClone(nb);
  for (const e of patch.edits) if (e.op === 'replace' && out.cells[e.cell]) out.cells[e.cell]!.source = e.newSource;
  return out;
}

/**
 * The era's pins and a search pin computed on the pinned notebook, as one patch: the search pin's
 * cells carry both changes (it was computed over the pinned source), the pins' other cells theirs.
 * Undefined when there is no search pin, or a pin is not a whole-cell replacement.
 */
export function withSearchPin(pins: Patch, search: Patch | undefined): Patch | undefined {
  if (!search || pins.edits.some((e) => e.op !== 'replace')) return undefined;
  const searched = new Set(search.edits.map((e) => e.cell));
  const edits = [...pins.edits.filter((e) => !searched.has(e.cell)), ...search.edits].sort((a, b) => a.cell - b.cell);
  const ruleIds = [...new Set([pins, search].flatMap((p) => (p.source.kind === 'rule' ? p.source.ruleIds : [])))];
  return { fixType: 'runtime-reduction', source: { kind: 'rule', ruleIds }, edits, summary: `${pins.summary}; ${search.summary}` };
}

/**
 * The era-certain pins of the cells up to `cell` (the slow or the drifted one), as one patch (or
 * none): a pin in a later cell can neither slow nor move that cell.
 */
export function eraPins(pins: readonly Patch[], cell: number, fixType: 'runtime-reduction' | 'score-calibration' = 'runtime-reduction', runOrder?: readonly number[]): Patch | undefined {
  const at = runPosition(runOrder);
  const before = pins.filter((p) => p.edits.length > 0 && p.edits.every((e) => at(e.cell) >= 0 && at(e.cell) <= at(cell)));
  if (!before.length) return undefined;
  return mergePins(before, fixType, (cells, ruleIds) => `the old defaults the notebook's era ran with (${ruleIds.join(', ')}) in cells ${[...new Set(cells)].join(', ')}`);
}
