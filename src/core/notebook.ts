/**
 * Pure nbformat 4 notebook types and I/O: read (with nbformat 3 upgrade), validate, write.
 * No execution here; the executor fills outputs and metadata.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotebookInputError, errorMessage } from './errors.js';

export type MultilineString = string | string[];

export interface StreamOutput { output_type: 'stream'; name: 'stdout' | 'stderr'; text: MultilineString }
export interface DisplayDataOutput {
  output_type: 'display_data';
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  transient?: Record<string, unknown>;
}
export interface ExecuteResultOutput {
  output_type: 'execute_result';
  execution_count: number | null;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}
export interface ErrorOutput { output_type: 'error'; ename: string; evalue: string; traceback: string[] }
export type Output = StreamOutput | DisplayDataOutput | ExecuteResultOutput | ErrorOutput;

export interface CodeCell {
  cell_type: 'code';
  id?: string;
  source: MultilineString;
  metadata: Record<string, unknown>;
  outputs: Output[];
  execution_count: number | null;
}
export interface MarkdownCell { cell_type: 'markdown'; id?: string; source: MultilineString; metadata: Record<string, unknown>; attachments?: Record<string, unknown> }
export interface RawCell { cell_type: 'raw'; id?: string; source: MultilineString; metadata: Record<string, unknown>; attachments?: Record<string, unknown> }
export type Cell = CodeCell | MarkdownCell | RawCell;

export interface Notebook {
  nbformat: 4;
  nbformat_minor: number;
  metadata: Record<string, any>;
  cells: Cell[];
}

export interface LoadedNotebook {
  notebook: Notebook;
  /** Human-readable notes about what was done on load (e.g. "converted from nbformat 3"). */
  notes: string[];
  /** Original nbformat major version. */
  originalFormat: number;
}

export function sourceText(src: MultilineString | undefined): string {
  if (src === undefined) return '';
  return Array.isArray(src) ? src.join('') : src;
}

/** Split text into nbformat's list-of-lines form (each line keeps its newline). */
export function toLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split(/(?<=\n)/);
  return parts;
}

export function codeCells(nb: Notebook): Array<{ index: number; cell: CodeCell }> {
  const out: Array<{ index: number; cell: CodeCell }> = [];
  nb.cells.forEach((cell, index) => {
    if (cell.cell_type === 'code') out.push({ index, cell });
  });
  return out;
}

export function readNotebookFile(file: string): LoadedNotebook {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new NotebookInputError(`cannot read ${file}: ${errorMessage(err)}`, 'malformed-notebook');
  }
  return parseNotebook(raw, file);
}

export function parseNotebook(raw: string, label = 'notebook'): LoadedNotebook {
  let json: any;
  try {
    json = JSON.parse(raw.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new NotebookInputError(`${label} is not valid JSON: ${errorMessage(err)}`, 'malformed-notebook');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new NotebookInputError(`${label} is not a notebook: the top level is not a JSON object`, 'malformed-notebook');
  }
  checkDepth(json, label);
  const major = json.nbformat;
  if (major === 4) {
    if (!Array.isArray(json.cells)) {
      throw new NotebookInputError(`${label} is not a valid nbformat 4 notebook: "cells" is missing`, 'malformed-notebook');
    }
    return { notebook: checkShape(normalizeV4(json), label), notes: [], originalFormat: 4 };
  }
  if (major === 3) {
    return {
      notebook: checkShape(upgradeV3(json, label), label),
      notes: [`converted ${label} from nbformat 3 to nbformat 4`],
      originalFormat: 3,
    };
  }
  throw new NotebookInputError(
    `${label} has unsupported nbformat ${JSON.stringify(major)} (only 3 and 4 are understood)`,
    'malformed-notebook',
  );
}

/** Deeper than any notebook writer nests; recursive code (JSON.stringify) overflows the stack far below 100,000. */
export const MAX_JSON_DEPTH = 1000;
/** No real cell's code is this big; a kernel would choke on it (found by the fault suite: a 100 MB cell ran out the whole budget). */
export const MAX_CELL_SOURCE_BYTES = 10 * 1024 * 1024;

/** Refuse JSON nested deeper than MAX_JSON_DEPTH (walked without recursion, so the check itself cannot overflow). */
function checkDepth(json: unknown, label: string): void {
  const stack: Array<[unknown, number]> = [[json, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d > MAX_JSON_DEPTH) throw new NotebookInputError(`${label} is nested more than ${MAX_JSON_DEPTH} levels deep; not a notebook any tool wrote`, 'malformed-notebook');
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x && typeof x === 'object') stack.push([x, d + 1]);
  }
}

