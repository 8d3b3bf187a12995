/**
 * Every deterministic repair that is plausible for one failing cell, in the order generate-and-
 * verify tries them: the rules whose error signature matches (fired on runtime evidence: the
 * traceback's frames, the message's type names), then the other generic mechanisms.
 *
 * Why one place: each mechanism alone proposes its best guess; together they form the candidate
 * list, and the stored outputs (not the order here) decide which one is kept.
 */
import type { Notebook } from '../core/notebook.js';
import type { CellError } from '../core/run-result.js';
import { sourceText } from '../core/notebook.js';
import { pinDefaults, rulesForError } from '../fixers/rules/index.js';
import { notebookFrames } from '../fixers/rules/traceback.js';
import { didYouMeanPatch, missingImportPatches, undefinedName, type NameLocator } from '../fixers/rules/missing-import.js';
import { codeCellIndices, orderForNameError, runUpOrder, runUpReplay, storedCounts, unprovenOrdersForNameError, unprovenReplay } from './execution-order.js';
import { laterRunOrder } from './later-run-cells.js';
import { earlierRunOrder } from './earlier-run-cells.js';
import { missingPathPatches } from '../fixers/rules/missing-path.js';
import { workingDirWalkPatches } from '../fixers/rules/data-walk.js';
import { movedSymbolPatches } from '../fixers/rules/symbol-moves.js';
import { commentedBindingPatches } from '../fixers/rules/commented-binding.js';
import { unboundName } from './unbound-name.js';
import { invalidParameterPatches, unexpectedKeywordPatches } from '../fixers/rules/unexpected-keyword.js';
import { floatIndexPatches } from '../fixers/rules/py2-division-at-error.js';
import { xgbLabelEncoderPatches } from '../fixers/rules/xgboost-label-encoder.js';
import { ixPositionalPatches } from '../fixers/rules/pandas-ix-at-error.js';
import { plotKeywordPatches } from '../fixers/rules/plot-keyword-at-error.js';
import { reshape1dPatches } from '../fixers/rules/sklearn-1d-reshape.js';
import { homesOf, type SymbolIndex } from '../core/symbol-index.js';
import type { DataFacts, RuntimeEvidence } from '../fixers/rules/context.js';
import type { Candidate } from './generate-verify.js';
import type { EraHint } from '../fixers/rules/types.js';

export interface RepairInputs {
  notebook: Notebook;
  cell: number;
  error: CellError;
  /** Data file names relative to the mounted data dir. */
  dataFiles: string[];
  competition?: string;
  /** The notebook as its author left it (stored outputs and execution counts). */
  original?: Notebook;
  /** What the failing run said (traceback frames, live types). */
  runtime?: RuntimeEvidence;
  /** The notebook's era (date, versions, bounds from its stored outputs). */
  era?: EraHint;
  /** Where a public name lives in the environment's packages (default: the symbol index). */
  locateName?: NameLocator;
  /** The environment's symbol index (moved and missing names). */
  symbols?: SymbolIndex;
  /** The run order in force (undefined: file order). */
  runOrder?: number[];
  /** What the mounted data holds (fields pandas 2 reads as missing): gates the pins of evidence. */
  dataFacts?: DataFacts;
}

