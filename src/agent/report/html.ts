/**
 * report.html: one self-contained file (works offline, opened from disk or attached to a CI run).
 * The template, stylesheet and script live in reports/ at the package root and are inlined here,
 * with the summary and per-notebook details as a JSON island. Charts are drawn by the page's own
 * small SVG code: no CDN, no third-party script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { CAUSES } from '../audit/taxonomy.js';
import type { NotebookDetail } from './details.js';
import type { AuditSummary } from './summary-schema.js';

export function reportsDir(): string {
  return path.join(packageRoot(), 'reports');
}

/** JSON safe inside <script>: no "</script>", no HTML comment openers, no U+2028/9 surprises. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function renderHtml(summary: AuditSummary, details: Record<string, NotebookDetail>): string {
  const dir = reportsDir();
  const template = fs.readFileSync(path.join(dir, 'report.html'), 'utf8');
  const css = fs.readFileSync(path.join(dir, 'report.css'), 'utf8');
  const js = fs.readFileSync(path.join(dir, 'report.js'), 'utf8');
  const data = jsonForScript({ summary, details, causes: CAUSES });
  const title = summary.audit.input ? path.basename(summary.audit.input) : 'audit';
  // Function replacers: "$&" and friends in the inlined text must stay literal.
  return template
    .replace('{{TITLE}}', () => escapeHtml(title))
    .replace('/*{{CSS}}*/', () => css)
    .replace('{{DATA}}', () => data)
    .replace('/*{{JS}}*/', () => js.replace(/<\/script/gi, '<\\/script'));
}
