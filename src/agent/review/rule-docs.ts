/**
 * The rule explanations (docs/rules/<library>.md, generated from the rule definitions) as a page
 * the review server can show offline: headings become anchors named by the rule code (`#np001`),
 * the rest stays preformatted text. No markdown library: the files are plain, and escaped here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../core/paths.js';
import { escapeHtml } from '../report/html.js';

const LIBRARY = /^[a-z-]+$/;

/** The page for one library, or undefined when there is no such docs file. */
export function ruleDocsPage(library: string): string | undefined {
  if (!LIBRARY.test(library)) return undefined;
  const file = path.join(packageRoot(), 'docs', 'rules', `${library}.md`);
  if (!fs.existsSync(file)) return undefined;
  const parts: string[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.join('').trim()) parts.push(`<pre>${escapeHtml(text.join('\n'))}</pre>`);
    text = [];
  };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const h = /^(#{1,3}) (.*)$/.exec(line);
    if (!h) {
      text.push(line);
      continue;
    }
    flush();
    const code = /^([A-Z]+\d{3})\b/.exec(h[2]!)?.[1];
    parts.push(`<h${h[1]!.length}${code ? ` id="${code.toLowerCase()}"` : ''}>${escapeHtml(h[2]!)}</h${h[1]!.length}>`);
  }
  flush();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(library)} rules</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem}:target{background:#fff3bf}</style>
</head><body>${parts.join('\n')}</body></html>`;
}
