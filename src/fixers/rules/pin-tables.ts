/**
 * What the changed-default tables (`tables/scikit-learn-pins.json`, `tables/xgboost-pins.json`) share:
 * the file's frame (`{ $comment?, pins: [...] }`), a fixture as an entry writes it, and the loading:
 * each file is read and checked once when the rules load, so a misspelt field fails at start-up naming
 * the file. Each library's module (sklearn-pins.ts, xgboost-pins.ts) brings its entry schema and turns
 * the entries into score-calibration rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../../core/paths.js';
import { tablesDir } from './tables/index.js';
import type { Fixture, Library } from './types.js';

/** A fixture as an entry writes it: `before` prints something other than `expect` in the old era, `after` prints it. */
export const pinFixture = z.object({ before: z.string(), after: z.string(), expect: z.string() }).strict();

export type PinFixture = z.infer<typeof pinFixture>;

/** `tables/<name>`, the file a pin module reads by default. */
export function pinTableFile(name: string): string {
  return path.join(tablesDir(), name);
}

/** A pin table file, read and checked against `entry` (throws naming the file and the fields). */
export function loadPins<E extends z.ZodType>(file: string, entry: E): z.output<E>[] {
  const table = z.object({ $comment: z.string().optional(), pins: z.array(entry) }).strict();
  const parsed = table.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${path.relative(packageRoot(), file)}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data.pins;
}

/** Pinned keywords as call arguments: `k=v, ...` in the order given. */
export function pinArguments(pins: ReadonlyArray<readonly [string, string]>): string {
  return pins.map(([k, v]) => `${k}=${v}`).join(', ');
}

/** An entry's fixtures as the rule's: each runs in the era before the change, where the unpinned code printed something else. */
export function pinFixtures(fixtures: readonly PinFixture[], library: Library, version: string): Fixture[] {
  const context = { era: { versions: { [library]: version } } };
  return fixtures.map((f) => ({ before: f.before, after: f.after, expect: f.expect, beforeOutcome: 'differs' as const, context }));
}
