/**
 * What a user can learn about a rule without reading its source: its code, what it changes, why the
 * old form broke and since which version, an example, the changelog. One shape for
 * `nbmodernize rules` (text and --json) and the generated per-rule docs, so they cannot disagree.
 */
import type { FixType } from '../../core/patch.js';
import { codeOf } from './selection.js';
import type { Library, Rule } from './types.js';

export interface RuleInfo {
  /** Stable code (`PD001`); absent only for a rule not yet given one in codes.ts. */
  code?: string;
  id: string;
  library: Library;
  title: string;
  kind: FixType;
  /** Version that removed the old form (error repairs). */
  removedIn?: string;
  /** Version whose default change the rule pins (score calibrations). */
  changedIn?: string;
  /** Version of a later release whose fix the rule brings forward (see Rule.fixedIn). */
  fixedIn?: string;
  deprecatedIn?: string;
  autoFixable: boolean;
  /** 'error': proposed only for a matching runtime error (the old form is data-dependent). */
  trigger: 'static' | 'error';
  old: string;
  new: string;
  /** Why it broke and what to do (the finding's message). */
  message: string;
  /** Exceptions the old form raises in the fixed environment. */
  errors: string[];
  link: string;
  /** The first fixture: code that breaks, and what the rule makes of it (or a hand-written fix). */
  example?: { before: string; after?: string; manual?: string };
}

export function ruleInfo(rule: Rule): RuleInfo {
  const code = codeOf(rule);
  const f = rule.fixtures[0];
  return {
    ...(code ? { code } : {}),
    id: rule.id,
    library: rule.library,
    title: rule.title,
    kind: rule.kind,
    ...(rule.removedIn ? { removedIn: rule.removedIn } : {}),
    ...(rule.changedIn ? { changedIn: rule.changedIn } : {}),
    ...(rule.fixedIn ? { fixedIn: rule.fixedIn } : {}),
    ...(rule.deprecatedIn ? { deprecatedIn: rule.deprecatedIn } : {}),
    autoFixable: rule.autoFixable,
    trigger: rule.trigger ?? 'static',
    old: rule.old,
    new: rule.new,
    message: rule.message,
    errors: [...new Set(rule.errors.map((e) => e.ename))],
    link: rule.link,
    ...(f ? { example: { before: f.before, ...(f.after !== undefined ? { after: f.after } : {}), ...(f.manual !== undefined ? { manual: f.manual } : {}) } } : {}),
  };
}

/** How the library is written in prose. */
export const LIBRARY_NAMES: Readonly<Record<Library, string>> = {
  python: 'Python', numpy: 'NumPy', pandas: 'pandas', 'scikit-learn': 'scikit-learn', matplotlib: 'matplotlib',
  seaborn: 'seaborn', xgboost: 'xgboost', scipy: 'SciPy', statsmodels: 'statsmodels', environment: 'the environment', data: 'data',
};

/** "removed in pandas 2.0" / "default changed in scikit-learn 0.22" / "" (no version involved). */
export function versionNote(info: Pick<RuleInfo, 'library' | 'removedIn' | 'changedIn' | 'fixedIn' | 'deprecatedIn' | 'kind'>): string {
  const lib = LIBRARY_NAMES[info.library] ?? info.library;
  const parts: string[] = [];
  if (info.kind === 'score-calibration' && info.changedIn) parts.push(`default changed in ${lib} ${info.changedIn}`);
  else if (info.kind === 'score-calibration' && info.fixedIn) parts.push(`fixed in ${lib} ${info.fixedIn}, brought forward`);
  else if (info.removedIn) parts.push(`removed in ${lib} ${info.removedIn}`);
  if (info.deprecatedIn) parts.push(`deprecated in ${info.deprecatedIn}`);
  return parts.join(', ');
}

/** Plain-language kind: what the rule does with a match. */
export function kindNote(info: Pick<RuleInfo, 'kind' | 'trigger' | 'autoFixable'>): string {
  const what = info.kind === 'score-calibration' ? 'pins an old default (score calibration; --pin-defaults)'
    : info.kind === 'runtime-reduction' ? 'reduces run time'
    : info.trigger === 'error' ? 'repairs an error, proposed only when a cell raises it'
    : 'repairs an error';
  return `${what}; ${info.autoFixable ? 'auto-fixable' : 'reported only (the message says what to do)'}`;
}
