/** The rule table in docs/rules.md, generated from the rule definitions (test/unit/rules/docs.test.ts keeps it current). */
import type { Rule } from './types.js';
import { LIBRARIES } from './types.js';
import { CODE_PREFIX } from './codes.js';
import { codeOf } from './selection.js';

export const LIBRARY_TITLES: Record<string, string> = {
  python: 'Python 2 → 3 and the standard library', numpy: 'NumPy', pandas: 'pandas', 'scikit-learn': 'scikit-learn',
  matplotlib: 'matplotlib', seaborn: 'seaborn', xgboost: 'xgboost', scipy: 'SciPy', statsmodels: 'statsmodels',
  environment: 'Libraries missing from the environment', data: 'Data paths',
};

/** docs/rules/<library>.md, relative to docs/ (one page per library, a section per rule). */
export function rulePagePath(library: string): string {
  return `rules/${library}.md`;
}

/** The anchor of a rule's section on its page (an explicit id: headings carry more than the code). */
export function ruleAnchor(code: string): string {
  return code.toLowerCase();
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function code(s: string): string {
  const t = cell(s);
  return t.includes('`') ? `<code>${t.replace(/</g, '&lt;')}</code>` : `\`${t}\``;
}

export function renderRulesMarkdown(rules: readonly Rule[]): string {
  const lines: string[] = [];
  const by = new Map<string, Rule[]>();
  for (const r of rules) by.set(r.library, [...(by.get(r.library) ?? []), r]);
  const pins = rules.filter((r) => r.kind === 'score-calibration').length;
  const reportOnly = rules.filter((r) => !r.autoFixable).length;
  const onError = rules.filter((r) => r.trigger === 'error').length;
  lines.push('# Deterministic rules');
  lines.push('');
  lines.push('<!-- Generated from src/fixers/rules/*.ts by test/unit/rules/docs.test.ts (NBM_UPDATE_DOCS=1 to rewrite). Do not edit by hand. -->');
  lines.push('');
  lines.push(`${rules.length} rules: ${[...by].map(([lib, rs]) => `${lib} ${rs.length}`).join(', ')}. ` +
    `${pins} are score calibrations (pin an old default: applied with \`--pin-defaults\` / \`pinDefaults()\` when the notebook's era predates the change; in \`modernize\`, when the era is unknown, tried against a drift and kept only if the stored outputs then agree), ` +
    `${reportOnly} report without rewriting (the finding explains what to do), ${onError} are recognised only from a runtime error (\`rulesForError\`).`);
  lines.push('');
  lines.push('Each rule is a structural matcher over the tree-sitter parse tree of a cell (IPython syntax masked first), aware of the ' +
    'notebook\'s imports and aliases across cells. Rewrites are byte-range edits from the tree, applied bottom-up until nothing changes; ' +
    'an error-repair rule applies only when the environment\'s library has reached the version in the table. Every rule has before/after ' +
    'fixtures: the unit tests check the rewrite, idempotence, formatting and that strings/comments are left alone; ' +
    '`test/sandbox/rules-fixtures.test.ts` runs every "before" in the fixed kernel (it must fail, or print another value) and every "after" (it must print the expected value).');
  lines.push('');
  lines.push('## Using them');
  lines.push('');
  lines.push('- `nbmodernize scan NOTEBOOK|DIR... [--json] [--data DIR] [--pin-defaults --era YYYY-MM-DD]`: findings (notebook, cell, line, rule, message, auto-fixable); exit 1 when there are findings.');
  lines.push('- `nbmodernize fix NOTEBOOK --rules-only [-o OUT] [--diff] [--data DIR] [--pin-defaults --era YYYY-MM-DD]`: writes `<name>.modernized.ipynb` (changed cells: outputs cleared, `metadata.nbmodernize = {changed, fixType, rules}`), prints a unified diff per changed cell with `--diff`, and lists what is left.');
  lines.push('- `nbmodernize rules` lists every rule (code, id, library, version, auto-fixable, title; `--json`); `nbmodernize rules PD001` (or a rule id) explains one: what it changes, why the old form broke and since which version, an example before and after, the changelog. The same text for every rule, by library: [docs/rules/](rules/).');
  lines.push('- `--select CODES` / `--ignore CODES` (scan, fix; comma-separated, repeatable) choose the rules as in ruff: a selector is a code (`PD001`), a prefix (`PD` for every pandas rule, `PD0` for PD001–PD099), a rule id, or `ALL`; the most specific selector that matches a rule decides, `--ignore` at equal specificity. `--select PD --ignore PD001`: every pandas rule but one.');
  lines.push('- `# nbmodernize: ignore[PD001,SK012]` anywhere in a cell (a comment) silences those rules in that cell; a bare `# nbmodernize: ignore` silences every rule there. Silenced findings are never applied; `scan --json` lists them per notebook under `suppressed` (with the directive) and `fix --json` under `suppressed`.');
  lines.push('- Library (`src/fixers/rules/index.ts`): `scanNotebook(nb, opts)`, `fixNotebook(nb, opts)` → `{notebook, patches, findings}`, `rulesForError(nb, cell, {ename, evalue}, opts)` → candidate patches for a failing cell, `pinDefaults(nb, opts)` → score-calibration patches. Options: `dataFiles`/`competition` (data paths), `era` (`{date}` or `{versions}`), `versions` (environment), `kinds`, `select`/`ignore` (selectors, as on the command line); `scanNotebookReport` also returns the suppressed findings.');
  lines.push('- The era decides pins: an explicit date or versions, else what the notebook itself shows (Python 2 or 3.x kernels bound library versions; using an API removed in version V means the notebook predates V).');
  lines.push('');
  lines.push(`Codes: a prefix per library (${LIBRARIES.map((l) => `${CODE_PREFIX[l]} ${l}`).join(', ')}) and three digits. They are stable: kept as data in \`src/fixers/rules/codes.ts\`, never renumbered or reused. A new rule takes the next free number of its library (one line at the end of the library's block; \`test/unit/rules/codes.test.ts\` fails naming every rule without a code and the exact line to add); a removed rule's code moves to \`RETIRED_CODES\`.`);
  lines.push('');
  lines.push('Columns: **code** links to the rule\'s page (what, why, example); **old → new**; **version** is the library version that removed the old form (or changed the default); ' +
    '**kind**: `repair` fixes an error, `pin` keeps an old default, `repair*` is proposed for a matching runtime error only; ' +
    '**fix**: ✓ rewritten automatically, ✗ reported with an explanation (some ✓ rules also report the occurrences they cannot rewrite safely).');
  for (const lib of LIBRARIES) {
    const rs = by.get(lib);
    if (!rs?.length) continue;
    lines.push('');
    lines.push(`## ${LIBRARY_TITLES[lib] ?? lib} (${rs.length})`);
    lines.push('');
    lines.push('| code | id | old → new | version | kind | fix | errors it explains | changelog |');
    lines.push('|---|---|---|---|---|---|---|---|');
    for (const r of rs) {
      const version = r.kind === 'score-calibration' ? r.changedIn ?? (r.fixedIn ? `${r.fixedIn} (fix brought forward)` : '') : r.removedIn ?? '—';
      const kind = r.kind === 'score-calibration' ? 'pin' : r.trigger === 'error' ? 'repair*' : 'repair';
      const errors = [...new Set(r.errors.map((e) => e.ename))].join(', ') || (r.fixtures.some((f) => f.beforeOutcome === 'differs') ? '(silent change)' : '—');
      const host = (() => {
        try {
          return new URL(r.link).hostname.replace(/^www\./, '');
        } catch {
          return 'link';
        }
      })();
      const c = codeOf(r);
      lines.push(`| ${c ? `[${c}](${rulePagePath(lib)}#${ruleAnchor(c)})` : '—'} | \`${r.id}\` | ${code(r.old)} → ${code(r.new)} | ${cell(version)} | ${kind} | ${r.autoFixable ? '✓' : '✗'} | ${cell(errors)} | [${host}](${r.link}) |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
