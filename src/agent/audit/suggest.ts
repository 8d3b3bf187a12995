/**
 * `check --suggest`: the static rule scan, as "what would need changing" — nothing is changed.
 * The rule engine is imported on demand: checks that do not ask for suggestions never load it.
 */
import { errorMessage } from '../../core/errors.js';
import type { Notebook } from '../../core/notebook.js';

export interface Suggestion { cell: number; line: number; rule: string; code?: string; message: string; autoFixable: boolean; link?: string }

export async function suggestChanges(nb: Notebook): Promise<{ suggestions: Suggestion[]; unavailable?: string }> {
  let scan: (nb: Notebook) => Promise<Array<{ cell: number; line: number; ruleId: string; code?: string; message: string; autoFixable: boolean; link?: string }>>;
  try {
    const spec = '../../fixers/rules/index.js';
    scan = ((await import(spec)) as { scanNotebook: typeof scan }).scanNotebook;
    if (typeof scan !== 'function') throw new Error('scanNotebook is missing');
  } catch (err) {
    return { suggestions: [], unavailable: `the rule engine is not available in this build (${errorMessage(err).split('\n')[0]})` };
  }
  const findings = await scan(nb);
  return {
    suggestions: findings
      .map((f) => ({ cell: f.cell, line: f.line, rule: f.ruleId, ...(f.code ? { code: f.code } : {}), message: f.message, autoFixable: f.autoFixable, ...(f.link ? { link: f.link } : {}) }))
      .sort((a, b) => a.cell - b.cell || a.line - b.line),
  };
}
