/**
 * `npm run test:faults`: runs the fault and abuse suite (test/faults/*.test.js, one file at a time)
 * and writes its figures (cases tried and passed per group) into docs/reliability.md, between the
 * `faults:begin` / `faults:end` markers, so the document states what was last measured. Exits 1 when
 * a case failed. `--no-write` only prints the table.
 */
import fs from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { packageRoot } from '../src/core/paths.js';

/** The group of each file, in the order the table lists them. */
const GROUPS: Array<{ file: string; group: string }> = [
  { file: 'hostile-notebooks.test.js', group: 'hostile notebooks' },
  { file: 'malformed-input.test.js', group: 'malformed input' },
  { file: 'llm-faults.test.js', group: 'LLM faults (stand-in)' },
  { file: 'kill9.test.js', group: 'kill -9 mid-audit' },
];

interface Tally { tried: number; passed: number; failed: string[]; ms: number }

async function main(): Promise<void> {
  const dir = path.join(packageRoot(), 'dist', 'test', 'faults');
  const present = GROUPS.filter((g) => fs.existsSync(path.join(dir, g.file)));
  const tally = new Map<string, Tally>(present.map((g) => [g.file, { tried: 0, passed: 0, failed: [], ms: 0 }]));
  for (const g of present) {
    const file = path.join(dir, g.file);
    const t = tally.get(g.file)!;
    const t0 = Date.now();
    const stream = run({ files: [file], concurrency: 1 });
    // Leaf cases only: a suite (describe) passing is not a case of its own.
    stream.on('test:pass', (d) => {
      if (d.details.type === 'suite') return;
      t.tried += 1;
      if (d.skip || d.todo) t.tried -= 1;
      else t.passed += 1;
    });
    stream.on('test:fail', (d) => {
      if (d.details.type === 'suite') return;
      t.tried += 1;
      t.failed.push(d.name);
    });
    stream.compose(new spec()).pipe(process.stdout);
    await new Promise<void>((resolve) => stream.on('close', () => resolve()));
    t.ms = Date.now() - t0;
  }
  const rows = present.map((g) => {
    const t = tally.get(g.file)!;
    return `| ${g.group} | ${t.tried} | ${t.passed} | ${Math.round(t.ms / 1000)} s | ${t.failed.length ? `failed: ${t.failed.join('; ')}` : ''} |`;
  });
  const total = [...tally.values()].reduce((a, t) => ({ tried: a.tried + t.tried, passed: a.passed + t.passed }), { tried: 0, passed: 0 });
  const table = [
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${process.platform}; ${total.passed} of ${total.tried} cases passed.`,
    '',
    '| group | cases tried | passed | time | notes |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
  process.stdout.write(`\n${table}\n`);
  if (!process.argv.includes('--no-write')) {
    const doc = path.join(packageRoot(), 'docs', 'reliability.md');
    const text = fs.readFileSync(doc, 'utf8');
    const re = /(<!-- faults:begin -->\n)[\s\S]*?(<!-- faults:end -->)/;
    if (!re.test(text)) throw new Error(`${doc} has no faults:begin/faults:end markers`);
    fs.writeFileSync(doc, text.replace(re, `$1${table}\n$2`));
  }
  process.exitCode = total.passed === total.tried && total.tried > 0 ? 0 : 1;
}

await main();
