/** The rule table in docs/rules.md, generated from the rule definitions (test/unit/rules/docs.test.ts keeps it current). */
import type { Rule } from './types.js';
import { LIBRARIES } from './types.js';

const LIBRARY_TITLES: Record<string, string> = {
  python: 'Python 2 → 3 and the standard library', numpy: 'NumPy', pandas: 'pandas', 'scikit-learn': 'scikit-learn',
  matplotlib: 'matplotlib', seaborn: 'seaborn', xgboost: 'xgboost', scipy: 'SciPy', statsmodels: 'statsmodels',
  environment: 'Libraries missing from the environment', data: 'Data paths',
};

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
  lines.push('- Library (`src/fixers/rules/index.ts`): `scanNotebook(nb, opts)`, `fixNotebook(nb, opts)` → `{notebook, patches, findings}`, `rulesForError(nb, cell, {ename, evalue}, opts)` → candidate patches for a failing cell, `pinDefaults(nb, opts)` → score-calibration patches. Options: `dataFiles`/`competition` (data paths), `era` (`{date}` or `{versions}`), `versions` (environment), `kinds`.');
  lines.push('- The era decides pins: an explicit date or versions, else what the notebook itself shows (Python 2 or 3.x kernels bound library versions; using an API removed in version V means the notebook predates V).');
  lines.push('');
  lines.push('Columns: **old → new**; **version** is the library version that removed the old form (or changed the default); ' +
    '**kind**: `repair` fixes an error, `pin` keeps an old default, `repair*` is proposed for a matching runtime error only; ' +
    '**fix**: ✓ rewritten automatically, ✗ reported with an explanation (some ✓ rules also report the occurrences they cannot rewrite safely).');
  for (const lib of LIBRARIES) {
    const rs = by.get(lib);
    if (!rs?.length) continue;
    lines.push('');
    lines.push(`## ${LIBRARY_TITLES[lib] ?? lib} (${rs.length})`);
    lines.push('');
    lines.push('| id | old → new | version | kind | fix | errors it explains | changelog |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const r of rs) {
      const version = r.kind === 'score-calibration' ? r.changedIn ?? '' : r.removedIn ?? '—';
      const kind = r.kind === 'score-calibration' ? 'pin' : r.trigger === 'error' ? 'repair*' : 'repair';
      const errors = [...new Set(r.errors.map((e) => e.ename))].join(', ') || (r.fixtures.some((f) => f.beforeOutcome === 'differs') ? '(silent change)' : '—');
      const host = (() => {
        try {
          return new URL(r.link).hostname.replace(/^www\./, '');
        } catch {
          return 'link';
        }
      })();
      lines.push(`| \`${r.id}\` | ${code(r.old)} → ${code(r.new)} | ${cell(version)} | ${kind} | ${r.autoFixable ? '✓' : '✗'} | ${cell(errors)} | [${host}](${r.link}) |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}
