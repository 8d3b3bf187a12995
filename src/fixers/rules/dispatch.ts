/**
 * Which rules a cell runs, decided as linters do before any matcher runs: each rule's pre-filters
 * (its identifier triggers, plus the local aliases the notebook imported them under, and its gate:
 * node types, string-literal values, source text, identifiers the notebook binds) index the rule,
 * and a cell runs the rules without pre-filters plus those one of whose pre-filters it satisfies, in
 * the rules' own order (findings and edits do not depend on the walk). Pre-filters only ever skip
 * cells where the rule cannot match, so the findings are those of running every rule everywhere.
 */
import { cellCache, type NotebookContext, type ParsedCell } from './context.js';
import { LiteralGates } from './literal-gates.js';
import type { Rule } from './types.js';

/**
 * Trigger identifier -> rules (by their number in `ruleNumbers`), over every rule dispatched so far:
 * rules are static data, so this part of the index is built once per process, not once per notebook
 * (each notebook adds only its aliases and its notebook triggers). Numbers, not the rules: a cell
 * marks its rules by array index, not by a map lookup per rule.
 */
const triggerIndex = new Map<string, number[]>();
const ruleNumbers = new Map<Rule, number>();

function indexTriggers(rules: readonly Rule[]): void {
  for (const r of rules) {
    if (ruleNumbers.has(r)) continue;
    const n = ruleNumbers.size;
    ruleNumbers.set(r, n);
    for (const t of new Set(r.triggers ?? [])) add(triggerIndex, t, n);
  }
}

/**
 * What a dispatch knows of a rule list before it sees a notebook: rules are static data, and the
 * engine hands the same list (same array) to every notebook that selects and imports alike
 * (engine.ts selectRules, activeRules), so this is built once per list, not once per notebook
 * (it was a twentieth of a scan's time, over some 540 rules per notebook).
 */
class ListIndex {
  /** Rule number (ruleNumbers) -> its position in the list, -1 for rules it does not hold. */
  readonly rank: Int32Array;
  /** 1 for the rules without pre-filters (they run on every cell). */
  readonly always: Uint8Array;
  readonly byType: Array<{ type: string; rules: number[] }> = [];
  readonly byLiteral = new LiteralGates();
  readonly bySource: Array<{ rule: number; pieces: ReadonlyArray<string | RegExp> }> = [];
  /** The rules whose notebook triggers depend on the notebook (RuleGate.notebookTriggers). */
  readonly notebookGated: Rule[] = [];

  constructor(rules: readonly Rule[]) {
    indexTriggers(rules);
    this.rank = new Int32Array(ruleNumbers.size).fill(-1);
    this.always = new Uint8Array(rules.length);
    const byType = new Map<string, number[]>();
    // A rule listed twice is marked by its triggers at its last position.
    rules.forEach((r, i) => { this.rank[ruleNumbers.get(r)!] = i; });
    rules.forEach((r, i) => {
      const g = r.gate;
      if (!r.triggers && !g) { this.always[i] = 1; return; }
      if (g?.notebookTriggers) this.notebookGated.push(r);
      for (const t of g?.nodeTypes ?? []) add(byType, t, i);
      if (g?.literals?.length) this.byLiteral.add(i, g.literals);
      if (g?.source?.length) this.bySource.push({ rule: i, pieces: g.source });
    });
    for (const [type, rules] of byType) this.byType.push({ type, rules });
  }
}

const listIndexes = new WeakMap<readonly Rule[], ListIndex>();

export class RuleDispatch {
  private readonly index: ListIndex;
  /**
   * The marks of the cell being dispatched, reset from `always` for each cell: one array per
   * notebook, since copying `always` per cell (TypedArray slice) was a fifth of dispatch's own time.
   */
  private readonly on: Uint8Array;
  /** Per notebook: local aliases of trigger names, and notebook triggers -> positions of rules. */
  private readonly byLocalIdent = new Map<string, number[]>();

  constructor(nb: NotebookContext, private readonly rules: readonly Rule[]) {
    let index = listIndexes.get(rules);
    if (!index) listIndexes.set(rules, (index = new ListIndex(rules)));
    this.index = index;
    this.on = new Uint8Array(rules.length);
    const rank = index.rank;
    for (const r of index.notebookGated) {
      for (const t of new Set(r.gate!.notebookTriggers!(nb))) add(this.byLocalIdent, t, rank[ruleNumbers.get(r)!]);
    }
    for (const [name, locals] of nb.aliasIndex()) {
      for (const n of triggerIndex.get(name) ?? NONE) {
        const i = rank[n];
        if (i >= 0) for (const local of locals) add(this.byLocalIdent, local, i);
      }
    }
  }

  /** The rules this cell runs, in rule order. */
  rulesFor(cell: ParsedCell): Rule[] {
    const on = this.on;
    const { always, rank, byType, bySource, byLiteral } = this.index;
    on.set(always);
    const words = cellCache(cell).words();
    for (let w = 0; w < words.length; w++) {
      const id = words[w];
      const global = triggerIndex.get(id);
      if (global) for (let k = 0; k < global.length; k++) { const i = rank[global[k]]; if (i >= 0) on[i] = 1; }
      const local = this.byLocalIdent.get(id);
      if (local) for (let k = 0; k < local.length; k++) on[local[k]] = 1;
    }
    for (const { type, rules } of byType) {
      if (cell.idx.byType.get(type).length) for (const i of rules) on[i] = 1;
    }
    for (const { rule, pieces } of bySource) {
      if (!on[rule] && pieces.some((p) => (typeof p === 'string' ? cell.text.includes(p) : p.test(cell.text)))) on[rule] = 1;
    }
    if (!byLiteral.empty) byLiteral.mark(cell, on);
    const out: Rule[] = [];
    for (let i = 0; i < on.length; i++) if (on[i]) out.push(this.rules[i]);
    return out;
  }
}

const NONE: readonly number[] = [];

function add<T>(index: Map<string, T[]>, key: string, r: T): void {
  const l = index.get(key);
  if (l) l.push(r);
  else index.set(key, [r]);
}
