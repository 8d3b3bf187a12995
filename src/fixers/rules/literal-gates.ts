/**
 * Rules' literal gates (RuleGate.literals) checked in one pass over a cell's text, instead of one
 * `includes` per quoted value per rule (about 40 per cell).
 *
 * A literal without a backslash is its value between its quotes (tree-sitter's string_content is
 * the raw text between them), so the cell holds it when its text contains `'value'` or `"value"`
 * (triple quotes included). A value holding no quote of a kind is between two quotes of that kind
 * exactly when those are consecutive quotes of that kind in the text: walking each kind's quotes in
 * order and comparing the text between neighbours with the values of that length finds every
 * quoted value the text contains. Values holding a quote character (none so far) are looked for
 * with `includes`, as before. A literal with escapes is checked exactly, by the string values of
 * the cell's nodes: for plain values (no backslash, quote or control character) only where an
 * escape can make a character of a value or nothing (`\x61`, `\u0061`, a backslash-newline; the
 * others make a backslash, quote or control character: tree.ts unescape), elsewhere wherever the
 * text has a backslash. Building those values reads every string node of the cell.
 */
import { cellCache, type ParsedCell } from './context.js';

interface Gate {
  /** Rule position in the dispatch's rule order. */
  rule: number;
  values: readonly string[];
}

const QUOTES = ["'", '"'] as const;

/** A character a plain value has none of: only escapes can make it, and most escapes make only these. */
const NOT_PLAIN = /[\\'"\x00-\x1f]/;

/** Escapes whose value can be a plain value's character, or nothing (see the header). */
const VALUE_ESCAPE = /\\[xuU\n]/;

export class LiteralGates {
  private readonly gates: Gate[] = [];
  /** Length -> the quote-free values of that length and the rules each gates (index = length). */
  private readonly byLength: Array<Array<{ value: string; rules: number[] }>> = [];
  /** Quoted forms of values holding a quote character, with their rule (checked by `includes`). */
  private readonly withQuotes: Array<{ rule: number; quoted: string }> = [];
  /** Every value is plain (NOT_PLAIN): only VALUE_ESCAPE escapes need the exact check. */
  private plain = true;

  add(rule: number, values: readonly string[]): void {
    this.gates.push({ rule, values });
    for (const v of new Set(values)) {
      if (NOT_PLAIN.test(v)) this.plain = false;
      if (v.includes("'") || v.includes('"')) {
        for (const q of QUOTES) this.withQuotes.push({ rule, quoted: `${q}${v}${q}` });
        continue;
      }
      const list = (this.byLength[v.length] ??= []);
      const entry = list.find((e) => e.value === v);
      if (entry) entry.rules.push(rule);
      else list.push({ value: v, rules: [rule] });
    }
  }

  get empty(): boolean {
    return this.gates.length === 0;
  }

  /** Set on[rule] = 1 for each gated rule the cell holds a literal of (rules already on stay on). */
  mark(cell: ParsedCell, on: Uint8Array): void {
    const text = cell.text;
    for (const q of QUOTES) this.markQuoted(text, q, on);
    for (const { rule, quoted } of this.withQuotes) if (!on[rule] && text.includes(quoted)) on[rule] = 1;
    if (this.plain ? !VALUE_ESCAPE.test(text) : !text.includes('\\')) return;
    let values: Set<string> | undefined;
    for (const g of this.gates) {
      if (on[g.rule]) continue;
      values ??= cellCache(cell).stringValues();
      if (g.values.some((v) => values!.has(v))) on[g.rule] = 1;
    }
  }

  /** The values between consecutive `q` quotes of the text. */
  private markQuoted(text: string, q: string, on: Uint8Array): void {
    const byLength = this.byLength;
    let open = text.indexOf(q);
    while (open >= 0) {
      const close = text.indexOf(q, open + 1);
      if (close < 0) return;
      const list = byLength[close - open - 1];
      if (list) {
        for (const { value, rules } of list) {
          if (text.startsWith(value, open + 1)) for (const r of rules) on[r] = 1;
        }
      }
      open = close;
    }
  }
}
