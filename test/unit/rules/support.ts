/** Helpers for rule tests: one-cell notebooks and running the engine on a fixture. */
import type { Notebook } from '../../../src/core/notebook.js';
import { sourceText, toLines } from '../../../src/core/notebook.js';
import { ALL_RULES, fixNotebook, rulesMatchingError, scanNotebook, type RuleOptions } from '../../../src/fixers/rules/index.js';
import type { Fixture, Rule } from '../../../src/fixers/rules/types.js';

export function notebookOf(cells: string[], opts: { pythonMajor?: 2 | 3 } = {}): Notebook {
  const metadata: Record<string, unknown> = {};
  if (opts.pythonMajor) {
    metadata.kernelspec = { name: `python${opts.pythonMajor}`, display_name: `Python ${opts.pythonMajor}`, language: 'python' };
    metadata.language_info = { name: 'python', version: opts.pythonMajor === 2 ? '2.7.15' : '3.6.8' };
  }
  return {
    nbformat: 4,
    nbformat_minor: 2,
    metadata,
    cells: cells.map((s) => ({ cell_type: 'code' as const, source: toLines(s), metadata: {}, outputs: [], execution_count: null })),
  };
}

export function fixtureOptions(rule: Rule, f: Fixture): RuleOptions {
  const rt = f.context?.runtime;
  // As in a real repair (rulesForError): of the rules recognised from runtime errors, only those whose
  // signature matches the fixture's error run; the static rules run too.
  const matching = rt ? new Set(rulesMatchingError({ ename: rt.ename, evalue: rt.evalue })) : undefined;
  // Another rule's shim (Rule.shim) would grow in every fixture that calls what it acts on.
  const own = (r: Rule) => !r.shim || r === rule;
  return {
    rules: ALL_RULES.filter((r) => own(r) && (!matching || r.trigger !== 'error' || matching.has(r))),
    kinds: rule.kind === 'score-calibration' ? ['error-repair', 'score-calibration'] : ['error-repair'],
    includeErrorTriggered: rule.trigger === 'error',
    era: f.context?.era,
    dataFiles: f.context?.dataFiles,
    pythonMajor: f.context?.pythonMajor,
    ...(f.context?.dataFacts ? { dataFacts: f.context.dataFacts } : {}),
    ...(f.context?.runtime ? { runtime: { failingCell: 0, ename: f.context.runtime.ename, evalue: f.context.runtime.evalue, traceback: f.context.runtime.traceback ?? [], frames: (f.context.runtime.lines ?? []).map((line) => ({ cell: 0, line })), types: {} } } : {}),
  };
}

export async function fixSource(src: string, opts: RuleOptions, pythonMajor?: 2 | 3): Promise<{ out: string; findings: Awaited<ReturnType<typeof scanNotebook>>; remaining: Awaited<ReturnType<typeof scanNotebook>> }> {
  const nb = notebookOf([src], { pythonMajor });
  const res = await fixNotebook(nb, opts);
  return { out: sourceText(res.notebook.cells[0].source), findings: res.originalFindings, remaining: res.findings };
}
