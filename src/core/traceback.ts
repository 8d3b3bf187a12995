/**
 * The notebook's own frames in an IPython traceback, whatever its age: `Cell In[7], line 12`
 * (IPython 8), `/tmp/ipykernel_N/M.py` (ipykernel 6), `<ipython-input-10-bc05...>` (the IPython
 * 5-7 of most stored notebooks). Each frame lists numbered source lines around an arrow (`---->`)
 * at the failing one; library frames (`File /usr/...py:446`, `~\Anaconda3\...\matrix.py in f`)
 * are skipped. Pure text work, shared by the executor (is this the author's error?) and the agent.
 */

/** Terminal colour codes, as IPython puts them in traceback entries. */
export const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const NOTEBOOK_FRAME = /^(?:Cell In\[\d+\], line \d+|\S*ipykernel_\d+\/\d+\.py\b|<ipython-input-\d+-[0-9a-f]+>)/;
const LIBRARY_FRAME = /^(File |\S+\.py\b)/;

export interface NotebookFrame {
  /** The failing line's number and text (whitespace collapsed). */
  line: number;
  text: string;
  /** The nearest non-blank source line shown above it, and those shown below it (up to three). */
  above?: string;
  below: string[];
}

/** The innermost notebook frame that shows a failing line. */
export function innermostNotebookFrame(traceback: readonly string[]): NotebookFrame | undefined {
  let found: NotebookFrame | undefined;
  let current: NotebookFrame | undefined;
  let inNotebook = false;
  let above: string | undefined;
  for (const l of traceback.join('\n').replace(ANSI, '').split('\n')) {
    if (NOTEBOOK_FRAME.test(l)) { inNotebook = true; current = undefined; above = undefined; continue; }
    if (LIBRARY_FRAME.test(l)) { inNotebook = false; current = undefined; continue; }
    if (!inNotebook) continue;
    const arrow = /^-+>\s*(\d+)\s?(.*)$/.exec(l);
    if (arrow && current) { if (current.below.length < 3) current.below.push(collapse(arrow[2]!)); continue; }
    if (arrow) {
      current = { line: Number(arrow[1]), text: collapse(arrow[2]!), ...(above !== undefined ? { above } : {}), below: [] };
      found = current;
      continue;
    }
    const context = /^\s+(\d+)\s?(.*)$/.exec(l);
    const text = context ? collapse(context[2]!) : '';
    if (!text) continue;
    if (current) { if (current.below.length < 3) current.below.push(text); } else above = text;
  }
  return found;
}

/** The failing line's number in the outermost notebook frame (the cell that was run), as IPython counts it. */
export function outermostNotebookLine(traceback: readonly string[]): number | undefined {
  const frame = traceback.map((t) => t.replace(ANSI, '')).find((t) => NOTEBOOK_FRAME.test(t) || /^Cell In\[\d+\]/.test(t));
  const m = frame && /^-+> (\d+)/m.exec(frame);
  return m ? Number(m[1]) : undefined;
}

/**
 * How many lines IPython drops from the top of a cell before compiling it: its input transformer
 * `leading_empty_lines` (IPython 7+) removes leading lines that are empty or whitespace, so a
 * traceback's line numbers count from the first line with code. A cell that starts with a blank line
 * fails "at line 34" on what the notebook holds as line 35.
 */
export function leadingBlankLines(source: string): number {
  const lines = source.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  return first < 0 ? 0 : first;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Did this traceback fail at the statement whose failing line the author's traceback showed? Python
 * before 3.8 pointed at the last line of a call written over several lines, Python 3.13 points at its
 * first and shows the rest below: the author's line is the arrow's, or one of the lines right below it.
 */
export function failsAtLine(traceback: readonly string[], authorLine: string): boolean {
  const f = innermostNotebookFrame(traceback);
  if (!f) return false;
  const want = collapse(authorLine);
  if (f.text === want) return true;
  // Only the lines that continue the failing statement: brackets left open, or a trailing backslash.
  let open = depth(f.text);
  let cont = f.text.endsWith('\\');
  for (const l of f.below) {
    if (open <= 0 && !cont) return false;
    if (l === want) return true;
    open += depth(l);
    cont = l.endsWith('\\');
  }
  return false;
}

/** Opening minus closing brackets of a line, outside string literals (roughly: quotes toggle). */
function depth(line: string): number {
  let d = 0;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote) { if (ch === quote) quote = undefined; continue; }
    if (ch === '#') break;
    if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) d++;
    else if (')]}'.includes(ch)) d--;
  }
  return d;
}
