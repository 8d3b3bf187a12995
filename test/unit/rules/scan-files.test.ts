/** Scanning many files across threads: the same findings as one thread, in file order; a bad file is one error. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanFiles, type ScanFileResult } from '../../../src/fixers/rules/scan-files.js';
import { makeNotebook } from '../../support/notebooks.js';

const SNIPPETS = [
  'import pandas as pd\ndf = pd.read_csv("train.csv")\nx = df.ix[0]',
  'print "hello"',
  'import numpy as np\ny = np.float(3)',
  'from sklearn.cross_validation import train_test_split',
  'import math\nz = math.sqrt(4)',
];

let dir: string;
let files: string[];

before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-scan-files-'));
  files = [];
  for (let i = 0; i < 24; i++) {
    const f = path.join(dir, `nb${String(i).padStart(2, '0')}.ipynb`);
    fs.writeFileSync(f, JSON.stringify(makeNotebook([SNIPPETS[i % SNIPPETS.length], `a${i} = ${i}`])));
    files.push(f);
  }
  fs.writeFileSync(path.join(dir, 'broken.ipynb'), '{"cells": [');
  files.splice(7, 0, path.join(dir, 'broken.ipynb'));
  files.push(path.join(dir, 'absent.ipynb'));
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function collect(jobs: number, minFilesForPool: number): Promise<ScanFileResult[]> {
  const out: ScanFileResult[] = [];
  for await (const r of scanFiles(files.map((file) => ({ file })), {}, { jobs, cwd: dir, minFilesForPool })) out.push(r);
  return out;
}

const comparable = (rs: ScanFileResult[]) => rs.map((r) => ({ file: r.file, findings: r.findings, suppressed: r.suppressed, error: r.error }));

describe('scanFiles', () => {
  it('finds across three threads what one thread finds, in file order, with each bad file reported alone', async () => {
    const one = await collect(1, 0);
    const three = await collect(3, 0);
    assert.deepEqual(three.map((r) => r.file), files);
    assert.deepEqual(comparable(three), comparable(one));
    assert.ok(one.filter((r) => r.findings?.length).length >= 15, 'the py2 / removed-API snippets have findings');
    assert.match(three[7].error ?? '', /JSON|notebook/i);
    assert.match(three.at(-1)!.error ?? '', /cannot read/);
    assert.equal(three.filter((r) => r.error).length, 2);
  });

  it('scans in this thread below the pool threshold', async () => {
    const rs = await collect(4, 1000);
    assert.equal(rs.length, files.length);
    assert.ok(rs[0].findings?.some((f) => f.ruleId.includes('ix')), JSON.stringify(rs[0].findings?.map((f) => f.ruleId)));
  });

  it('stops its threads when the caller stops reading', async () => {
    let n = 0;
    for await (const r of scanFiles(files.map((file) => ({ file })), {}, { jobs: 2, cwd: dir, minFilesForPool: 0 })) {
      assert.ok(r.file);
      if (++n === 3) break;
    }
    assert.equal(n, 3);
  });
});
