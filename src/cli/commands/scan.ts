/** `nbmodernize scan NOTEBOOK...`: static findings of known breakage, like a linter (no execution). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { commandFlags, printJson } from '../command-io.js';
import { RULE_FLAGS, RULE_FLAGS_HELP, ruleSelectionFrom } from '../rule-flags.js';
import { scanNotebookReport, loadEnvironmentInfo, environmentVersions, type RuleFinding, type RuleOptions } from '../../fixers/rules/index.js';
import { listDataFiles } from '../../fixers/rules/data-files.js';
import { scanFiles } from '../../fixers/rules/scan-files.js';

export const summary = 'static findings of known API breakage (no execution)';

const HELP = `Usage: nbmodernize scan NOTEBOOK|DIR... [options]

Reports known breakage (Python 2 syntax, removed library APIs, changed defaults, data paths,
libraries missing from the environment) without running anything. Directories are searched
for *.ipynb. Each finding: notebook, cell, line, rule code and id, message, whether it is
auto-fixable. Findings that a cell's "# nbmodernize: ignore[CODES]" comment silences are not
counted (--json lists them as "suppressed").

Options:
  --json              machine-readable output on stdout
  -j, --jobs N        threads that scan notebooks in parallel (default: one per core; fewer
                      than 200 notebooks are scanned in one thread, as a thread's start costs
                      what scanning about 50 notebooks does)
  --data DIR          competition data dir: reads of its files from other paths are reported
  --competition SLUG  slug of the data mount (default: the data dir's name)
  --pin-defaults      also report silent default changes (score calibration) when the era is known
  --era DATE          when the notebooks were written (YYYY-MM-DD), for --pin-defaults
  --env NAME          environment definition (default debian13)
${RULE_FLAGS_HELP}

Exit codes: 0 no findings, 1 findings, 2 usage, 3 a notebook could not be read (and nothing found).`;

export function expandNotebookArgs(args: string[], cwd: string): string[] {
  const out: string[] = [];
  for (const a of args) {
    const p = path.resolve(cwd, a);
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(p);
    } catch {
      out.push(a);
      continue;
    }
    if (!st.isDirectory()) { out.push(a); continue; }
    const found: string[] = [];
    const visit = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((x, y) => x.name.localeCompare(y.name))) {
        if (e.name.startsWith('.')) continue;
        const full = path.join(d, e.name);
        if (e.isDirectory()) visit(full);
        else if (e.name.endsWith('.ipynb')) found.push(path.relative(cwd, full) || full);
      }
    };
    visit(p);
    out.push(...found);
  }
  return out;
}

/** The flags ruleOptionsFrom reads, taken alike by scan and fix (they run the same rules on the same options). */
export const RULE_OPTION_FLAGS = {
  data: { type: 'string' },
  competition: { type: 'string' },
  'pin-defaults': { type: 'boolean', default: false },
  era: { type: 'string' },
  env: { type: 'string', default: 'debian13' },
  ...RULE_FLAGS,
} as const;

export async function ruleOptionsFrom(values: Record<string, any>, ctx: CliContext): Promise<RuleOptions> {
  const env = (values.env as string) ?? 'debian13';
  const opts: RuleOptions = {
    environment: await loadEnvironmentInfo(env),
    versions: await environmentVersions(env, ctx.env.NBMODERNIZE_CACHE_DIR),
  };
  if (values.data) {
    const dir = path.resolve(ctx.cwd, values.data);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--data ${values.data} is not a directory`);
    opts.dataFiles = listDataFiles(dir);
    opts.competition = values.competition ?? path.basename(dir);
  }
  if (values.era) {
    if (!/^\d{4}-\d{2}-\d{2}/.test(values.era)) throw new UsageError(`--era must be a date YYYY-MM-DD (got "${values.era}")`);
    opts.era = { date: values.era };
  }
  if (values['pin-defaults']) opts.kinds = ['error-repair', 'score-calibration'];
  return { ...opts, ...ruleSelectionFrom(values) };
}

function jobsFrom(raw: string | undefined): number {
  if (raw === undefined) return os.availableParallelism?.() ?? os.cpus().length;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--jobs must be a whole number >= 1 (got "${raw}")`);
  return n;
}

export function formatFinding(file: string, f: RuleFinding): string {
  return `${file}: cell ${f.cell}, line ${f.line}:${f.column}: ${f.code ? `${f.code} ` : ''}${f.ruleId}: ${f.message}${f.autoFixable ? ' [auto-fixable]' : ''}`;
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals, helpShown } = commandFlags(args, {
    json: { type: 'boolean', default: false },
    jobs: { type: 'string', short: 'j' },
    ...RULE_OPTION_FLAGS,
  }, 'scan', HELP, ctx);
  if (helpShown) return ExitCode.ok;
  if (positionals.length === 0) throw new UsageError('scan: give at least one notebook (or directory)', 'see: nbmodernize scan --help');
  const opts = await ruleOptionsFrom(values, ctx);
  const files = expandNotebookArgs(positionals, ctx.cwd);
  const results: Array<{ notebook: string; findings?: RuleFinding[]; suppressed?: RuleFinding[]; error?: string; ms?: number }> = [];
  let total = 0;
  let silenced = 0;
  let fixable = 0;
  let unreadable = 0;
  const jobs = jobsFrom(values.jobs);
  for await (const r of scanFiles(files.map((file) => ({ file })), opts, { jobs, cwd: ctx.cwd })) {
    const file = r.file;
    if (r.error !== undefined || !r.findings) {
      unreadable += 1;
      const msg = r.error ?? 'not scanned';
      results.push({ notebook: file, error: msg });
      const line = msg.replace(/\s*\n\s*/g, ' ');
      ctx.stderr(`nbmodernize: ${line.includes(file) ? line : `${file}: ${line}`}\n`);
      continue;
    }
    const { findings, suppressed = [] } = r;
    total += findings.length;
    silenced += suppressed.length;
    fixable += findings.filter((f) => f.autoFixable).length;
    results.push({ notebook: file, findings, suppressed, ms: r.ms });
    if (!values.json) for (const f of findings) ctx.stdout(formatFinding(file, f) + '\n');
  }
  const withFindings = results.filter((r) => r.findings?.length).length;
  if (values.json) {
    printJson(ctx, {
      notebooks: results.map((r) => (r.error ? { notebook: r.notebook, error: r.error } : { notebook: r.notebook, findings: r.findings, suppressed: r.suppressed })),
      summary: { notebooks: files.length, withFindings, findings: total, autoFixable: fixable, suppressed: silenced, unreadable },
    });
  } else {
    ctx.stdout(`${total} finding(s), ${fixable} auto-fixable, in ${withFindings} of ${files.length} notebook(s)${silenced ? `; ${silenced} suppressed by nbmodernize: ignore comments` : ''}${unreadable ? `; ${unreadable} could not be read` : ''}\n`);
  }
  if (total > 0) return ExitCode.notebookError;
  return unreadable > 0 ? ExitCode.malformedNotebook : ExitCode.ok;
}
