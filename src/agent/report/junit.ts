/**
 * JUnit XML for `check --junit`: one testcase per notebook; "not reproduced" is a failure, "could
 * not evaluate" an error, so CI systems (GitHub, GitLab, Jenkins) show which notebook broke and why.
 */
import type { AuditRecord } from '../audit/record.js';

/** XML 1.0 text: escaped, and without the control characters XML forbids (ANSI leftovers, NULs). */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export interface JunitCase { record: AuditRecord; name: string; details: string }

export function renderJunit(cases: JunitCase[], props: Record<string, string>, timestamp: string): string {
  const failures = cases.filter((c) => c.record.verdict === 'not-reproduced').length;
  const errors = cases.filter((c) => c.record.verdict === 'failed').length;
  const time = (cases.reduce((s, c) => s + c.record.wallMs, 0) / 1000).toFixed(3);
  const attrs = `tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="nbmodernize check" ${attrs}>`,
    `  <testsuite name="nbmodernize check" ${attrs} timestamp="${xmlText(timestamp)}">`,
    '    <properties>',
    ...Object.entries(props).map(([k, v]) => `      <property name="${xmlText(k)}" value="${xmlText(v)}"/>`),
    '    </properties>',
  ];
  for (const c of cases) {
    const r = c.record;
    out.push(`    <testcase classname="nbmodernize.check" name="${xmlText(c.name)}" file="${xmlText(r.path)}" time="${(r.wallMs / 1000).toFixed(3)}">`);
    // The message is one line (CI systems show it as the title); the body carries the details.
    const message = xmlText(r.reason.split('\n')[0]!.slice(0, 300));
    if (r.verdict === 'not-reproduced') out.push(`      <failure message="${message}" type="${xmlText(r.taxonomy?.cause ?? 'not-reproduced')}">${xmlText(c.details)}</failure>`);
    else if (r.verdict === 'failed') out.push(`      <error message="${message}" type="${xmlText(r.status)}">${xmlText(c.details)}</error>`);
    else if (c.details) out.push(`      <system-out>${xmlText(c.details)}</system-out>`);
    out.push('    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}
