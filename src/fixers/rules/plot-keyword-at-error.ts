/**
 * A plotting call that now rejects one of the options it is given: matplotlib 3.x validates the
 * shapes of `xerr`/`yerr` against each bar, seaborn 0.13 draws bars one at a time and passes such
 * options through, a colour list is checked against the number of artists... The message names
 * the option ("'xerr' (shape: (10,)) must be a scalar or a 1D ... array-like"). The option only
 * changes the picture, and pictures are reported, not judged; dropping it is the smallest edit
 * that lets the notebook run on to the results that are judged. Fired only when the traceback
 * goes through matplotlib or seaborn and the failing line's call passes the first option the
 * message names (a keyword, or a key of a `**{...}` literal). One candidate, verified.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import type { RuntimeFrame } from './context.js';
import { callArgs, removeArgument, stringValue } from './tree.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import { onFrameLines } from './traceback.js';
import type { TextEdit } from './types.js';

const PLOTTING_FRAME = /[/\\](matplotlib|seaborn)[/\\]/;

export async function plotKeywordPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string; traceback?: readonly string[] }, frames: readonly RuntimeFrame[] = []): Promise<Array<{ patch: Patch; label: string }>> {
  if (!['ValueError', 'TypeError', 'AttributeError'].includes(error.ename)) return [];
  if (!(error.traceback ?? []).some((t) => PLOTTING_FRAME.test(t))) return [];
  const named = [...error.evalue.matchAll(/'([A-Za-z_]\w*)'/g)].map((m) => m[1]!);
  if (!named.length) return [];
  const cells = await parseNotebookCells(nb);
  try {
    const cell = cells.find((c) => c.index === failingCell);
    if (!cell) return [];
    const src = sourceText(nb.cells[failingCell]!.source);
    const onLine = onFrameLines(frames, failingCell, cell.tree.rootNode);
    const calls = cell.tree.rootNode.descendantsOfType('call').filter((c): c is SyntaxNode => !!c && onLine(c));
    for (const kw of named) {
      const edits = new Map<number, TextEdit[]>();
      for (const call of calls) {
        const args = callArgs(call);
        if (!args) continue;
        const node = args.keywords.get(kw);
        if (node) { addCellEdit(edits, failingCell, removeArgument(args, node, src)); continue; }
        const pair = splatPair(args.all, kw);
        if (pair) addCellEdit(edits, failingCell, pair.dict.namedChildren.length === 1 ? removeArgument(args, pair.splat, src) : removePair(pair.pair, src));
      }
      if (!edits.size) continue;
      return [{
        label: `drop ${kw}= (plot option)`,
        patch: {
          fixType: 'error-repair',
          source: { kind: 'rule', ruleIds: ['plot-option-at-error'] },
          edits: cellReplacements(nb, edits),
          summary: `the plotting call now rejects ${kw}= (${error.ename}); dropped: it changes only the picture, which is not judged (cell ${failingCell})`,
        },
      }];
    }
    return [];
  } finally {
    disposeCells(cells);
  }
}

/** `**{'kw': value, ...}` among the arguments: the splat, its dict, and the pair for kw. */
function splatPair(all: readonly SyntaxNode[], kw: string): { splat: SyntaxNode; dict: SyntaxNode; pair: SyntaxNode } | undefined {
  for (const a of all) {
    if (a.type !== 'dictionary_splat') continue;
    const dict = a.namedChildren.find((c) => c?.type === 'dictionary');
    const pair = dict?.namedChildren.find((p) => p?.type === 'pair' && stringValue(p.childForFieldName('key')) === kw);
    if (dict && pair) return { splat: a, dict, pair };
  }
  return undefined;
}

/** A dict pair with the comma that separates it from its neighbour. */
function removePair(pair: SyntaxNode, src: string): TextEdit {
  let start = pair.startIndex;
  let end = pair.endIndex;
  const after = /^\s*,\s*/.exec(src.slice(end));
  if (after) end += after[0].length;
  else {
    const before = /,\s*$/.exec(src.slice(0, start));
    if (before) start -= before[0].length;
  }
  return { start, end, text: '' };
}
