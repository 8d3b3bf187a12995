/**
 * scikit-learn's changed defaults as data: each entry of `tables/scikit-learn-pins.json` is one change
 * record (the forests' 10 trees until 0.22, KMeans's n_init=10 until 1.4, ...) that this module turns
 * into a score-calibration rule pinning the old value where the notebook's era predates the change.
 * Adding a pin is adding an entry with its fixture; which calls a pin leaves alone is data too
 * (`skip`), so no entry needs code of its own.
 */
import { z } from 'zod';
import type { SyntaxNode } from '../python/parser.js';
import { rule } from './helpers.js';
import { loadPins, pinArguments, pinFixture, pinFixtures, pinTableFile } from './pin-tables.js';
import { sklearnCalls } from './sklearn.js';
import { addArgument, kwValue, replaceNode, stringValue, type Args } from './tree.js';
import type { Rule, TextEdit } from './types.js';

const pinEntry = z.object({
  id: z.string().regex(/^sklearn-pin-[a-z0-9-]+$/),
  title: z.string(),
  /** The classes and functions whose default changed. */
  classes: z.array(z.string()).min(1),
  changedIn: z.string(),
  /** Keyword -> the old value, as Python source, in the order they are added. */
  pins: z.record(z.string(), z.string()),
  link: z.object({ whatsNew: z.string(), anchor: z.string() }).strict(),
  message: z.string(),
  /** Calls left alone: see the table's $comment. */
  skip: z.object({
    maxPositional: z.union([z.number().int().min(0), z.record(z.string(), z.number().int().min(0))]).optional(),
    unless: z.array(z.object({ keyword: z.string(), position: z.number().int().min(0).optional(), values: z.array(z.string()) }).strict()).optional(),
    unlessPresent: z.array(z.string()).optional(),
    requires: z.record(z.string(), z.string()).optional(),
  }).strict().optional(),
  /** Why the skip is what it is, for the reader of the table. */
  skipWhy: z.string().optional(),
  /**
   * The pinned keywords whose `None` meant the old default (cv=None was 3 folds): a literal `None`
   * passed, or a parameter of the enclosing function whose own default is None and is passed on
   * (`def plot_learning_curve(..., cv=None)` calling `learning_curve(..., cv=cv)`, copied from
   * scikit-learn's own example into many notebooks), gets the old value when it is None.
   */
  noneMeansDefault: z.boolean().optional(),
  fixture: pinFixture.extend({ era: z.string().optional() }).strict(),
  extraFixtures: z.array(pinFixture).optional(),
}).strict();

export type PinEntry = z.infer<typeof pinEntry>;

/** Does the entry's `skip` leave this call of `name` alone? */
export function skipsCall(skip: PinEntry['skip'], args: Args, name: string): boolean {
  if (!skip) return false;
  const max = typeof skip.maxPositional === 'number' ? skip.maxPositional : skip.maxPositional?.[name];
  if (max !== undefined && args.positional.length > max) return true;
  if (skip.unlessPresent?.some((k) => args.keywords.has(k))) return true;
  const needed = skip.requires?.[name];
  if (needed && !args.keywords.has(needed)) return true;
  return !!skip.unless?.some((u) => {
    const node = kwValue(args.keywords.get(u.keyword)) ?? (u.position !== undefined ? args.positional[u.position] : undefined);
    return u.values.includes(stringValue(node) ?? '');
  });
}

/** Is `name` a parameter of the function `node` is in, with `None` as its default? */
function parameterDefaultsToNone(node: SyntaxNode, name: string): boolean {
  let fn: SyntaxNode | null = node.parent;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  const params = fn?.childForFieldName('parameters');
  if (!params) return false;
  for (const p of params.namedChildren) {
    if (!p || (p.type !== 'default_parameter' && p.type !== 'typed_default_parameter')) continue;
    if (p.childForFieldName('name')?.text === name) return p.childForFieldName('value')?.type === 'none';
  }
  return false;
}

/** One entry as a rule: pins the old values where the era predates the change. */
export function pinRule(spec: PinEntry): Rule {
  const pins = Object.entries(spec.pins);
  return rule({
    id: spec.id,
    triggers: spec.classes,
    library: 'scikit-learn',
    title: spec.title,
    old: `${spec.classes[0]}()`,
    new: `${spec.classes[0]}(${pinArguments(pins)})`,
    kind: 'score-calibration',
    changedIn: spec.changedIn,
    link: `https://scikit-learn.org/stable/whats_new/v${spec.link.whatsNew}.html${spec.link.anchor}`,
    message: spec.message,
    fixtures: pinFixtures([spec.fixture, ...(spec.extraFixtures ?? [])], 'scikit-learn', spec.fixture.era ?? '0.19.2'),
    *find(ctx) {
      if (!ctx.nb.info.era.predates('scikit-learn', spec.changedIn)) return;
      for (const { call, name, args } of sklearnCalls(ctx, spec.classes)) {
        if (args.splat || skipsCall(spec.skip, args, name)) continue;
        const missing = pins.filter(([k]) => !args.keywords.has(k));
        const edits: TextEdit[] = missing.length ? [addArgument(args, pinArguments(missing))] : [];
        if (spec.noneMeansDefault) {
          for (const [k, v] of pins) {
            const value = kwValue(args.keywords.get(k));
            if (value?.type === 'none') edits.push(replaceNode(value, v));
            else if (value?.type === 'identifier' && parameterDefaultsToNone(call, value.text)) edits.push(replaceNode(value, `(${v} if ${value.text} is None else ${value.text})`));
          }
        }
        if (edits.length === 0) continue;
        yield { node: call, edits, message: `${spec.message} (${ctx.nb.info.era.why('scikit-learn', spec.changedIn)})` };
      }
    },
  });
}

/** The table file, read and checked once when the rules load (a misspelt field fails at start-up, naming the file). */
export function loadPinTable(file = pinTableFile('scikit-learn-pins.json')): PinEntry[] {
  return loadPins(file, pinEntry);
}

export const sklearnPinRules: readonly Rule[] = loadPinTable().map(pinRule);
