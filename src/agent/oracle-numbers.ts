/**
 * Numbers a notebook printed, made comparable. From a code cell's outputs we read stdout streams
 * and the text/plain of results and displays (not stderr, images, HTML), then drop what is not
 * a result: timings, dates, memory sizes and addresses, object reprs, progress bars, df.info()
 * blocks, execution counts, versions, file:line references, and the index column and header of
 * printed DataFrames/Series. Each remaining line keeps a template (the line with its numbers
 * replaced by '#') so lines can be aligned between two runs.
 */
import type { CodeCell, Output } from '../core/notebook.js';
import { sourceText } from '../core/notebook.js';

export interface NumberLine {
  /** The line with numbers replaced by '#', whitespace collapsed. */
  template: string;
  numbers: number[];
  /** The cleaned line, for reports. */
  raw: string;
}

export interface CellNumbers {
  lines: NumberLine[];
  /** Outputs reported but not judged. */
  images: number;
  htmlOnly: number;
  /** Templates of text lines without numbers (to report text changes). */
  textLines: string[];
  hasError: boolean;
}

const NUMBER = /(?<![\w.#/\\])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])(?!\.\w)/g;

const SKIP_LINE = [
  /\b(wall time|cpu times?|elapsed|time taken|took|runtime|run time|duration)\b/i,
  /\bper loop\b|\bloops?, best of\b|\bmean ± std\b/i,
  /\bmemory usage\b/i,
  /\d+%\|/, // tqdm
  /\[[=>.\-]{5,}\]/, // keras progress
  /\bETA\b|\bit\/s\b|\bs\/it\b/,
  /\.py:\d+|File ".*", line \d+/,
  /\b(version|python \d)/i,
  /^\s*(In|Out)\s*\[\d*\]:/,
  /^\s*(Name: .*, )?(Length: \d+, )?dtype: \w+\s*$/, // Series footer
];

const REMOVE = [
  /<[A-Za-z_][^<>\n]*>/g, // object reprs: <Figure size 640x480 with 1 Axes>, <... at 0x7f..>, <class '...'>
  /\b0x[0-9a-fA-F]+\b/g,
  /\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/g,
  /\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g,
  /\b\d+(?:\.\d+)?\s*(?:ms|µs|us|ns|sec|secs|seconds?|mins?|minutes?|hours?|h|s)\b/g,
  /\b\d+(?:\.\d+)?\+?\s*(?:bytes|KB|MB|GB|KiB|MiB|GiB)\b/g,
  /\u001b\[[0-9;?]*[ -\/]*[@-~]/g,
];

export function textOf(src: unknown): string {
  return sourceText(src as string | string[] | undefined);
}

/** Terminal semantics: only what follows the last carriage return of a line is visible. */
function visibleLines(text: string): string[] {
  return text.split('\n').map((l) => {
    const t = l.replace(/\r+$/, '');
    const k = t.lastIndexOf('\r');
    return k >= 0 ? t.slice(k + 1) : t;
  });
}

/**
 * Lines of a block that is a printed DataFrame (header line indented, rows start with an index
 * label) or a Series (rows "label  value", a dtype footer): header lines are skipped and the
 * index label is cut from rows.
 */
function stripTableIndex(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.trim() === '') { out.push(lines[i]!); i++; continue; }
    let j = i;
    while (j < lines.length && lines[j]!.trim() !== '') j++;
    const block = lines.slice(i, j);
    out.push(...tableBlock(block));
    i = j;
  }
  return out;
}

function tableBlock(block: string[]): string[] {
  if (block[0]!.startsWith('<class \'pandas.core.frame.DataFrame\'>') || /^<class 'pandas/.test(block[0]!) || /^(RangeIndex|Int64Index|Index): \d+ entries/.test(block[0]!)) {
    return []; // df.info(): a description of the data, whose layout changed across pandas versions
  }
  if (/^[A-Z][A-Za-z0-9_]*\((\w+=|\)|steps=|\s*$)/.test(block[0]!) || /^(Text|Line2D|Axes|AxesSubplot)\(/.test(block[0]!)) {
    return []; // an estimator's or plot object's repr: configuration, not a result (and its format changed)
  }
  const isSeries = block.length >= 2 && /^\s*(Name: .*, )?(Length: \d+, )?dtype: \w+\s*$/.test(block[block.length - 1]!);
  if (isSeries) {
    return block.map((l, i) => (i === block.length - 1 ? '' : l.replace(/^\S+\s*/, ''))); // index label, dtype footer
  }
  // A printed DataFrame: an indented header line, then rows that start with an index label
  // (wide frames repeat an indented header for each slice of columns).
  const row = /^\S+\s{2,}\S/;
  const header = /^\s+\S/;
  const h = block.findIndex((l, i) => header.test(l) && i + 1 < block.length && row.test(block[i + 1]!) &&
    block.slice(i + 1).every((x) => row.test(x) || header.test(x) || /^\S+\s*$/.test(x) || /^\[\d+ rows x \d+ columns\]$/.test(x.trim())));
  if (h < 0) return block;
  return block.map((l, i) => {
    if (i < h) return l;
    if (header.test(l)) return ''; // column labels
    if (/^\[\d+ rows x \d+ columns\]$/.test(l.trim())) return l;
    return l.replace(/^\S+\s*/, ''); // the index label
  });
}

export function numberLines(text: string, opts: { tables?: boolean } = {}): { lines: NumberLine[]; textLines: string[] } {
  let ls = visibleLines(text);
  if (opts.tables !== false) ls = stripTableIndex(ls);
  const lines: NumberLine[] = [];
  const textLines: string[] = [];
  for (let l of ls) {
    if (l.trim() === '' || SKIP_LINE.some((re) => re.test(l))) continue;
    for (const re of REMOVE) l = l.replace(re, ' ');
    const numbers: number[] = [];
    const template = l
      .replace(NUMBER, (m) => {
        const v = Number(m);
        if (Number.isFinite(v)) numbers.push(v);
        return '#';
      })
      .replace(/\s+/g, ' ')
      .trim();
    if (!template) continue;
    if (numbers.length) lines.push({ template, numbers, raw: l.replace(/\s+/g, ' ').trim() });
    else textLines.push(template);
  }
  return { lines, textLines };
}

function isImageBundle(data: Record<string, unknown>): boolean {
  return Object.keys(data).some((k) => k.startsWith('image/'));
}

export function cellNumbers(cell: CodeCell): CellNumbers {
  const res: CellNumbers = { lines: [], images: 0, htmlOnly: 0, textLines: [], hasError: false };
  for (const o of cell.outputs as Output[]) {
    let text: string | undefined;
    let tables = true;
    if (o.output_type === 'stream') {
      if (o.name !== 'stdout') continue;
      text = textOf(o.text);
    } else if (o.output_type === 'execute_result' || o.output_type === 'display_data') {
      const data = o.data ?? {};
      if (isImageBundle(data)) { res.images++; continue; }
      if (data['text/plain'] === undefined) { if (data['text/html'] !== undefined) res.htmlOnly++; continue; }
      text = textOf(data['text/plain']);
      tables = true;
    } else if (o.output_type === 'error') {
      res.hasError = true;
      continue;
    }
    if (text === undefined) continue;
    const { lines, textLines } = numberLines(text, { tables });
    res.lines.push(...lines);
    res.textLines.push(...textLines);
  }
  return res;
}
