/**
 * A cell that only shows a picture file of the author's repository — a leaderboard screenshot, a
 * diagram — with `Image(filename='score.png')` or `display(Image(...))`. Run on the notebook and the
 * competition's data alone, that file is absent (FileNotFoundError), and no repair can bring it back.
 * Its output is a picture, which the oracle never judges, and it binds nothing later cells compute
 * with (its imports aside). So when nothing repairs it, the cell is skipped like a never-run cell
 * (marked in the output notebook, named in the verdict), instead of ending the run: the cells after it
 * are still run and judged against their stored outputs.
 *
 * Narrow on purpose: the missing path must name a picture (by extension), every statement of the cell
 * must be an IPython display import or a display of a picture, and the cell's stored outputs (if any)
 * must be pictures. A cell that reads a picture to compute with it (`plt.imread`, `PIL.Image.open`)
 * is not this case.
 */
import { sourceText, type Notebook, type Output } from '../core/notebook.js';
import type { ExpectedError } from '../core/run-result.js';
import { logicalLineRanges } from '../fixers/python/ipython.js';

const PICTURE = /\.(png|jpe?g|gif|svg|bmp|webp|tiff?)$/i;
const QUOTED_PATH = /No such file or directory: '([^']+)'/;
const DISPLAY_IMPORT = /^(from\s+IPython(\.core)?\.display\s+import\s+[\w\s,()]+|import\s+IPython(\.(core\.)?display)?(\s+as\s+\w+)?)$/;
// `Image(...)`, `SVG(...)`, `display(Image(...))`, `IPython.display.Image(...)`, optionally as the
// argument of display(); the call's arguments are not inspected beyond being one call.
const PICTURE_DISPLAY = /^(display\(\s*)?((IPython\.)?(core\.)?(display\.)?)?(Image|SVG)\(.*\)\s*\)?;?$/s;
const PICTURE_TEXT = /^<IPython\.core\.display\.(Image|SVG) object>$/;

/** The picture path a FileNotFoundError names, if it names one. */
export function missingPicture(ename: string, evalue: string): string | undefined {
  if (ename !== 'FileNotFoundError') return undefined;
  const path = QUOTED_PATH.exec(evalue)?.[1];
  return path && PICTURE.test(path) ? path : undefined;
}

/** The cell's logical lines (the project's one splitter), comments dropped, continuation lines joined. */
function statements(source: string): string[] {
  const starts = logicalLineRanges(source).map(([start]) => start);
  return starts
    .map((start, k) => source.slice(start, starts[k + 1] ?? source.length).split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter(Boolean).join(' '))
    .filter(Boolean);
}

function isPictureOutput(o: Output): boolean {
  if (o.output_type === 'error') return false;
  if (o.output_type === 'stream') return false;
  const data = o.data ?? {};
  const keys = Object.keys(data);
  if (keys.some((k) => k.startsWith('image/'))) return true;
  const text = sourceText(data['text/plain'] as string | string[] | undefined).trim();
  return keys.every((k) => k === 'text/plain') && PICTURE_TEXT.test(text);
}

/** Whether the cell does nothing but import IPython's display helpers and show pictures. */
export function onlyShowsPictures(nb: Notebook, cell: number): boolean {
  const c = nb.cells[cell];
  if (!c || c.cell_type !== 'code') return false;
  const stmts = statements(sourceText(c.source));
  if (!stmts.some((s) => PICTURE_DISPLAY.test(s))) return false;
  if (!stmts.every((s) => DISPLAY_IMPORT.test(s) || PICTURE_DISPLAY.test(s))) return false;
  return (c.outputs ?? []).every(isPictureOutput);
}

/** The excuse for a failing cell that only shows an absent picture, or undefined. */
export function absentPictureExcuse(nb: Notebook, cell: number, error: { ename: string; evalue: string }): ExpectedError | undefined {
  const picture = missingPicture(error.ename, error.evalue);
  if (!picture || !onlyShowsPictures(nb, cell)) return undefined;
  return {
    ename: error.ename,
    skipped: true,
    picture,
    reason: `the cell only shows a picture file of the author's repository (${picture}), which is not here; its output is a picture, not a result, so it is not run`,
  };
}
