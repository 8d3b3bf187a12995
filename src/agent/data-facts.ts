/**
 * Facts about the competition's data that decide whether an old default matters: which field
 * values today's pandas reads as missing that the notebook's pandas read as strings. Read from the
 * files themselves (the mounted data), so a pin is applied where it changes what the notebook sees,
 * and nowhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DataFacts } from '../fixers/rules/context.js';

/** Strings pandas 2.0 added to read_csv's default NA values (pandas-dev/pandas#52493). */
const NEWLY_MISSING = ['None'];
/** Big files are sampled from the start: a category word shows up early in a real table. */
const READ_LIMIT = 32 * 1024 * 1024;
const TABLE = /\.(csv|tsv|txt)$/i;

export function readDataFacts(dataDir: string, opts: { exclude?: string[] } = {}): DataFacts {
  const facts: DataFacts = { newlyMissingTokens: {} };
  for (const rel of listFiles(dataDir, opts.exclude ?? [])) {
    if (!TABLE.test(rel)) continue;
    const text = head(path.join(dataDir, rel));
    const found = NEWLY_MISSING.filter((tok) => wholeField(text, tok));
    if (found.length) facts.newlyMissingTokens[rel] = found;
  }
  return facts;
}

/** The token as a whole delimited field, quoted or not (not inside a longer word). */
function wholeField(text: string, tok: string): boolean {
  const t = tok.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[,\\t;])"?${t}"?(?=[,\\t;]|\\r?$)`, 'm').test(text);
}

function head(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(READ_LIMIT, fs.fstatSync(fd).size));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

function listFiles(root: string, exclude: string[], rel = ''): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (exclude.some((x) => r === x || r.startsWith(`${x}/`))) continue;
    if (e.isDirectory()) out.push(...listFiles(root, exclude, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}
