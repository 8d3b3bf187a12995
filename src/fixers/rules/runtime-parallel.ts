/**
 * Runtime reduction that cannot change a result: scikit-learn's searches, cross-validation helpers
 * and forest/neighbour estimators give the same numbers whatever `n_jobs` is (each fold, candidate or
 * tree is computed independently and seeded from `random_state`, not from the worker), so a slow cell
 * running them on one core gets `n_jobs=-1`. Notebooks of the era mostly left `n_jobs` at 1. The
 * gain is at most the machine's core count. Doing less work changes results: the one rule that does
 * (runtime-search-pin.ts) keeps only candidates the stored outputs name, and is verified by a run;
 * anything else (fewer trees, a smaller grid chosen blind) is the LLM's to propose.
 */
import type { Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import type { SyntaxNode } from '../python/parser.js';
import { disposeCells, parseNotebookCells } from './engine.js';
import { addArgument, calleeName, callArgs, kwValue, replaceNode } from './tree.js';
import type { TextEdit } from './types.js';
import { addCellEdit, cellReplacements } from './cell-edits.js';

/** Callables whose results do not depend on n_jobs (scikit-learn's documented determinism). */
export const PARALLEL_SAFE = new Set([
  'GridSearchCV', 'RandomizedSearchCV', 'cross_val_score', 'cross_validate', 'cross_val_predict', 'learning_curve',
  'validation_curve', 'permutation_test_score', 'RFECV', 'permutation_importance',
  'RandomForestClassifier', 'RandomForestRegressor', 'ExtraTreesClassifier', 'ExtraTreesRegressor',
  'BaggingClassifier', 'BaggingRegressor', 'IsolationForest', 'KNeighborsClassifier', 'KNeighborsRegressor',
  'OneVsRestClassifier', 'OneVsOneClassifier', 'VotingClassifier', 'VotingRegressor',
]);

/** One patch for the slow cell (and the cells that build the estimators it runs), or none. */
export async function parallelizePatch(nb: Notebook, slowCell: number): Promise<Patch | undefined> {
  const cells = await parseNotebookCells(nb);
  try {
    const slow = cells.find((c) => c.index === slowCell);
    if (!slow) return undefined;
    // The slow cell, and earlier cells that define names it uses (an estimator built above and fitted here).
    const used = new Set(slow.tree.rootNode.descendantsOfType('identifier').map((n) => n?.text).filter((t): t is string => !!t));
    const edits = new Map<number, TextEdit[]>();
    for (const c of cells) {
      if (c.index > slowCell) continue;
      for (const call of c.tree.rootNode.descendantsOfType('call')) {
        if (!call || !isSafeCall(call)) continue;
        if (c.index !== slowCell && !assignedToUsedName(call, used)) continue;
        const args = callArgs(call);
        if (!args || args.splat) continue;
        const nj = args.keywords.get('n_jobs');
        const e = nj ? (kwValue(nj)?.text === '1' ? replaceNode(kwValue(nj)!, '-1') : undefined) : addArgument(args, 'n_jobs=-1');
        if (e) addCellEdit(edits, c.index, e);
      }
    }
    if (!edits.size) return undefined;
    const cellsChanged = [...edits.keys()].sort((a, b) => a - b);
    return {
      fixType: 'runtime-reduction',
      source: { kind: 'rule', ruleIds: ['sklearn-parallel-n-jobs'] },
      edits: cellReplacements(nb, edits),
      summary: `n_jobs=-1 for scikit-learn searches, cross-validation and ensembles in cells ${cellsChanged.join(', ')} (same results, all cores)`,
    };
  } finally {
    disposeCells(cells);
  }
}

function isSafeCall(call: SyntaxNode): boolean {
  const name = calleeName(call);
  return !!name && PARALLEL_SAFE.has(name);
}

/** `name = Estimator(...)` (possibly inside a list or dict of estimators) where the slow cell uses `name`. */
function assignedToUsedName(call: SyntaxNode, used: ReadonlySet<string>): boolean {
  for (let n: SyntaxNode | null = call.parent; n; n = n.parent) {
    if (n.type === 'assignment') {
      const left = n.childForFieldName('left');
      return !!left && [left, ...left.descendantsOfType('identifier')].some((x) => x?.type === 'identifier' && used.has(x.text));
    }
    if (n.type === 'expression_statement' || n.type === 'module') return false;
  }
  return false;
}
