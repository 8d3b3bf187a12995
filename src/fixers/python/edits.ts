/**
 * Text edits on one cell's source: offsets into the source (JS string offsets, as tree-sitter
 * reports them; the masked parse keeps them), applied from the end so earlier offsets stay valid.
 * Which edits may go together (overlaps, duplicates) is the caller's decision.
 */

/** A replacement of [start, end) in the cell source. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Apply non-overlapping edits. Bottom-up: later starts first; at equal start, the wider
 * (replacement) first so inserts land before it; inserts at the same point are applied last-first
 * so they end up in the order given.
 */
export function applyTextEdits(source: string, edits: readonly TextEdit[]): string {
  const ordered = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.start - a.e.start || b.e.end - a.e.end || b.i - a.i).map((x) => x.e);
  let text = source;
  for (const e of ordered) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}