export async function repairCandidates(inp: RepairInputs): Promise<Candidate[]> {
  const out: Candidate[] = [];
  // Runtime evidence: the message, and the traceback's frames mapped to cells (a function defined
  // in another cell is where the old API is, though the call that failed is here).
  const sources = inp.notebook.cells.map((c) => (c.cell_type === 'code' ? sourceText(c.source) : ''));
  const frames = notebookFrames(inp.error.traceback ?? [], sources, inp.cell);
  const runtime: RuntimeEvidence = inp.runtime ?? { failingCell: inp.cell, ename: inp.error.ename, evalue: inp.error.evalue, traceback: inp.error.traceback ?? [], frames, types: {} };
  const frameCells = [...new Set([...frames.map((f) => f.cell).reverse(), inp.cell])];
  for (const cell of frameCells.includes(inp.cell) ? [inp.cell, ...frameCells.filter((c) => c !== inp.cell)] : frameCells) {
    const rulePatches = await rulesForError(inp.notebook, cell, inp.error, {
      dataFiles: inp.dataFiles,
      ...(inp.competition ? { competition: inp.competition } : {}),
      runtime,
      ...(inp.era ? { era: inp.era } : {}),
    });
    for (const p of rulePatches) out.push({ patch: p, label: `${p.source.kind === 'rule' ? p.source.ruleIds.join('+') : 'rule'}${cell !== inp.cell ? ` (cell ${cell}, where the traceback points)` : ''}` });
  }
  for (const c of await reshape1dPatches(inp.notebook, inp.cell, inp.error.evalue, frames, inp.error.traceback ?? [])) out.push(c);
  for (const c of await upstreamPinPatches(inp.notebook, inp.cell, inp.error, inp.dataFacts)) out.push(c);
  if (inp.symbols) {
    for (const c of await movedSymbolPatches(inp.notebook, inp.cell, inp.error, inp.symbols)) out.push(c);
    // After the rules: a keyword no rule knows, checked against the callee's current signature.
    for (const c of await unexpectedKeywordPatches(inp.notebook, inp.cell, inp.error, inp.symbols.signatures, frames)) out.push(c);
  }
  for (const c of await invalidParameterPatches(inp.notebook, inp.cell, inp.error)) out.push(c);
  for (const c of await floatIndexPatches(inp.notebook, inp.cell, inp.error, frames)) out.push(c);
  for (const c of await xgbLabelEncoderPatches(inp.notebook, inp.cell, inp.error)) out.push(c);
  for (const c of await ixPositionalPatches(inp.notebook, inp.cell, inp.error, inp.original, frames)) out.push(c);
  // Last of the error-built candidates: dropping a plot option is the least faithful of them.
  for (const c of await plotKeywordPatches(inp.notebook, inp.cell, inp.error, frames)) out.push(c);
  for (const c of await missingPathPatches(inp.notebook, inp.cell, inp.error, { dataFiles: inp.dataFiles, ...(inp.competition ? { competition: inp.competition } : {}) })) {
    out.push({ patch: c.patch, label: c.label, ...(c.needsAgreement ? { needsAgreement: true } : {}) });
  }
  if (inp.original && STATEFUL_ERRORS.has(inp.error.ename)) {
    // The cells the author ran just before this one (consecutive counts), in the author's order.
    const runUp = runUpOrder(inp.original, inp.cell, inp.runOrder ?? codeCellIndices(inp.notebook));
    if (runUp) out.push({ patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits: [], summary: runUp.why }, label: `run order (author's run-up): cells ${runUp.moved.join(', ')} before cell ${inp.cell}`, order: runUp.order });
    // A cell between reads what a run-up cell binds: the author ran it there too; run it again instead.
    const replay = runUp && runUpReplay(inp.original, inp.notebook, runUp, inp.cell, inp.runOrder ?? codeCellIndices(inp.notebook));
    if (replay) {
      const edits = [{ cell: inp.cell, op: 'insert' as const, position: 'before' as const, newSource: replay.source }];
      out.push({ patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits, summary: `run cell${replay.cells.length > 1 ? 's' : ''} ${replay.cells.join(', ')} again just before cell ${inp.cell}: the author ran ${replay.cells.length > 1 ? 'them' : 'it'} immediately before it (consecutive execution counts) and earlier where ${replay.cells.length > 1 ? 'they stand' : 'it stands'} (a cell between reads what ${replay.cells.length > 1 ? 'they bind' : 'it binds'})` }, label: `run again (author's run-up): cells ${replay.cells.join(', ')} before cell ${inp.cell}` });
    }
    // Cells above it the author ran later, changing what it reads: after it, as the author ran them.
    const later = laterRunOrder(inp.original, inp.notebook, inp.cell, inp.runOrder ?? codeCellIndices(inp.notebook));
    if (later) out.push({ patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits: [], summary: later.why }, label: `run order (run later by the author): cells ${later.moved.join(', ')} after cell ${inp.cell}`, order: later.order });
    // Cells below it the author ran before it, changing what it reads: above it, as the author ran them.
    const earlier = earlierRunOrder(inp.original, inp.notebook, inp.cell, inp.runOrder ?? codeCellIndices(inp.notebook), inp.error.evalue);
    if (earlier) out.push({ patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits: [], summary: earlier.why }, label: `run order (run earlier by the author): cells ${earlier.moved.join(', ')} before cell ${inp.cell}`, order: earlier.order });
  }
  if (inp.error.ename === 'NameError') {
    // The author ran a later cell first (stored execution counts): run it first too.
    const name = undefinedName(inp.error.evalue);
    const move = name && inp.original ? await orderForNameError(inp.original, inp.notebook, inp.cell, name, inp.runOrder) : undefined;
    const unproven = name && !move ? await unprovenOrdersForNameError(inp.notebook, inp.cell, name, inp.runOrder) : [];
    const counts = inp.original ? storedCounts(inp.original) : new Map<number, number>();
    const failCount = counts.get(inp.cell);
    for (const plan of unproven) {
      const moveCandidate = {
        patch: { fixType: 'error-repair' as const, source: { kind: 'rule' as const, ruleIds: ['execution-order'] }, edits: [], summary: plan.why },
        label: `run order (unproven): cells ${plan.moved.join(', ')} before cell ${inp.cell}`,
        order: plan.order,
      };
      // The same cells run again just before the failing one, their originals kept in place.
      const replay = unprovenReplay(inp.notebook, plan);
      const replayCandidate = replay && {
        patch: { fixType: 'error-repair' as const, source: { kind: 'rule' as const, ruleIds: ['execution-order'] }, edits: [{ cell: inp.cell, op: 'insert' as const, position: 'before' as const, newSource: replay.source }], summary: `run cell${replay.cells.length > 1 ? 's' : ''} ${replay.cells.join(', ')} again just before cell ${inp.cell}: the only definitions of ${name} come later in the file, where the author ran them last; the kernel that ran cell ${inp.cell} held them from an earlier run` },
        label: `run again (unproven): cells ${replay.cells.join(', ')} before cell ${inp.cell}`,
      };
      // Stored counts above the failing cell's on every moved cell: the author ran them last after it,
      // so they ran twice (an earlier run fed the failing cell): the replay first. Otherwise the move.
      const ranAfter = failCount !== undefined && plan.moved.every((m) => (counts.get(m) ?? -Infinity) > failCount);
      if (replayCandidate && ranAfter) out.push(replayCandidate, moveCandidate);
      else out.push(moveCandidate, ...(replayCandidate ? [replayCandidate] : []));
    }
    if (move) {
      out.unshift({
        patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['execution-order'] }, edits: [], summary: move.why },
        label: `run order: cells ${move.moved.join(', ')} before cell ${inp.cell}`,
        order: move.order,
      });
    }
    // Bound only in loops over the working directory, where the author's data was (os.walk('.')).
    if (name) for (const c of await workingDirWalkPatches(inp.notebook, name)) out.push(c);
    const locate = inp.locateName ?? (inp.symbols ? (n: string) => homesOf(inp.symbols!, n) : undefined);
    const members = inp.symbols ? (m: string) => inp.symbols!.modules[m] : undefined;
    // A name no cell binds whose binding the author commented out: restored, if the record agrees.
    // Before an import found by name: the author's own line says what the name was (`distributions`,
    // commented out, was a list of scipy.stats distributions, not the module scipy.stats.distributions).
    if (name && unboundName(inp.notebook, inp.error)) {
      for (const c of commentedBindingPatches(inp.notebook, inp.cell, name)) out.push({ ...c, needsAgreement: true });
    }
    for (const p of await missingImportPatches(inp.notebook, inp.cell, inp.error.evalue, locate, members)) out.push({ patch: p, label: p.summary.replace(/^cell \d+: /, '').replace(/ \(.*$/, '') });
    // Python's suggestion is printed by the traceback, not part of the exception's message.
    const hintText = [inp.error.evalue, ...(inp.error.traceback ?? [])].join('\n').replace(/\u001b\[[0-9;?]*[ -\/]*[@-~]/g, '');
    const hinted = await didYouMeanPatch(inp.notebook, inp.cell, `${inp.error.evalue} ${/Did you mean: '\w+'\?/.exec(hintText)?.[0] ?? ''}`);
    if (hinted) out.push({ patch: hinted, label: hinted.summary.replace(/^cell \d+: /, '').replace(/ \(.*$/, '') });
  }
  return out;
}

/** Errors that can come from the state earlier cells left (a column, a name, a shape), not from the failing line's API. */
const STATEFUL_ERRORS = new Set(['KeyError', 'NameError', 'AttributeError', 'ValueError', 'IndexError', 'TypeError', 'UnboundLocalError']);

/** What an unexpected NaN raises downstream (scikit-learn 1.4, pandas 2.2, numpy 2.2 messages). */
const NAN_SIGNATURES = new RegExp([
  String.raw`Found unknown categories \[[^\]]*\bnan\b`, // OneHotEncoder(handle_unknown='error')
  String.raw`Input (X |y )?contains NaN`, // check_array
  String.raw`uniformly strings or numbers\. Got \['float', 'str'\]`, // LabelEncoder / OrdinalEncoder
  String.raw`Cannot convert non-finite values \(NA or inf\) to integer`, // astype(int)
  String.raw`cannot convert float NaN to integer`,
  String.raw`'float' object has no attribute '\w+'`, // a str method on a missing field
  String.raw`'<' not supported between instances of '(float|str)' and '(str|float)'`, // sorted / np.unique of mixed
  String.raw`argument must be a string or a( real)? number, not 'float'`,
  String.raw`object of type 'float' has no len\(\)`, // len() of a missing field
].join('|'));

/**
 * Errors whose cause is a changed default upstream of the failing cell, not the failing line: the
 * old default pinned at every call before the cell, as one candidate (kept only if the run then
 * agrees with the stored outputs). Each row: the exception it raises now, and the pin rule.
 */
const UPSTREAM_PINS: Array<{ ename: string | RegExp; pattern: RegExp; ruleId: string; why: string }> = [
  // pandas 2.0: get_dummies returns bool columns; numpy refuses `-` on bools (uint8 before).
  { ename: 'TypeError', pattern: /numpy boolean (subtract|negative)/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0)" },
  // pandas refuses /, // and ** on two bool operands (since 2014); dummies were uint8 before 2.0.
  { ename: 'NotImplementedError', pattern: /operator '[^']+' not implemented for bool dtypes/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0)" },
  // The same bool dummies next to float columns make `np.asarray(frame)` an object array, which
  // statsmodels refuses ("Pandas data cast to numpy dtype of object") and numpy's isfinite/isnan
  // cannot take; with uint8 dummies the array was float64.
  { ename: 'TypeError', pattern: /ufunc '(isfinite|isnan|isinf)' not supported for the input types/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0) made the frame an object array" },
  { ename: 'ValueError', pattern: /Pandas data cast to numpy dtype of object/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0) made the frame an object array" },
  // What numpy 2.2 raises on such an object array (measured in the fixed kernel): np.cov/np.corrcoef
  // call .shape on a Python float; np.log/sqrt/exp/rint look for a method of that name on each element;
  // linalg casts refuse dtype('O').
  { ename: 'AttributeError', pattern: /^'(float|bool|int)' object has no attribute 'shape'$/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0) made the frame an object array" },
  { ename: 'TypeError', pattern: /loop of ufunc does not support argument \d+ of type (float|bool|int) which has no callable \w+ method/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0) made the frame an object array" },
  { ename: /^(UFuncTypeError|TypeError)$/, pattern: /Cannot cast ufunc '\w+' input from dtype\('O'\)/, ruleId: 'pandas-pin-get-dummies-uint8', why: "get_dummies' bool columns (uint8 before pandas 2.0) made the frame an object array" },
  // scikit-learn 0.22: LogisticRegression's default solver became lbfgs, which refuses penalty='l1'
  // (and dual=True) that liblinear, the old default, accepted.
  { ename: 'ValueError', pattern: /Solver lbfgs supports only '?l2'? or ('?none'?|None) penalties|Solver lbfgs supports only dual=False/, ruleId: 'sklearn-pin-logistic-solver', why: "LogisticRegression's default solver (liblinear before scikit-learn 0.22)" },
  // pandas 2.0 reads the field value 'None' as NaN (#52493). Where the data holds such fields (the
  // pin's own gate: DataFacts), the NaN that breaks a later cell is often one the author never had:
  // an encoder meeting an unknown category nan, an estimator refusing NaN input, a string method on
  // a float, an integer cast, a sort of mixed str and float.
  { ename: /^(ValueError|TypeError|AttributeError|IntCastingNaNError)$/, pattern: NAN_SIGNATURES, ruleId: 'pandas-pin-read-csv-none-na', why: "read_csv's missing-value strings (pandas 1 read the field value 'None' as a string)" },
];

async function upstreamPinPatches(nb: Notebook, cell: number, error: CellError, dataFacts?: DataFacts): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const row of UPSTREAM_PINS) {
    if (!(typeof row.ename === 'string' ? row.ename === error.ename : row.ename.test(error.ename)) || !row.pattern.test(error.evalue)) continue;
    const pins = (await pinDefaults(nb, { era: { unknownAsOld: true }, ruleIds: [row.ruleId], ...(dataFacts ? { dataFacts } : {}) })).filter((p) => p.edits.every((e) => e.cell <= cell));
    if (!pins.length) continue;
    const edits = pins.flatMap((p) => p.edits).sort((a, b) => a.cell - b.cell);
    out.push({
      patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: [row.ruleId] }, edits, summary: `${row.why}: old default pinned in cells ${edits.map((e) => e.cell).join(', ')}` },
      label: `${row.ruleId} in cells ${edits.map((e) => e.cell).join(', ')}`,
    });
  }
  return out;
}
