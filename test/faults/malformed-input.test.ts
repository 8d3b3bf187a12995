/**
 * Fault suite, malformed input: notebooks fuzzed from a small fixture of our own (truncated, wrong
 * types, invalid UTF-8, a 100 MB cell, deeply nested JSON, nbformat 3 and 4 variants), audited in
 * one real `audit` run. Every file gets a record, none crashes the batch or is an internal error,
 * and the reason is one line. Files that are fine apart from their format version run normally.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli, type CliRun } from '../support/cli.js';
import { withOutputs } from '../support/audit-inputs.js';
import type { AuditRecord } from '../../src/agent/audit/record.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-fault-malformed-'));

/** The fixture every case is derived from: a clean two-cell notebook that reproduces. */
const base = () => withOutputs([['values = [3, 1, 2]', ''], ['print(sorted(values))', '[1, 2, 3]\n']]) as any;
const text = (nb: unknown) => JSON.stringify(nb, null, 1);
const mutate = (f: (nb: any) => void) => {
  const nb = base();
  f(nb);
  return text(nb);
};
/** `s` with the raw `bytes` in place of `mark` (bytes that are not UTF-8). */
const withBytes = (s: string, mark: string, bytes: number[]) => {
  const [a, b] = s.split(mark);
  return Buffer.concat([Buffer.from(a!), Buffer.from(bytes), Buffer.from(b!)]);
};
const nested = (depth: number, open: string, close: string, inner: string) => open.repeat(depth) + inner + close.repeat(depth);

/** id -> [file content, what must come of it]: 'malformed' (status malformed-notebook), 'runs' (a verdict), or 'any'. */
type Expect = 'malformed' | 'runs' | 'no-code' | 'any';
const CASES: Record<string, [string | Buffer, Expect]> = {
  'truncated-10pct': [text(base()).slice(0, Math.floor(text(base()).length * 0.1)), 'malformed'],
  'truncated-50pct': [text(base()).slice(0, Math.floor(text(base()).length * 0.5)), 'malformed'],
  'truncated-last-byte': [text(base()).slice(0, -1), 'malformed'],
  'empty-file': ['', 'malformed'],
  'top-level-array': ['[1, 2, 3]', 'malformed'],
  'top-level-null': ['null', 'malformed'],
  'cells-is-object': [mutate((nb) => (nb.cells = { a: 1 })), 'malformed'],
  'cells-is-string': [mutate((nb) => (nb.cells = 'print(1)')), 'malformed'],
  'cell-is-number': [mutate((nb) => (nb.cells[0] = 42)), 'any'],
  'source-is-number': [mutate((nb) => (nb.cells[1].source = 12345)), 'malformed'],
  'source-list-of-numbers': [mutate((nb) => (nb.cells[1].source = [1, 2, 3])), 'malformed'],
  'outputs-is-string': [mutate((nb) => (nb.cells[1].outputs = 'oops')), 'any'],
  'output-text-is-object': [mutate((nb) => (nb.cells[1].outputs[0].text = { a: 1 })), 'malformed'],
  'metadata-is-list': [mutate((nb) => (nb.metadata = [1, 2])), 'any'],
  'kernelspec-is-string': [mutate((nb) => (nb.metadata.kernelspec = 'python3')), 'any'],
  'cell-type-unknown': [mutate((nb) => (nb.cells[0].cell_type = 'spreadsheet')), 'any'],
  'execution-count-string': [mutate((nb) => (nb.cells[1].execution_count = 'seven')), 'any'],
  'nbformat-is-string': [mutate((nb) => (nb.nbformat = '4')), 'malformed'],
  'nbformat-missing': [mutate((nb) => delete nb.nbformat), 'malformed'],
  'nbformat-2': [mutate((nb) => (nb.nbformat = 2)), 'malformed'],
  'nbformat-5': [mutate((nb) => (nb.nbformat = 5)), 'malformed'],
  'nbformat-4.0-no-ids': [mutate((nb) => {
    nb.nbformat_minor = 0;
    for (const c of nb.cells) delete c.id;
  }), 'runs'],
  'nbformat-4.5-with-ids': [mutate((nb) => {
    nb.nbformat_minor = 5;
    nb.cells.forEach((c: any, i: number) => (c.id = `cell-${i}`));
  }), 'runs'],
  'nbformat-4-source-as-string': [mutate((nb) => {
    for (const c of nb.cells) c.source = Array.isArray(c.source) ? c.source.join('') : c.source;
  }), 'runs'],
  'nbformat-3': [JSON.stringify({
    nbformat: 3, nbformat_minor: 0, metadata: { name: 'old' },
    worksheets: [{ cells: [
      { cell_type: 'code', language: 'python', input: ['values = [3, 1, 2]'], outputs: [], prompt_number: 1 },
      { cell_type: 'code', language: 'python', input: ['print(sorted(values))'], outputs: [{ output_type: 'stream', stream: 'stdout', text: ['[1, 2, 3]\n'] }], prompt_number: 2 },
    ] }],
  }), 'runs'],
  'nbformat-3-no-worksheets': [JSON.stringify({ nbformat: 3, nbformat_minor: 0, metadata: {} }), 'any'],
  'nbformat-3-worksheets-is-object': [JSON.stringify({ nbformat: 3, nbformat_minor: 0, metadata: {}, worksheets: { cells: [] } }), 'any'],
  'invalid-utf8-in-source': [withBytes(text(base()).replace('print(sorted(values))', 'print(sorted(values))  # @@'), '@@', [0xff, 0xfe, 0xc3]), 'any'],
  'invalid-utf8-outside-strings': [withBytes('{"nbformat": 4, @@"cells": []}', '@@', [0xff, 0xfe]), 'malformed'],
  'bom-prefixed': ['\uFEFF' + text(base()), 'runs'],
  'deeply-nested-metadata': [text(base()).replace('"metadata": {', `"metadata": {"deep": ${nested(100_000, '{"a":', '}', '1')},`), 'malformed'],
  'deeply-nested-arrays-in-output': [mutate((nb) => (nb.cells[0].outputs = [{ output_type: 'execute_result', data: { 'application/json': 'DEEP' }, metadata: {}, execution_count: 1 }])).replace('"DEEP"', nested(100_000, '[', ']', '1')), 'malformed'],
  'cell-of-100-mb': [mutate((nb) => (nb.cells[0].source = `values = [3, 1, 2]  # ${'x'.repeat(100 * 1024 * 1024)}`)), 'malformed'],
};

