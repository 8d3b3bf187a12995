/**
 * Patches: the only way the agent changes a notebook. Rules and the LLM both produce them,
 * the agent validates and applies them, the report and edits.jsonl record them.
 */
export type FixType = 'error-repair' | 'runtime-reduction' | 'score-calibration';

export type PatchSource =
  | { kind: 'rule'; ruleIds: string[] }
  | { kind: 'llm'; model: string; provider: string };

export type CellEdit =
  /** Replace the whole source of one cell (the most reliable LLM edit format). */
  | { cell: number; op: 'replace'; newSource: string }
  /** Replace one exact occurrence of `search` inside the cell's source. */
  | { cell: number; op: 'search-replace'; search: string; replace: string }
  /**
   * A new code cell run just before or after cell `cell`. Cell numbers stay stable while the loop
   * works (the oracle pairs cells with the original by number): the new cell is appended to the
   * notebook and placed by the run order; the written notebook has it in its place.
   */
  | { cell: number; op: 'insert'; position: 'before' | 'after'; newSource: string }
  /** Run cell `cell` just before cell `before` (a later definition needed earlier); written moved. */
  | { cell: number; op: 'move'; before: number }
  /** Drop cell `cell` (emptied while the loop works, left out of the written notebook), with why. */
  | { cell: number; op: 'delete'; reason: string };

/** The edits that change the notebook's structure (which cells run, in which order) rather than a cell's text. */
export type StructuralEdit = Extract<CellEdit, { op: 'insert' | 'move' | 'delete' }>;

export function isStructural(e: CellEdit): e is StructuralEdit {
  return e.op === 'insert' || e.op === 'move' || e.op === 'delete';
}

export interface Patch {
  fixType: FixType;
  source: PatchSource;
  edits: CellEdit[];
  /** One line for humans: what and why. */
  summary: string;
}

/** A rule's or model's finding that could not be turned into a safe edit (input for the LLM stage). */
export interface Finding {
  ruleId: string;
  /** The rule's stable code (`PD001`), for --select / --ignore and `# nbmodernize: ignore[...]`. */
  code?: string;
  cell: number;
  line: number;
  column: number;
  message: string;
  autoFixable: boolean;
  fixType: FixType;
  library: string;
  /** The cell's `# nbmodernize: ignore` directive that silences this finding (it is then never applied). */
  suppressed?: string;
}
