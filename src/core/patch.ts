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
  | { cell: number; op: 'search-replace'; search: string; replace: string };

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
