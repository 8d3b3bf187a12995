/** report.md: the audit summary as Markdown (headline, outcome and taxonomy tables, every notebook). */
import { causeLabel } from '../audit/taxonomy.js';
import type { AuditSummary } from './summary-schema.js';

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function pct(n: number, total: number): string {
  return total ? `${Math.round((100 * n) / total)}%` : '0%';
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, 160);
}

function num(x: number | null | undefined): string {
  if (x === null || x === undefined) return '–';
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(5)));
}

export function renderMarkdown(s: AuditSummary): string {
  const t = s.totals;
  const b = s.before;
  const out: string[] = [];
  out.push(`# Reproducibility audit`, '');
  out.push(`${s.audit.input ? `Input: \`${s.audit.input}\` · ` : ''}mode: ${s.audit.mode === 'fix' ? 'modernize (--fix)' : 'baseline (as-is)'} · environment: ${s.audit.environment ?? 'debian13'}${s.audit.sandbox ? ` · sandbox: ${s.audit.sandbox}` : ''}`, '');
  if (!s.audit.complete && s.audit.planned !== null) out.push(`**Incomplete:** ${t.notebooks} of ${s.audit.planned} notebooks finished (resume with \`nbmodernize audit ... --resume\`).`, '');
  const after = s.audit.mode === 'fix' ? ` → ${t.reproduced} of ${t.notebooks} (${pct(t.reproduced, t.notebooks)}) after modernization` : '';
  out.push(`**Reproducible: ${b.reproduced} of ${b.notebooks} (${pct(b.reproduced, b.notebooks)}) as-is${after}.** Not reproduced: ${t['not-reproduced']}; could not be evaluated: ${t.failed}.`, '');
  const aside = s.setAside && s.setAside.missingInput + s.setAside.missingModule ? s.setAside : undefined;
  if (aside) out.push(`Of the reproduced, with cells not run because this run lacks what they need (named in each verdict): ${aside.missingInput} for an input the data does not hold, ${aside.missingModule} for a module the environment does not have.`, '');
  out.push(`Cost: $${s.cost.usd.toFixed(2)} (${s.cost.llmCalls} LLM calls, ${s.cost.inputTokens} input / ${s.cost.outputTokens} output tokens) · audit time ${formatDuration(s.audit.elapsedMs)} · notebook time ${formatDuration(s.time.notebookMs)} (cells ${formatDuration(s.time.cellMs)}, overhead ${formatDuration(s.time.overheadMs)}) · median per notebook ${formatDuration(s.time.medianNotebookMs)}`, '');

  out.push('## Outcomes', '', '| outcome | notebooks |', '|---|---:|');
  for (const [k, v] of Object.entries(s.outcomes)) out.push(`| ${k} | ${v} |`);
  out.push('', '| verdict | before | after |', '|---|---:|---:|');
  for (const v of ['reproduced', 'not-reproduced', 'failed'] as const) out.push(`| ${v} | ${b[v]} | ${t[v]} |`);
  out.push('');

  if (s.taxonomy.matrix.length) {
    out.push('## Why notebooks did not reproduce as-is', '', '| cause | notebooks |', '|---|---:|');
    for (const [k, v] of Object.entries(s.taxonomy.causes)) out.push(`| ${causeLabel(k)} | ${v} |`);
    out.push('', '| exception class | cause | notebooks |', '|---|---|---:|');
    for (const m of s.taxonomy.matrix) out.push(`| ${m.exceptionClass} | ${causeLabel(m.cause)} | ${m.count} |`);
    out.push('');
    if (Object.keys(s.taxonomy.remaining).length) {
      out.push('Still not reproduced after --fix, by cause: ' + Object.entries(s.taxonomy.remaining).map(([k, v]) => `${causeLabel(k)} ${v}`).join(', '), '');
    }
  }
  if (Object.keys(s.fixTypes).length) {
    out.push('## Fixes', '', '| fix type | count |', '|---|---:|');
    for (const [k, v] of Object.entries(s.fixTypes)) out.push(`| ${k} | ${v} |`);
    out.push('', `By source: ${Object.entries(s.fixSources).map(([k, v]) => `${k} ${v}`).join(', ')}. Fixes per notebook: ${Object.entries(s.fixesPerNotebook).map(([k, v]) => `${k}: ${v}`).join(', ')}.`, '');
  }
  out.push('## Runtime', '', '| notebook wall time | notebooks |', '|---|---:|');
  for (const r of s.runtime) if (r.count) out.push(`| ${r.label} | ${r.count} |`);
  out.push('');

  out.push('## Notebooks', '');
  const fix = s.audit.mode === 'fix';
  out.push(`| notebook | ${fix ? 'before | ' : ''}verdict | cause | oracle | original → new | fixes | cost | time | reason |`);
  out.push(`|---|${fix ? '---|' : ''}---|---|---|---|---:|---:|---:|---|`);
  for (const n of s.notebooks) {
    const tax = n.taxonomy ? `${n.taxonomy.exceptionClass} · ${causeLabel(n.taxonomy.cause)}` : '';
    const score = n.score ? `${num(n.score.original)} → ${num(n.score.new)}` : '–';
    const link = n.artifacts.dir ? `[${cell(n.id)}](${n.artifacts.dir}/)` : cell(n.id);
    out.push(`| ${link} | ${fix ? `${n.before} | ` : ''}${n.verdict} | ${cell(tax)} | ${n.oracle} | ${score} | ${n.fixes} | $${n.costUsd.toFixed(2)} | ${formatDuration(n.wallMs)} | ${cell(n.reason)} |`);
  }
  out.push('', `Generated by nbmodernize ${s.tool.version} at ${s.generatedAt}. Machine-readable: summary.json (schema ${s.schemaVersion}).`, '');
  return out.join('\n');
}
