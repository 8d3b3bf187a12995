/**
 * scikit-learn 0.22 changed two things that every cross-validated score of the era went through:
 * StratifiedKFold's fold assignment and a search's fold weighting (iid). Both repairs work the same
 * way: put the pre-0.22 behaviour back on the class with one shim after the notebook's first
 * scikit-learn import, reported as a score calibration that names why the notebook ran the old
 * behaviour. They differ only in the shim, the fixture and that why, so this builds both rules.
 */
import type { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { rule } from './helpers.js';
import { importOf, shimAfterImport, type ShimSpec } from './import-shim.js';

export interface Pre022ShimRule {
  id: string;
  title: string;
  old: string;
  new: string;
  /** The name the shim binds (see ShimSpec.mark). */
  mark: string;
  /** The shim's statements. */
  shim: string;
  message: string;
  fixture: {
    /** The notebook source before the repair. */
    text: string;
    /** The end of its scikit-learn import line (through the newline): the shim goes right after it. */
    afterImport: string;
    expect: string;
    /** The scikit-learn version the notebook ran. */
    era: string;
  };
  /** Why the notebook ran the pre-0.22 behaviour (for the message), or undefined where it did not. */
  why: (ctx: CellContext) => string | undefined;
}

export function sklearnPre022ShimRule(spec: Pre022ShimRule): Rule {
  const shim: ShimSpec = { mark: spec.mark, text: spec.shim, qualifies: importOf('sklearn') };
  const { text, afterImport, expect, era } = spec.fixture;
  return rule({
    id: spec.id,
    triggers: ['sklearn'],
    library: 'scikit-learn',
    title: spec.title,
    old: spec.old,
    new: spec.new,
    kind: 'score-calibration',
    shim: true,
    changedIn: '0.22',
    link: 'https://scikit-learn.org/stable/whats_new/v0.22.html#sklearn-model-selection',
    message: spec.message,
    fixtures: [{
      before: text,
      after: text.replace(afterImport, `${afterImport}${spec.shim}\n`),
      expect,
      beforeOutcome: 'differs',
      context: { era: { versions: { 'scikit-learn': era } } },
    }],
    *find(ctx): Generator<RuleMatch> {
      const why = spec.why(ctx);
      if (!why) return;
      const m = shimAfterImport(ctx, shim);
      if (m) yield { ...m, message: `${spec.message} (${why})` };
    },
  });
}