const isText = (v: unknown) => typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));
const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list with non-text items' : typeof v);

/** Sources and text outputs are text (a string or a list of strings), and cells have a sane size. */
function checkShape(nb: Notebook, label: string): Notebook {
  const bad = (msg: string) => new NotebookInputError(`${label}: ${msg}`, 'malformed-notebook');
  nb.cells.forEach((c, i) => {
    if (!isText(c.source)) throw bad(`cell ${i}'s "source" is ${kindOf(c.source)}, not text`);
    const size = sourceText(c.source).length;
    if (c.cell_type === 'code' && size > MAX_CELL_SOURCE_BYTES) throw bad(`cell ${i}'s source is ${(size / 1048576).toFixed(0)} MB, over the ${MAX_CELL_SOURCE_BYTES / 1048576} MB a cell may have`);
    if (c.cell_type !== 'code') return;
    c.outputs.forEach((o: any, j) => {
      if (!o || typeof o !== 'object') throw bad(`cell ${i}, output ${j} is ${kindOf(o)}, not an output`);
      if (o.output_type === 'stream' && !isText(o.text)) throw bad(`cell ${i}, output ${j}: "text" is ${kindOf(o.text)}, not text`);
      if (o.data !== undefined && (typeof o.data !== 'object' || o.data === null || Array.isArray(o.data))) throw bad(`cell ${i}, output ${j}: "data" is ${kindOf(o.data)}, not a mime bundle`);
      for (const [mime, v] of Object.entries(o.data ?? {})) {
        if (!/json$/.test(mime) && !isText(v)) throw bad(`cell ${i}, output ${j}: ${mime} is ${kindOf(v)}, not text`);
      }
    });
  });
  return nb;
}

function normalizeV4(json: any): Notebook {
  const cells: Cell[] = json.cells.map((c: any, i: number) => {
    // Some old exporters wrote nbformat-3 "heading" cells into v4 files; Jupyter shows them as markdown.
    if (c && c.cell_type === 'heading') return headingToMarkdown(c);
    if (!c || typeof c !== 'object' || !['code', 'markdown', 'raw'].includes(c.cell_type)) {
      throw new NotebookInputError(`cell ${i} has an unknown cell_type ${JSON.stringify(c?.cell_type)}`, 'malformed-notebook');
    }
    const base = { ...c, source: c.source ?? '', metadata: c.metadata ?? {} };
    if (c.cell_type === 'code') {
      return { ...base, outputs: Array.isArray(c.outputs) ? c.outputs : [], execution_count: c.execution_count ?? null };
    }
    return base;
  });
  return {
    nbformat: 4,
    nbformat_minor: typeof json.nbformat_minor === 'number' ? json.nbformat_minor : 0,
    metadata: json.metadata && typeof json.metadata === 'object' ? json.metadata : {},
    cells,
  };
}

