/**
 * A job's artifacts on their way from a worker to the coordinator: every file under the job's
 * artifact directory in one gzip'ed JSON archive. Small archives ride in the result; larger ones
 * are written to shared storage (--artifacts-dir) and only their name rides; without shared
 * storage they are dropped and the record says so, so a huge artifact never bloats Redis.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { replacePath, type PathSwap, type QueueJobResult } from './payload.js';

/** Rename into place: a reader (or a crash) never sees half a file. */
function writeAtomic(file: string, data: Buffer): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

interface Archive { files: Array<{ path: string; data: string }> }

function listFiles(dir: string, prefix = ''): string[] {
  let out: string[] = [];
  let entries: fs.Dirent[] = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out = out.concat(listFiles(path.join(dir, e.name), rel));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/** A file's bytes with paths replaced, when it quotes them (text files: run results, notebooks, logs). */
function rewrite(data: Buffer, swaps: PathSwap[]): Buffer {
  const hits = swaps.filter((s) => data.includes(s.from));
  if (!hits.length) return data;
  return Buffer.from(hits.reduce((text, s) => replacePath(text, s.from, s.to), data.toString('utf8')), 'utf8');
}

export function packArtifacts(dir: string, swaps: PathSwap[] = []): Buffer {
  const archive: Archive = { files: listFiles(dir).map((rel) => ({ path: rel, data: rewrite(fs.readFileSync(path.join(dir, rel)), swaps).toString('base64') })) };
  return gzipSync(JSON.stringify(archive));
}

/** Writes the archive's files under dir; entries that would land outside it are skipped. */
export function unpackArtifacts(gz: Buffer, dir: string, swaps: PathSwap[] = []): number {
  const archive = JSON.parse(gunzipSync(gz).toString('utf8')) as Archive;
  const root = path.resolve(dir);
  let n = 0;
  for (const f of archive.files) {
    const target = path.resolve(root, f.path);
    if (!target.startsWith(root + path.sep)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    writeAtomic(target, rewrite(Buffer.from(f.data, 'base64'), swaps));
    n += 1;
  }
  return n;
}

/** The archive placed for the result: inline, in shared storage, or dropped with the reason. */
export function shipArtifacts(gz: Buffer, jobId: string, o: { inlineLimitBytes: number; artifactsDir?: string }): NonNullable<QueueJobResult['artifacts']> {
  if (gz.length <= o.inlineLimitBytes) return { inline: gz.toString('base64') };
  if (o.artifactsDir) {
    const file = `${jobId}.json.gz`;
    fs.mkdirSync(o.artifactsDir, { recursive: true });
    writeAtomic(path.join(o.artifactsDir, file), gz);
    return { file };
  }
  return { dropped: `the artifacts (${gz.length} bytes compressed) exceed the ${o.inlineLimitBytes}-byte limit for the queue and the worker has no --artifacts-dir` };
}

/** The archive of a result, or undefined (dropped, or the shared file is not reachable here). */
export function receiveArtifacts(a: QueueJobResult['artifacts'], artifactsDir: string | undefined): Buffer | undefined {
  if (a?.inline) return Buffer.from(a.inline, 'base64');
  if (a?.file) {
    if (!artifactsDir) throw new Error(`the artifacts are in ${a.file} on shared storage; pass the coordinator --artifacts-dir`);
    return fs.readFileSync(path.join(artifactsDir, path.basename(a.file)));
  }
  return undefined;
}

/** The shared file of a result, once unpacked: nothing else reads it. */
export function discardArtifacts(a: QueueJobResult['artifacts'], artifactsDir: string | undefined): void {
  if (a?.file && artifactsDir) fs.rmSync(path.join(artifactsDir, path.basename(a.file)), { force: true });
}
