/**
 * Checks a patch before it is run: its edits apply, the new cells parse as Python 3, it touches
 * only the cells it may, and what it ADDS does not read ground truth, hard-code scores or
 * predictions, install packages or use the network. Every problem has a reason that can be fed
 * back to the model (`validationReflection`).
 *
 * Content checks look only at lines the patch adds (a line already in the cell is the author's),
 * the syntax checks at the whole new cell (it must run under Python 3).
 */
import type { CellEdit, Patch } from '../../core/patch.js';
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import { parsePython, walk, type SyntaxNode } from '../python/parser.js';
import { maskIPythonLines } from '../python/ipython.js';
import { insertedCells, structureProblems } from './structure.js';

export type ProblemKind =
  | 'empty-patch'
  | 'unknown-cell'
  | 'not-code-cell'
  | 'cell-not-allowed'
  | 'search-not-found'
  | 'search-ambiguous'
  | 'no-change'
  | 'syntax'
  | 'python2'
  | 'forbidden-path'
  | 'hard-coded-score'
  | 'hard-coded-predictions'
  | 'install'
  | 'network'
  | 'bad-move'
  | 'bad-delete';

export interface Problem {
  cell: number;
  kind: ProblemKind;
  message: string;
  /** 1-based line in the new cell source. */
  line?: number;
}

export interface ValidateOptions {
  /** Cells the patch may touch; default: every code cell. */
  allowedCells?: number[];
  /** The run order the loop uses now (undefined: file order), for the def-use checks of moves and deletes. */
  order?: number[];
  /** Files the notebook must never read (ground truth, test labels); matched by path and basename. */
  forbiddenPaths?: string[];
}

export interface ValidationResult {
  ok: boolean;
  problems: Problem[];
  /** One line per problem, "cell N line L: ...". */
  reasons: string[];
  /** The new source of each touched cell (edits applied in order). */
  newSources: Map<number, string>;
}

/** Path fragments that always mean "answers", whatever the caller passes. */
const ALWAYS_FORBIDDEN = [/ground[_ -]?truth/i, /test[_-]?labels?\b/i, /\bsolution\.csv\b/i, /titanic3\.csv/i];

const SCORE_NAME = /(^|_)(scores?|acc|accuracy|auc|roc_auc|rmse|rmsle|mse|mae|r2|f1|logloss|log_loss|loss|precision|recall|metric|error|err)($|_)/i;
const PRED_NAME = /(^|_)(preds?|predictions?|predicted|y_?pred|y_?hat|submission|survived|target|labels?|y_?test|output|result)s?($|_)/i;

