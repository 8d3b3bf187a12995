/**
 * Pins applied before the first run because the evidence, not only the era, says they matter:
 * score-calibration rules whose matcher also checks facts about the mounted data (DataFacts), or
 * the author's shell settings the stored outputs show (EraHint.shell). Other pins wait for a drift
 * the stored outputs show (pinDefaults).
 */
import type { Notebook } from '../../core/notebook.js';
import { toLines } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { applyChanges, fixCells, type EngineOptions } from './engine.js';
import { ALL_RULES } from './registry.js';
import { pandasReadCsvNoneNa } from './pandas-na-defaults.js';
import { ipythonDisplayAll } from './ipython-display-all.js';

/** Rules whose matcher requires evidence about the data (so applying them before a run is safe). */
export const EVIDENCE_GATED_PINS: readonly string[] = [pandasReadCsvNoneNa.id, ipythonDisplayAll.id];

export async function pinEvidentDefaults(nb: Notebook, opts: EngineOptions): Promise<{ notebook: Notebook; patches: Patch[] }> {
  if (!opts.dataFacts && !opts.era?.shell?.displayAll) return { notebook: nb, patches: [] };
  const res = await fixCells(nb, opts.rules ?? ALL_RULES, { ...opts, kinds: ['score-calibration'], ruleIds: EVIDENCE_GATED_PINS });
  return {
    notebook: applyChanges(nb, res.changes, toLines),
    patches: res.changes.map((ch) => ({
      fixType: 'score-calibration',
      source: { kind: 'rule', ruleIds: ch.rules },
      edits: [{ cell: ch.cell, op: 'replace', newSource: ch.after }],
      summary: `cell ${ch.cell}: ${ch.rules.join(', ')} (evidence of the author's data or shell)`,
    })),
  };
}