/** Upgrade an nbformat 3 notebook, following nbformat.v4.convert.upgrade. */
function upgradeV3(json: any, label: string): Notebook {
  const sheets = Array.isArray(json.worksheets) ? json.worksheets : [];
  if (!Array.isArray(json.worksheets)) {
    throw new NotebookInputError(`${label} is not a valid nbformat 3 notebook: "worksheets" is missing`, 'malformed-notebook');
  }
  const cells: Cell[] = [];
  for (const ws of sheets) {
    for (const c of ws.cells ?? []) {
      const metadata = c.metadata ?? {};
      if (c.cell_type === 'code') {
        cells.push({
          cell_type: 'code',
          source: c.input ?? '',
          metadata: c.collapsed !== undefined ? { ...metadata, collapsed: c.collapsed } : metadata,
          outputs: (c.outputs ?? []).map(upgradeOutputV3),
          execution_count: c.prompt_number ?? null,
        });
      } else if (c.cell_type === 'heading') {
        cells.push(headingToMarkdown(c));
      } else if (c.cell_type === 'markdown') {
        cells.push({ cell_type: 'markdown', source: c.source ?? '', metadata });
      } else {
        cells.push({ cell_type: 'raw', source: c.source ?? '', metadata });
      }
    }
  }
  const metadata = { ...(json.metadata ?? {}) };
  delete metadata.name;
  delete metadata.signature;
  return { nbformat: 4, nbformat_minor: 0, metadata, cells };
}

function headingToMarkdown(c: any): MarkdownCell {
  const level = Math.min(Math.max(c.level ?? 1, 1), 6);
  const text = sourceText(c.source).split('\n').join(' ');
  return { cell_type: 'markdown', source: `${'#'.repeat(level)} ${text}`, metadata: c.metadata ?? {} };
}

const V3_MIME: Record<string, string> = {
  text: 'text/plain', html: 'text/html', svg: 'image/svg+xml', png: 'image/png', jpeg: 'image/jpeg',
  latex: 'text/latex', json: 'application/json', javascript: 'application/javascript',
};

function upgradeOutputV3(o: any): Output {
  const data: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (V3_MIME[k]) data[V3_MIME[k]] = v;
  }
  switch (o.output_type) {
    case 'pyout':
      return { output_type: 'execute_result', execution_count: o.prompt_number ?? null, data, metadata: o.metadata ?? {} };
    case 'pyerr':
      return { output_type: 'error', ename: o.ename ?? '', evalue: o.evalue ?? '', traceback: o.traceback ?? [] };
    case 'stream':
      return { output_type: 'stream', name: o.stream === 'stderr' ? 'stderr' : 'stdout', text: o.text ?? '' };
    default:
      return { output_type: 'display_data', data, metadata: o.metadata ?? {} };
  }
}

export interface KernelInfo { name: string; language: string; displayName: string; pythonMajor?: number }

/** What kernel the notebook was written for; refuses non-Python kernels with a clear error. */
export function notebookKernel(nb: Notebook, label = 'notebook'): KernelInfo {
  const ks = nb.metadata.kernelspec ?? {};
  const li = nb.metadata.language_info ?? {};
  const language = String(ks.language ?? li.name ?? nb.metadata.language ?? 'python').toLowerCase();
  const name = String(ks.name ?? 'python3');
  const info: KernelInfo = { name, language, displayName: String(ks.display_name ?? name) };
  const versionMajor = Number(String(li.version ?? '').split('.')[0]) || (/python2/i.test(name) ? 2 : /python3/i.test(name) ? 3 : undefined);
  if (versionMajor) info.pythonMajor = versionMajor;
  if (language !== 'python' && !/python|ipython/i.test(name)) {
    throw new NotebookInputError(
      `${label} uses a ${ks.display_name ?? language} kernel (language "${language}"); nbmodernize runs Python notebooks only`,
      'unsupported-kernel',
    );
  }
  return info;
}

export function assertHasCode(nb: Notebook, label = 'notebook'): void {
  if (!nb.cells.some((c) => c.cell_type === 'code' && sourceText(c.source).trim() !== '')) {
    throw new NotebookInputError(`${label} has no code cells to run`, 'no-code-cells');
  }
}

/** Serialize the way Jupyter does (1-space indent, trailing newline) so diffs against saved notebooks stay small. */
export function serializeNotebook(nb: Notebook): string {
  return JSON.stringify(nb, null, 1) + '\n';
}

/** Write atomically: a crash mid-write never leaves a truncated notebook behind. */
export function writeFileAtomic(file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}
