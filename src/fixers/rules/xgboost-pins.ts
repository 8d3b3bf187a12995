/**
 * xgboost's changed defaults as data: each entry of `tables/xgboost-pins.json` is one change from the
 * release notes (the sklearn wrapper's max_depth=3/learning_rate=0.1 until 1.0, tree_method 'exact' and
 * base_score=0.5 until 2.0) that this module turns into a score-calibration rule pinning the old value
 * where the notebook's era predates the change. The table's frame, its fixtures and its loading are
 * shared with scikit-learn's (pin-tables.ts).
 */
import { z } from 'zod';
import { rule } from './helpers.js';
import { loadPins, pinArguments, pinFixture, pinFixtures, pinTableFile } from './pin-tables.js';
import { addArgument, type Args } from './tree.js';
import type { Rule } from './types.js';
import { NEWS, XGB_SKLEARN, xgbConstructors } from './xgboost.js';

const pinEntry = z.object({
  id: z.string().regex(/^xgboost-pin-[a-z0-9-]+$/),
  title: z.string(),
  changedIn: z.string(),
  /** Keyword -> the old value, as Python source, in the order they are added. */
  pins: z.record(z.string(), z.string()),
  /** Keyword -> its other names (`eta` for learning_rate): a call passing one of them keeps its value. */
  aliases: z.record(z.string(), z.array(z.string())).optional(),
  message: z.string(),
  /** `era`: the xgboost version the fixture's notebook was written with. */
  fixture: pinFixture.extend({ era: z.string() }).strict(),
}).strict();

export type XgbPinEntry = z.infer<typeof pinEntry>;

/** One entry as a rule: pins the old values where the era predates the change. */
export function xgbPinRule(spec: XgbPinEntry): Rule {
  const pins = Object.entries(spec.pins);
  const passed = (args: Args, k: string) => args.keywords.has(k) || (spec.aliases?.[k] ?? []).some((a) => args.keywords.has(a));
  return rule({
    id: spec.id,
    triggers: XGB_SKLEARN,
    library: 'xgboost',
    title: spec.title,
    old: 'XGBClassifier()',
    new: `XGBClassifier(${pinArguments(pins)})`,
    kind: 'score-calibration',
    changedIn: spec.changedIn,
    link: NEWS,
    message: spec.message,
    fixtures: pinFixtures([spec.fixture], 'xgboost', spec.fixture.era),
    *find(ctx) {
      if (!ctx.nb.info.era.predates('xgboost', spec.changedIn)) return;
      for (const { call, args, name } of xgbConstructors(ctx)) {
        // Keywords only (a ** splat may hold the pinned ones); the random-forest wrappers (XGBRF*) have defaults of their own.
        if (args.splat || args.positional.length > 0 || name.startsWith('XGBRF')) continue;
        const missing = pins.filter(([k]) => !passed(args, k));
        if (!missing.length) continue;
        yield { node: call, edits: [addArgument(args, pinArguments(missing))], message: `${spec.message} (${ctx.nb.info.era.why('xgboost', spec.changedIn)})` };
      }
    },
  });
}

/** The table file, read and checked once when the rules load (a misspelt field fails at start-up, naming the file). */
export function loadXgbPinTable(file = pinTableFile('xgboost-pins.json')): XgbPinEntry[] {
  return loadPins(file, pinEntry);
}

/** Registered right after xgboost.ts's rules (registry.ts): the order rules apply in can matter. */
export const xgboostPinRules: readonly Rule[] = loadXgbPinTable().map(xgbPinRule);
