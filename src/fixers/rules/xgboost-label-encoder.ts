/**
 * xgboost's scikit-learn classifier encoded the labels itself until 1.6 (`use_label_encoder`,
 * deprecated in 1.3, off by default in 1.6, removed in 2.0): `XGBClassifier().fit(X, y)` with labels
 * 1..7 (forest cover types) or strings trained on their codes and `predict` gave the labels back.
 * Now fit refuses anything but 0..K-1: "Invalid classes inferred from unique values of `y`".
 *
 * The faithful repair restores the encoder for the notebook, once, where XGBClassifier is imported:
 * a subclass of the same name that encodes y in fit (and in eval_set) and decodes predict. Every
 * later use (constructor calls, grid searches, clones) then behaves as the author's did, with one
 * edit instead of one per call site. Fired from the error; kept only if the stored outputs agree.
 */
import type { Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';
import type { TextEdit } from './types.js';

const INVALID_CLASSES = /Invalid classes inferred from unique values of `y`/;

/** The subclass, deriving from `base`, bound as `name` (and written back to the module for `xgb.XGBClassifier`). */
function shim(name: string, base: string, moduleAlias?: string): string {
  return [
    `class ${name}(${base}):`,
    '    # xgboost < 1.6 label-encoded y itself (use_label_encoder); restored so labels such as 1..7 work as they did',
    '    def fit(self, X, y, *args, **kwargs):',
    '        from sklearn.preprocessing import LabelEncoder',
    '        self._label_encoder = LabelEncoder().fit(y)',
    "        if kwargs.get('eval_set'):",
    "            kwargs['eval_set'] = [(a, self._label_encoder.transform(b)) for a, b in kwargs['eval_set']]",
    '        return super().fit(X, self._label_encoder.transform(y), *args, **kwargs)',
    '    def predict(self, X, *args, **kwargs):',
    '        return self._label_encoder.inverse_transform(super().predict(X, *args, **kwargs))',
    ...(moduleAlias ? [`${moduleAlias}.XGBClassifier = ${name}`] : []),
  ].join('\n');
}

export async function xgbLabelEncoderPatches(nb: Notebook, failingCell: number, error: { ename: string; evalue: string }): Promise<Array<{ patch: Patch; label: string }>> {
  if (error.ename !== 'ValueError' || !INVALID_CLASSES.test(error.evalue)) return [];
  const cells = await parseNotebookCells(nb);
  try {
    // Every top-level import binds the class again: a notebook that imports it in a later cell too
    // (a model-comparison cell importing all its models) would get the unencoded class back there.
    // So the subclass follows each import that does not have it yet; one before the failing cell is
    // what makes the repair about this error.
    const edits = new Map<number, TextEdit[]>();
    let beforeFailing = false;
    for (const c of cells) {
      const found = importOf(c.tree.rootNode);
      if (!found) continue;
      if (c.index <= failingCell) beforeFailing = true;
      if (/_label_encoder = LabelEncoder\(\)/.test(c.source)) continue; // already restored here
      const text = found.kind === 'from' ? shim(found.name, found.name) : shim('XGBClassifier', `${found.alias}.XGBClassifier`, found.alias);
      addCellEdit(edits, c.index, { start: found.statement.endIndex, end: found.statement.endIndex, text: `\n${text}` });
    }
    if (!beforeFailing || !edits.size) return [];
    const where = [...edits.keys()].join(', ');
    return [{
      label: `xgboost label encoder restored in cell${edits.size > 1 ? 's' : ''} ${where}`,
      patch: {
        fixType: 'error-repair',
        source: { kind: 'rule', ruleIds: ['xgboost-label-encoder'] },
        edits: cellReplacements(nb, edits),
        summary: `xgboost < 1.6 encoded XGBClassifier's labels itself: restored where it is imported (cell${edits.size > 1 ? 's' : ''} ${where})`,
      },
    }];
  } finally {
    disposeCells(cells);
  }
}

/** `from xgboost(.sklearn) import XGBClassifier [as N]` or `import xgboost [as xgb]`, top level. */
function importOf(root: SyntaxNode): { kind: 'from'; name: string; statement: SyntaxNode } | { kind: 'module'; alias: string; statement: SyntaxNode } | undefined {
  for (const st of root.namedChildren) {
    if (!st) continue;
    if (st.type === 'import_from_statement' && /^xgboost(\.sklearn)?$/.test(st.childForFieldName('module_name')?.text ?? '')) {
      for (const n of st.childrenForFieldName('name')) {
        if (!n) continue;
        const orig = n.type === 'aliased_import' ? n.childForFieldName('name')?.text : n.text;
        const bound = n.type === 'aliased_import' ? n.childForFieldName('alias')?.text : n.text;
        if (orig === 'XGBClassifier' && bound) return { kind: 'from', name: bound, statement: st };
      }
    }
    if (st.type === 'import_statement') {
      for (const n of st.childrenForFieldName('name')) {
        if (!n) continue;
        if (n.type === 'dotted_name' && n.text === 'xgboost') return { kind: 'module', alias: 'xgboost', statement: st };
        if (n.type === 'aliased_import' && n.childForFieldName('name')?.text === 'xgboost') return { kind: 'module', alias: n.childForFieldName('alias')!.text, statement: st };
      }
    }
  }
  return undefined;
}