const NETWORK_IMPORTS = /^(requests|urllib|urllib2|urllib3|httplib|http|socket|ftplib|wget|pycurl|aiohttp|httpx|kaggle|gdown|paramiko|smtplib|telnetlib)$/;
const NETWORK_CALLS = /\b(urlopen|urlretrieve|get_file|fetch_openml|fetch_california_housing|fetch_20newsgroups|fetch_lfw_people|fetch_covtype|fetch_kddcup99|load_dataset|hf_hub_download|snapshot_download)\s*\(|\bnltk\.download\s*\(|\b(torch\.hub|tf\.keras\.utils\.get_file|hub\.load)\b|\bkaggle\s+(competitions|datasets|kernels)\b/;
const SHELL_NETWORK = /\b(wget|curl|git\s+clone|kaggle|gdown|scp|rsync|ssh|ftp)\b/;
const INSTALL = /\b(pip3?|python3?\s+-m\s+pip|conda|mamba|micromamba|apt(-get)?|easy_install|uv)\s+(install|add)\b|\beasy_install\b|\bsetup\.py\s+install\b/;

/**
 * Apply edits in order; search/replace needs exactly one match (exact, then ignoring trailing
 * spaces). An inserted cell's source is under its new number (past the last cell, see
 * structure.ts), a deleted cell's is empty; a move changes no source.
 */
export function applyPatchEdits(nb: Notebook, edits: CellEdit[]): { sources: Map<number, string>; problems: Problem[] } {
  const sources = new Map<number, string>();
  const problems: Problem[] = [];
  const inserted = insertedCells(nb, edits);
  edits.forEach((e, k) => {
    if (e.op === 'insert') {
      sources.set(inserted.get(e)!, e.newSource);
      return;
    }
    if (e.op === 'move') return; // checked by structureProblems
    const cell = nb.cells[e.cell];
    if (!cell) {
      problems.push({ cell: e.cell, kind: 'unknown-cell', message: `cell ${e.cell} does not exist (the notebook has cells 0-${nb.cells.length - 1})` });
      return;
    }
    if (cell.cell_type !== 'code') {
      problems.push({ cell: e.cell, kind: 'not-code-cell', message: `cell ${e.cell} is a ${cell.cell_type} cell, not code` });
      return;
    }
    if (e.op === 'delete') {
      sources.set(e.cell, '');
      return;
    }
    const current = sources.get(e.cell) ?? sourceText(cell.source);
    if (e.op === 'replace') {
      sources.set(e.cell, e.newSource);
      return;
    }
    const count = occurrences(current, e.search);
    if (count === 1) {
      sources.set(e.cell, current.replace(e.search, () => e.replace));
      return;
    }
    if (count > 1) {
      problems.push({ cell: e.cell, kind: 'search-ambiguous', message: `edit ${k + 1}: the SEARCH text occurs ${count} times in cell ${e.cell}; include more surrounding lines so it matches once` });
      return;
    }
    const loose = looseReplace(current, e.search, e.replace);
    if (loose !== undefined) {
      sources.set(e.cell, loose);
      return;
    }
    const first = e.search.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
    const near = current.split('\n').find((l) => first && l.includes(first.slice(0, 20)));
    problems.push({
      cell: e.cell,
      kind: 'search-not-found',
      message: `edit ${k + 1}: the SEARCH text is not in cell ${e.cell}` + (near !== undefined ? ` (closest line: ${JSON.stringify(near.trim())}); copy the current lines exactly` : '; copy the current lines of the cell exactly'),
    });
  });
  return { sources, problems };
}

function occurrences(hay: string, needle: string): number {
  if (!needle) return 0;
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

/** Match line by line ignoring trailing whitespace; unique matches only. */
function looseReplace(current: string, search: string, replace: string): string | undefined {
  const lines = current.split('\n');
  const s = search.split('\n').map((l) => l.trimEnd());
  while (s.length && s[s.length - 1] === '') s.pop();
  if (!s.length) return undefined;
  const hits: number[] = [];
  for (let i = 0; i + s.length <= lines.length; i++) {
    if (s.every((l, k) => lines[i + k]!.trimEnd() === l)) hits.push(i);
  }
  if (hits.length !== 1) return undefined;
  const i = hits[0]!;
  return [...lines.slice(0, i), ...replace.split('\n'), ...lines.slice(i + s.length)].join('\n');
}

/** Syntax problems of one cell under Python 3 (IPython magics masked first). */
export async function syntaxProblems(source: string, cell = 0): Promise<Problem[]> {
  const { code } = maskIPythonLines(source);
  const tree = parsePython(code);
  const out: Problem[] = [];
  const lines = code.split('\n');
  const seen = new Set<number>();
  for (const n of walk(tree.rootNode)) {
    const line = n.startPosition.row + 1;
    if (n.type === 'ERROR' || n.isMissing) {
      if (seen.has(line)) continue;
      seen.add(line);
      const what = n.isMissing ? `missing ${JSON.stringify(n.type)}` : `invalid syntax near ${JSON.stringify(n.text.slice(0, 40))}`;
      out.push({ cell, kind: 'syntax', line, message: `line ${line}: ${what}: ${JSON.stringify((lines[n.startPosition.row] ?? '').trim().slice(0, 80))}` });
      if (out.length >= 3) break;
      continue;
    }
    const py2 = python2Construct(n);
    if (py2) out.push({ cell, kind: 'python2', line, message: `line ${line}: ${py2} is Python 2 syntax` });
  }
  tree.delete();
  return out;
}

function python2Construct(n: SyntaxNode): string | undefined {
  switch (n.type) {
    case 'print_statement':
      return '`print x` (a print statement)';
    case 'exec_statement':
      return '`exec code` (an exec statement)';
    case 'except_clause':
      return n.children.some((c) => c?.type === ',') ? '`except E, e:`' : undefined;
    case 'raise_statement':
      return n.namedChildren[0]?.type === 'expression_list' ? '`raise E, "message"`' : undefined;
    case 'comparison_operator':
      return n.children.some((c) => c?.type === '<>') ? 'the `<>` operator' : undefined;
    case 'integer':
      if (/^0\d+$/.test(n.text) && /[1-9]/.test(n.text)) return `the octal literal ${n.text}`;
      if (/[lL]$/.test(n.text)) return `the long literal ${n.text}`;
      return undefined;
    case 'string': {
      const t = n.text;
      if (t.startsWith('`')) return 'a backtick repr';
      const prefix = /^([A-Za-z]*)["']/.exec(t)?.[1] ?? '';
      if (/u/i.test(prefix) && /r/i.test(prefix)) return `the string prefix ${prefix}`;
      return undefined;
    }
  }
  return undefined;
}

function isNumberLiteral(n: SyntaxNode | null): boolean {
  if (!n) return false;
  if (n.type === 'integer' || n.type === 'float') return true;
  if (n.type === 'unary_operator') return isNumberLiteral(n.namedChildren[0] ?? null);
  return false;
}

function numberValue(n: SyntaxNode): number {
  return Number(n.text.replace(/_/g, '').replace(/[lLjJ]$/, ''));
}

/** A literal that looks like a measured score, not an initial value (0, 1, -1, sentinels). */
function looksLikeScoreLiteral(n: SyntaxNode | null): boolean {
  if (!n) return false;
  if (n.type === 'unary_operator') return looksLikeScoreLiteral(n.namedChildren[0] ?? null);
  if (n.type === 'call' && /^round$/.test(n.childForFieldName('function')?.text ?? '')) {
    return looksLikeScoreLiteral(n.childForFieldName('arguments')?.namedChildren[0] ?? null);
  }
  if (n.type === 'tuple' || n.type === 'list') return n.namedChildren.some((c) => looksLikeScoreLiteral(c));
  if (n.type !== 'float') return false;
  const v = Math.abs(numberValue(n));
  return Number.isFinite(v) && v !== 0 && v !== 1 && v < 1e6;
}

function numericElements(n: SyntaxNode): number {
  return n.namedChildren.filter((c) => isNumberLiteral(c)).length;
}

function targetName(n: SyntaxNode | null): string {
  if (!n) return '';
  if (n.type === 'identifier') return n.text;
  if (n.type === 'attribute') return n.childForFieldName('attribute')?.text ?? '';
  if (n.type === 'subscript') {
    const sub = n.childForFieldName('subscript');
    if (sub?.type === 'string') return sub.text.replace(/^[A-Za-z]*['"]+|['"]+$/g, '');
    return targetName(n.childForFieldName('value'));
  }
  return '';
}

function stringValue(n: SyntaxNode): string {
  return n.namedChildren.filter((c) => c?.type === 'string_content').map((c) => c!.text).join('');
}

/** Policy checks on the lines a patch adds. */
export async function contentProblems(oldSource: string, newSource: string, cell: number, forbiddenPaths: string[] = []): Promise<Problem[]> {
  const oldLines = new Set(oldSource.split('\n').map((l) => l.trim()));
  const newLines = newSource.split('\n');
  const added = new Set<number>(); // 0-based rows
  newLines.forEach((l, i) => { if (l.trim() !== '' && !oldLines.has(l.trim())) added.add(i); });
  const out: Problem[] = [];
  if (!added.size) return out;
  const push = (kind: ProblemKind, row: number, message: string): void => {
    if (out.some((p) => p.kind === kind && p.line === row + 1)) return;
    out.push({ cell, kind, line: row + 1, message: `line ${row + 1}: ${message}` });
  };

  // Shell and magic lines (masked for the parser, so check them raw).
  const { code, masked } = maskIPythonLines(newSource);
  for (const m of masked) {
    if (!added.has(m.line)) continue;
    if (INSTALL.test(m.text) || /^\s*%(pip|conda)\b/.test(m.text)) push('install', m.line, `installs packages (${m.text.trim().slice(0, 60)}); the environment is fixed: change the code instead`);
    else if (SHELL_NETWORK.test(m.text)) push('network', m.line, `uses the network (${m.text.trim().slice(0, 60)}); there is no network`);
  }

  const tree = parsePython(code);
  const forb = forbiddenPaths.map((p) => p.replace(/\\/g, '/')).filter(Boolean);
  const forbiddenHit = (s: string): string | undefined => {
    const v = s.replace(/\\/g, '/');
    for (const p of forb) {
      const base = p.split('/').pop()!;
      if (v.includes(p) || (base && v.toLowerCase().includes(base.toLowerCase()))) return p;
    }
    const generic = ALWAYS_FORBIDDEN.find((re) => re.test(v));
    return generic ? v : undefined;
  };

  for (const n of walk(tree.rootNode)) {
    const row = n.startPosition.row;
    if (!added.has(row)) continue;
    switch (n.type) {
      case 'comment':
        break;
      case 'string': {
        const v = stringValue(n);
        const hit = forbiddenHit(v);
        if (hit) push('forbidden-path', row, `refers to ${JSON.stringify(v.slice(0, 80))}, a ground-truth/test-label file the notebook must not read`);
        if (/^(https?|ftp):\/\//i.test(v.trim())) push('network', row, `uses the URL ${JSON.stringify(v.slice(0, 60))}; there is no network, read local files`);
        if (INSTALL.test(v)) push('install', row, 'installs packages through a shell command; the environment is fixed');
        if ((v.match(/-?\d+(\.\d+)?/g) ?? []).length >= 20 && /^[\s\d.,;\-\[\]]+$/.test(v)) push('hard-coded-predictions', row, 'a string of 20+ numbers looks like hard-coded predictions');
        break;
      }
      case 'import_statement':
      case 'import_from_statement': {
        const mods = n.type === 'import_statement'
          ? n.childrenForFieldName('name').map((c) => (c?.type === 'aliased_import' ? c.childForFieldName('name')?.text : c?.text) ?? '')
          : [n.childForFieldName('module_name')?.text ?? ''];
        for (const m of mods) {
          const top = m.split('.')[0]!;
          if (NETWORK_IMPORTS.test(top) && !/^http\.(server|cookies)$/.test(m)) push('network', row, `imports ${m}, a network module; there is no network`);
          if (top === 'pip') push('install', row, 'imports pip to install packages; the environment is fixed');
        }
        break;
      }
      case 'call': {
        const text = n.text;
        if (NETWORK_CALLS.test(text.split('(')[0] + '(')) push('network', row, `calls ${text.split('(')[0]}(), which downloads; there is no network`);
        const fn = n.childForFieldName('function')?.text ?? '';
        if (/^(os\.system|subprocess\.\w+|os\.popen)$/.test(fn) && INSTALL.test(text)) push('install', row, 'installs packages through a shell command; the environment is fixed');
        if (fn === 'print') {
          const args = n.childForFieldName('arguments')?.namedChildren ?? [];
          const labelled = args.some((a) => a?.type === 'string' && SCORE_NAME.test(stringValue(a).toLowerCase().replace(/[^a-z0-9_]+/g, '_')));
          if (labelled && args.some((a) => looksLikeScoreLiteral(a))) push('hard-coded-score', row, 'prints a literal number as a score; scores must be computed');
        }
        break;
      }
      case 'assignment':
      case 'augmented_assignment': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        const name = targetName(left);
        if (name && SCORE_NAME.test(name) && looksLikeScoreLiteral(right)) {
          push('hard-coded-score', row, `assigns the literal ${right!.text} to ${left!.text}; scores must be computed, not written in`);
        }
        if (right && (right.type === 'list' || right.type === 'tuple') && numericElements(right) >= 10 && PRED_NAME.test(name)) {
          push('hard-coded-predictions', row, `assigns ${numericElements(right)} literal numbers to ${left!.text}; predictions must come from the model`);
        }
        break;
      }
      case 'pair': {
        const key = n.childForFieldName('key');
        const value = n.childForFieldName('value');
        if (key?.type === 'string' && SCORE_NAME.test(stringValue(key).toLowerCase()) && looksLikeScoreLiteral(value)) {
          push('hard-coded-score', row, `writes the literal ${value!.text} as ${key.text}; scores must be computed`);
        }
        break;
      }
      case 'list':
      case 'tuple':
        if (numericElements(n) >= 20) push('hard-coded-predictions', row, `a literal list of ${numericElements(n)} numbers looks like hard-coded predictions`);
        break;
    }
  }
  tree.delete();
  return out;
}

export async function validatePatch(patch: Patch, nb: Notebook, opts: ValidateOptions = {}): Promise<ValidationResult> {
  const problems: Problem[] = [];
  if (!patch.edits.length) problems.push({ cell: -1, kind: 'empty-patch', message: 'the patch changes nothing' });
  if (opts.allowedCells) {
    // An insert's anchor and a move's target are positions, not changes: only the cells whose code changes or moves count.
    const touched = new Set(patch.edits.filter((e) => e.op !== 'insert').map((e) => e.cell));
    for (const c of touched) {
      if (!opts.allowedCells.includes(c)) {
        problems.push({ cell: c, kind: 'cell-not-allowed', message: `cell ${c} may not be changed by this fix (allowed: ${opts.allowedCells.join(', ')})` });
      }
    }
  }
  const applied = applyPatchEdits(nb, patch.edits);
  problems.push(...applied.problems);
  const deleted = new Set(patch.edits.flatMap((e) => (e.op === 'delete' ? [e.cell] : [])));
  for (const [cell, src] of applied.sources) {
    if (deleted.has(cell)) continue;
    const old = sourceText(nb.cells[cell]?.source);
    if (src === old && nb.cells[cell]) {
      problems.push({ cell, kind: 'no-change', message: `the new source of cell ${cell} is identical to the current one` });
      continue;
    }
    problems.push(...(await syntaxProblems(src, cell)));
    problems.push(...(await contentProblems(old, src, cell, opts.forbiddenPaths)));
  }
  if (!applied.problems.length) problems.push(...(await structureProblems(nb, opts.order, patch.edits, applied.sources)));
  // A new cell's number (past the last) means nothing to the model: name it by where it goes.
  const inserted = new Map([...insertedCells(nb, patch.edits)].map(([e, n]) => [n, e.op === 'insert' ? `the cell inserted ${e.position} cell ${e.cell}` : `cell ${n}`]));
  const reasons = problems.map((p) => (p.cell >= 0 ? `${inserted.get(p.cell) ?? `cell ${p.cell}`}: ${p.message}` : p.message));
  return { ok: problems.length === 0, problems, reasons, newSources: applied.sources };
}

/** The message that tells the model why its patch was rejected. */
export function validationReflection(result: ValidationResult): string {
  return [
    'Your patch was rejected before running it:',
    ...result.reasons.map((r) => `- ${r}`),
    'Fix these problems and reply again in the same format (a short plan, then the complete new cell source in one ```python block).',
    ...(result.problems.some((p) => p.kind === 'no-change')
      ? ['If you think this cell needs no change, do not send it back unchanged: reply with the line GIVE_UP: <why, and where the problem lies>.']
      : []),
  ].join('\n');
}