let run: CliRun;
let records: Map<string, AuditRecord>;
const out = path.join(root, 'out');

describe('malformed input', { timeout: 900_000 }, () => {
  before(async () => {
    const input = path.join(root, 'in');
    fs.mkdirSync(input, { recursive: true });
    for (const [id, [content]] of Object.entries(CASES)) fs.writeFileSync(path.join(input, `${id}.ipynb`), content);
    run = await runCli(['audit', input, '--out-dir', out, '--sandbox', 'bwrap', '--jobs', '2', '--timeout', '120'], { timeoutMs: 840_000 });
    const lines = fs.readFileSync(path.join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    records = new Map(lines.filter((l) => l.type === 'finished').map((l) => [String(l.id).replace(/\.ipynb$/, ''), l.record as AuditRecord]));
  });

  it('the orchestrator is intact: exit 0, one record per file', () => {
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.equal(records.size, Object.keys(CASES).length);
  });

  for (const [id, [, expect]] of Object.entries(CASES)) {
    it(`${id}: ${expect === 'malformed' ? 'a one-line "malformed" error' : expect === 'runs' ? 'runs and reproduces' : 'a clear record with a one-line reason'}`, () => {
      const r = records.get(id);
      assert.ok(r, 'recorded');
      assert.ok(!['crashed', 'internal-error'].includes(r.status), `${r.status}: ${r.reason}`);
      assert.ok(!r.reason.includes('\n'), `one line: ${JSON.stringify(r.reason.slice(0, 300))}`);
      assert.ok(r.reason.length <= 600, `short: ${r.reason.length} chars`);
      if (expect === 'malformed') assert.equal(r.status, 'malformed-notebook', r.reason);
      if (expect === 'runs') assert.equal(r.verdict, 'reproduced', r.reason);
    });
  }
});
