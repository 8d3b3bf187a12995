/**
 * Text edits on one cell's source: offsets into the source (JS string offsets, as tree-sitter
 * reports them; the masked parse keeps them), applied from the end so earlier offsets stay valid.
 * Which edits go together is the caller's decision; an edit overlapping one already applied is
 * skipped rather than spliced into moved text.
 */

/** A replacement of [start, end) in the cell source. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Apply edits (an overlapping one is skipped). Bottom-up: later starts first; at equal start, the wider
 * (replacement) first so inserts land before it; inserts at the same point are applied last-first
 * so they end up in the order given.
 */
export function applyTextEdits(source: string, edits: readonly TextEdit[]): string {
  const ordered = edits.map((e, i) => ({ e, i })).sort((a, b) => b.e.start - a.e.start || b.e.end - a.e.end || b.i - a.i).map((x) => x.e);
  let text = source;
  // Edits overlapping one already applied (nested targets: `int(x[:int(n/2)]/2)`) would splice text
  // into text that moved, and break the code: the first applied (the later, inner one) wins.
  let applied = Infinity;
  for (const e of ordered) {
    if (e.end > applied) continue;
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
    applied = e.start;
  }
  return text;
}
