/**
 * The author's data sat in the working directory, and the notebook finds it by walking or listing
 * that directory: `for dirname, _, filenames in os.walk('.'): ... train_path = os.path.join(dirname,
 * filename)`, `for f in os.listdir('.')`, `for f in glob.glob('*.csv')`. Here the working directory
 * holds no data (it is mounted at ../input, as on Kaggle), the loop body never runs, and the name it
 * binds is unbound: `NameError` at the first read. From that error, when every binding of the name
 * sits inside such loops over the working directory, the loops walk the data directory instead.
 */
import type { Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import type { TextEdit } from './types.js';
import { DATA_ROOT } from './missing-path.js';
import { stringValue } from './tree.js';

const HERE = new Set(['.', './', '']);

/** The edit that points a walk / listing / glob of the working directory at the data, if `iter` is one. */
function workingDirEdit(iter: SyntaxNode | null): TextEdit | undefined {
  if (iter?.type !== 'call') return undefined;
  const fn = iter.childForFieldName('function')?.text ?? '';
  const args = iter.childForFieldName('arguments');
  const first = args?.namedChildren.find((a) => a && a.type !== 'comment' && a.type !== 'keyword_argument') ?? null;
  const value = first ? stringValue(first) : undefined;
  if (/(^|\.)(walk|listdir|scandir)$/.test(fn)) {
    if (!first) return /listdir|scandir/.test(fn) && args ? { start: args.startIndex + 1, end: args.startIndex + 1, text: `'${DATA_ROOT}'` } : undefined;
    return value !== undefined && HERE.has(value) ? { start: first.startIndex, end: first.endIndex, text: `'${DATA_ROOT}'` } : undefined;
  }
  // `glob('*.csv')` / `glob('./*.csv')`: a pattern in the working directory itself.
  const pattern = value?.replace(/^\.\//, '');
  if (/(^|\.)i?glob$/.test(fn) && pattern && !/[/\\]/.test(pattern)) return { start: first!.startIndex, end: first!.endIndex, text: `'${DATA_ROOT}/${pattern}'` };
  return undefined;
}

export async function workingDirWalkPatches(nb: Notebook, name: string): Promise<Array<{ patch: Patch; label: string }>> {
  const cells = await parseNotebookCells(nb);
  try {
    const edits = new Map<number, TextEdit[]>();
    let bindings = 0;
    for (const cell of cells) {
      for (const asg of cell.idx.byType.get('assignment')) {
        if (asg.childForFieldName('left')?.text !== name) continue;
        bindings++;
        let loop: SyntaxNode | null = asg.parent;
        let edit: TextEdit | undefined;
        for (; loop && !edit; loop = loop.parent) if (loop.type === 'for_statement') edit = workingDirEdit(loop.childForFieldName('right'));
        if (!edit) return [];
        if (!(edits.get(cell.index) ?? []).some((e) => e.start === edit!.start)) addCellEdit(edits, cell.index, edit);
      }
    }
    if (!bindings || !edits.size) return [];
    return [{
      label: `walk ${DATA_ROOT} for ${name}`,
      patch: { fixType: 'error-repair', source: { kind: 'rule', ruleIds: ['data-walk-working-dir'] }, edits: cellReplacements(nb, edits), summary: `${name} is bound only in loops over the working directory, which holds no data here: they walk ${DATA_ROOT}` },
    }];
  } finally {
    disposeCells(cells);
  }
}
