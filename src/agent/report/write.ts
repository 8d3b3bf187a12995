/**
 * `nbmodernize report DIR` and the end of every audit: summary.json, report.md and report.html
 * from the store in DIR. Rebuilding is cheap and idempotent; the store is the source of truth.
 */
import path from 'node:path';
import { writeFileAtomic } from '../../core/notebook.js';
import { readStore, type StoreState } from '../audit/store.js';
import { loadDetails } from './details.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildSummary, type SummaryMeta } from './summary.js';
import type { AuditSummary } from './summary-schema.js';

export interface WrittenReport {
  summary: AuditSummary;
  files: { summary: string; markdown: string; html: string };
}

export function writeReport(dir: string, meta: SummaryMeta = {}, state: StoreState = readStore(dir)): WrittenReport {
  const summary = buildSummary(state, meta);
  const files = { summary: path.join(dir, 'summary.json'), markdown: path.join(dir, 'report.md'), html: path.join(dir, 'report.html') };
  writeFileAtomic(files.summary, JSON.stringify(summary, null, 2) + '\n');
  writeFileAtomic(files.markdown, renderMarkdown(summary));
  const details = loadDetails(dir, summary, new Map([...state.finished].map(([id, r]) => [id, { comparisons: r.comparisons }])));
  writeFileAtomic(files.html, renderHtml(summary, details));
  return { summary, files };
}
