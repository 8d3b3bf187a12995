/**
 * What the tool-mode model's tools do, over the loop's own things: the working notebook and the
 * last run (view_cell, search_notebook), the live kernel (inspect, read-only), the mounted data
 * (list_data) and a trial run of a patch that is not kept (try_patch, through the loop's `trial`).
 * The conversation itself is fixers/llm/tool-agent.ts.
 */
import { sourceText, type Notebook } from '../core/notebook.js';
import type { Patch } from '../core/patch.js';
import { firstFailure } from '../core/run-result.js';
import type { DataFilePreview } from '../fixers/context/index.js';
import type { ToolHandlers } from '../fixers/llm/index.js';
import type { Problem } from './fixers.js';
import type { OracleVerdict } from './oracle/index.js';
import type { RunState } from './environment.js';

/** The loop's trial run: the patch applied to a copy, run in the live kernel, the code put back. */
export type Trial = (patch: Patch) => Promise<{ state: RunState; verdict: OracleVerdict }>;

function outputText(nb: Notebook, cell: number, max = 1500): string {
  const c = nb.cells[cell];
  if (!c || c.cell_type !== 'code') return '';
  const text = c.outputs.map((o: any) =>
    o.output_type === 'stream' ? sourceText(o.text)
      : o.output_type === 'error' ? `${o.ename}: ${o.evalue}\n`
        : sourceText(o.data?.['text/plain'] ?? (o.data?.['image/png'] ? '<image>\n' : ''))).join('');
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** The oracle's view of a run, in a few lines for the model. */
export function verdictLines(v: OracleVerdict, max = 6): string[] {
  if (v.oracle === 'none') return ['oracle: the original run stored no numbers to compare'];
  const bad = v.comparisons.filter((c) => !c.ok);
  const lines = [`oracle (${v.oracle}): ${v.matches ? 'MATCHES the original run' : `does NOT match (${bad.length} of ${v.comparisons.length} values differ or are missing)`}`];
  for (const c of bad.slice(0, max)) lines.push(`- cell ${c.cell ?? '?'}: original ${c.original ?? 'none'}, now ${c.new ?? 'none'}${c.context ? ` (${String(c.context).trim().slice(0, 80)})` : ''}`);
  return lines;
}

export function toolHandlers(p: Problem, deps: { dataFiles: () => DataFilePreview[]; trial?: Trial }): ToolHandlers {
  const nb = p.notebook;
  const env = p.environment;
  return {
    viewCell(n) {
      const c = nb.cells[n];
      if (!c) return `cell ${n} does not exist (the notebook has cells 0-${nb.cells.length - 1})`;
      if (c.cell_type !== 'code') return `cell ${n} (${c.cell_type}):\n${sourceText(c.source).trim()}`;
      const rec = p.state.cells.find((r) => r.index === n);
      const status = rec ? `${rec.status}${rec.error ? `: ${rec.error.ename}: ${rec.error.evalue}` : ''}` : 'not run';
      const out = outputText(p.state.notebook, n);
      return `cell ${n} (code; last run: ${status}):\n\`\`\`python\n${sourceText(c.source).replace(/\s+$/, '')}\n\`\`\`${out ? `\noutput:\n${out}` : ''}`;
    },
    searchNotebook(text) {
      const needle = text.toLowerCase();
      const hits: string[] = [];
      nb.cells.forEach((c, i) => sourceText(c.source).split('\n').forEach((l, k) => {
        if (l.toLowerCase().includes(needle)) hits.push(`cell ${i} line ${k + 1}: ${l.trim().slice(0, 160)}`);
      }));
      return hits.length ? hits.slice(0, 30).join('\n') + (hits.length > 30 ? `\n... ${hits.length - 30} more` : '') : `no line contains ${JSON.stringify(text)}`;
    },
    ...(env.inspect ? { inspect: (name: string) => env.inspect!(name) } : {}),
    listData() {
      const files = deps.dataFiles();
      if (!files.length) return 'no data files are mounted';
      return files.slice(0, 30).map((f) => [`${f.path} (${f.bytes} bytes)`, ...(f.head ?? []).map((h) => `    ${h}`)].join('\n')).join('\n');
    },
    async tryPatch(patch) {
      if (!deps.trial) return 'try_patch is not available here; submit instead';
      const { state, verdict } = await deps.trial(patch);
      const fail = firstFailure(state.cells);
      const ran = state.ran.map((r) => r.index);
      const lines = [
        `ran cells ${ran.length ? `${ran[0]}..${ran[ran.length - 1]}` : '(none)'} (${ran.length} cells): ${fail ? `FAILED in cell ${fail.index}: ${fail.error?.ename ?? fail.status}: ${fail.error?.evalue ?? ''}`.trim() : `status ${state.status}`}`,
        ...(fail ? [] : verdictLines(verdict)),
        'Nothing was kept: submit the edits to keep them.',
      ];
      return lines.join('\n');
    },
  };
}
