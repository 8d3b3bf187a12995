/** `nbmodernize fix NOTEBOOK --rules-only`: apply every safe deterministic rule, write a new notebook. */
import path from 'node:path';
import { cellDiff } from '../../core/cell-diff.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { notebookKernel, readNotebookFile, serializeNotebook, writeFileAtomic } from '../../core/notebook.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';
import { RULE_FLAGS_HELP } from '../rule-flags.js';
import { fixNotebook } from '../../fixers/rules/index.js';
import { formatFinding, RULE_OPTION_FLAGS, ruleOptionsFrom } from './scan.js';

export const summary = 'apply the deterministic rules (--rules-only) and write a new notebook';

const HELP = `Usage: nbmodernize fix NOTEBOOK --rules-only [options]

Applies every safe rule (Python 2 syntax, removed APIs, data paths...) until nothing changes and
writes a new notebook: changed cells get their outputs cleared and are marked in their metadata
(nbmodernize: {changed, fixType, rules}). The input is never overwritten unless -o names it.
Findings that cannot be rewritten safely are listed with an explanation. A cell's
"# nbmodernize: ignore[CODES]" comment (bare: every rule) keeps those rules out of that cell.

Options:
  --rules-only        required: rules only, no LLM (the LLM loop is \`nbmodernize modernize\`)
  -o, --output FILE   where to write (default: <name>.modernized.ipynb beside the input)
  --diff              print a unified diff per changed cell
  --data DIR          competition data dir: reads of its files are pointed at ../input/
  --competition SLUG  slug of the data mount (default: the data dir's name)
  --pin-defaults      also pin old defaults (score calibration) when the notebook's era is known
  --era DATE          when the notebook was written (YYYY-MM-DD), for --pin-defaults
  --env NAME          environment definition (default debian13)
  --json              machine-readable summary on stdout
${RULE_FLAGS_HELP}

Exit codes: 0 written, 2 usage, 3 malformed notebook, 4 non-Python kernel.`;

export function defaultOutput(input: string): string {
  const dir = path.dirname(input);
  const base = path.basename(input).replace(/\.ipynb$/i, '');
  return path.join(dir, `${base}.modernized.ipynb`);
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    'rules-only': { type: 'boolean', default: false },
    output: { type: 'string', short: 'o' },
    diff: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    ...RULE_OPTION_FLAGS,
  }, 'fix', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals.length !== 1) throw new UsageError('fix: give exactly one notebook', 'see: nbmodernize fix --help');
  if (!values['rules-only']) throw new UsageError('fix: only --rules-only is implemented here', 'for rules plus an LLM, run: nbmodernize modernize NOTEBOOK');
  const input = path.resolve(ctx.cwd, positionals[0]);
  const output = values.output ? path.resolve(ctx.cwd, values.output) : defaultOutput(input);
  const opts = await ruleOptionsFrom(values, ctx);
  const { notebook, notes } = readNotebookFile(input);
  notebookKernel(notebook, positionals[0]);
  const res = await fixNotebook(notebook, opts);
  writeFileAtomic(output, serializeNotebook(res.notebook));
  const rel = path.relative(ctx.cwd, output) || output;
  const ruleCount = new Set(res.changes.flatMap((c) => c.rules)).size;
  if (values.json) {
    printJson(ctx, {
      input: positionals[0],
      output: rel,
      notes,
      changes: res.changes.map((c) => ({ cell: c.cell, rules: c.rules, fixType: c.fixType, ...(values.diff ? { diff: cellDiff(c.cell, c.before, c.after) } : {}) })),
      findings: res.findings,
      originalFindings: res.originalFindings,
      suppressed: res.suppressed,
    });
    return ExitCode.ok;
  }
  for (const n of notes) ctx.stderr(`nbmodernize: ${n}\n`);
  if (values.diff) for (const c of res.changes) ctx.stdout(cellDiff(c.cell, c.before, c.after));
  const left = res.findings;
  ctx.stdout(`${rel}: ${res.changes.length} cell(s) changed by ${ruleCount} rule(s); ${left.length} finding(s) left for manual or LLM repair${res.suppressed.length ? `; ${res.suppressed.length} suppressed by nbmodernize: ignore comments` : ''}\n`);
  for (const f of left) ctx.stdout('  ' + formatFinding(positionals[0], f) + '\n');
  return ExitCode.ok;
}
