/**
 * --select / --ignore, for the commands that run the rules (scan, fix). The CLI only reads the
 * flags and checks the selectors up front (one usage error rather than a failure per notebook);
 * what they select is decided in the rule engine (src/fixers/rules/selection.ts).
 */
import { UsageError } from '../core/errors.js';
import { parseSelectors, type RuleSelection } from '../fixers/rules/index.js';

export const RULE_FLAGS = {
  select: { type: 'string', multiple: true },
  ignore: { type: 'string', multiple: true },
} as const;

export const RULE_FLAGS_HELP = `  --select CODES      only these rules: codes, prefixes (PD, PD0) or rule ids, comma-separated
                      (repeatable; ALL for every rule); list them with: nbmodernize rules
  --ignore CODES      not these rules; the more specific of --select and --ignore wins
                      (a cell's "# nbmodernize: ignore[PD001]" comment silences rules there)`;

export function ruleSelectionFrom(values: Record<string, any>): RuleSelection {
  const sel: RuleSelection = {};
  for (const flag of ['select', 'ignore'] as const) {
    const lists = values[flag] as string[] | undefined;
    if (!lists?.length) continue;
    try {
      parseSelectors(lists);
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`--${flag}: ${err.message}`, err.hint);
      throw err;
    }
    sel[flag] = lists;
  }
  return sel;
}
