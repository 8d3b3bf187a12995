/** `nbmodernize report DIR`: (re)build summary.json, report.md and report.html from an audit directory. */
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import { hasStore } from '../../agent/audit/store.js';
import { pct, formatDuration } from '../../agent/report/markdown.js';
import { writeReport } from '../../agent/report/write.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';

export const summary = 'write summary.json, report.md and report.html for an audit directory';

const HELP = `Usage: nbmodernize report DIR [--json]

Builds the audit summary and reports from DIR/results.jsonl (written by \`nbmodernize audit\`;
also done at the end of every audit). Works on an unfinished audit too.

  --json   print summary.json on stdout`;

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    json: { type: 'boolean', default: false },
  }, 'report', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals.length !== 1) throw new UsageError('report takes exactly one DIR (an audit --out-dir)', 'see: nbmodernize report --help');
  const dir = path.resolve(ctx.cwd, positionals[0]!);
  if (!hasStore(dir)) throw new UsageError(`${positionals[0]} holds no audit results (results.jsonl)`, 'run: nbmodernize audit INPUT --out-dir DIR');
  const { summary: s, files } = writeReport(dir);
  const t = s.totals;
  ctx.stderr(`${t.notebooks}${s.audit.planned !== null ? ` of ${s.audit.planned}` : ''} notebooks: reproducible ${s.before.reproduced} (${pct(s.before.reproduced, s.before.notebooks)}) as-is${s.audit.mode === 'fix' ? ` → ${t.reproduced} (${pct(t.reproduced, t.notebooks)}) after --fix` : ''}; not reproduced ${t['not-reproduced']}; failed ${t.failed}; cost $${s.cost.usd.toFixed(2)}; ${formatDuration(s.audit.elapsedMs)}\n`);
  ctx.stderr(`report: ${files.html}\nsummary: ${files.summary} (${files.markdown})\n`);
  if (values.json) printJson(ctx, s);
  return ExitCode.ok;
}
