/** Audit inputs and summary checks shared by the local audit tests and the queue tests. */
import fs from 'node:fs';
import path from 'node:path';
import { makeNotebook } from './notebooks.js';
import type { AuditSummary } from '../../src/agent/report/summary-schema.js';

/** A code cell with the output its author saw (the stored-outputs oracle compares against it). */
export function withOutputs(cells: Array<[string, string]>, kernel = 'python3'): unknown {
  const nb = makeNotebook(cells.map(([src]) => src), kernel) as any;
  nb.cells.forEach((c: any, i: number) => {
    c.outputs = [{ output_type: 'stream', name: 'stdout', text: cells[i]![1] }];
    c.execution_count = i + 1;
  });
  return nb;
}

export function writeTree(dir: string, files: Record<string, unknown>): string {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

/** The mixed directory of the audit issue: clean, broken-fixable, broken-unfixable, malformed, non-Python kernel (+ drift, no code). */
export function mixedDir(dir: string): string {
  const rkernel = makeNotebook(['x <- c(1, 2)\nprint(mean(x))'], 'ir') as any;
  rkernel.metadata.kernelspec.language = 'R';
  return writeTree(dir, {
    'clean.ipynb': withOutputs([['import pandas as pd\ndf = pd.read_csv("../input/train.csv")\nprint(len(df))', '5\n'], ['print(round(df.Fare.mean(), 2))', '29.52\n']]),
    'titanic/fixable.ipynb': withOutputs([['import numpy as np\nx = np.float(3)\nprint(x)', '3.0\n']]),
    // The library is used: an unused failing import would simply be dropped.
    'titanic/unfixable.ipynb': withOutputs([['import lightgbm as lgb\nmodel = lgb.LGBMClassifier()\nprint("trained")', 'trained\n']]),
    'drift.ipynb': withOutputs([['print(0.5 + 0.1)', '0.8\n']]),
    'malformed.ipynb': '{"nbformat": 4, "cells": [',
    'r-kernel.ipynb': rkernel,
    'empty.ipynb': makeNotebook([{ markdown: '# just text' }]),
    'notes/readme.txt': 'not a notebook',
  });
}

export function readSummary(dir: string): AuditSummary {
  return JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8')) as AuditSummary;
}

export function finishedCount(dir: string): number {
  try {
    return fs.readFileSync(path.join(dir, 'results.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"type":"finished"')).length;
  } catch {
    return 0;
  }
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What must not depend on how the audit was interrupted: everything but timings and session bookkeeping. */
export function comparable(s: AuditSummary): unknown {
  return {
    totals: s.totals,
    before: s.before,
    outcomes: s.outcomes,
    taxonomy: s.taxonomy,
    fixTypes: s.fixTypes,
    fixesPerNotebook: s.fixesPerNotebook,
    cost: s.cost,
    planned: s.audit.planned,
    complete: s.audit.complete,
    mode: s.audit.mode,
    notebooks: s.notebooks.map((n) => ({ ...n, wallMs: 0, cellMs: 0 })),
  };
}
