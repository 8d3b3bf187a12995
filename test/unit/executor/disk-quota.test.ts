import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { diskFullNote, mountDiskQuota, OWNER_FILE, QUOTA_DIR, sweepOrphanQuotas } from '../../../src/executor/disk-quota.js';
import { copyOutFiles } from '../../../src/executor/copy-out.js';

const root = process.getuid?.() === 0;

function mountedAt(dir: string): boolean {
  return fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4] === dir);
}

describe('disk quota', () => {
  it('adds the quota to the message of a cell that ran out of space, and nothing to other errors', () => {
    assert.match(diskFullNote('[Errno 28] No space left on device', { diskMb: 20 }), /disk quota is full: 20 MB/);
    assert.match(diskFullNote('[Errno 27] File too large', { diskMb: 20 }), /per-file cap of 20 MB/);
    assert.equal(diskFullNote('[Errno 2] No such file or directory', { diskMb: 20 }), '');
    assert.equal(diskFullNote('[Errno 28] No space left on device', {}), '');
  });

  it('mounts a filesystem of the given size that refuses writes past it, and unmounts it', { skip: !root && 'needs root' }, () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-unit-'));
    const dir = path.join(ws, QUOTA_DIR);
    fs.mkdirSync(dir);
    const q = mountDiskQuota(ws, dir, 8);
    try {
      assert.notEqual(q.mechanism, 'none');
      assert.ok(mountedAt(dir));
      assert.deepEqual(fs.readdirSync(ws).sort(), [QUOTA_DIR, OWNER_FILE].sort(), 'the image is not left beside the mount');
      const fd = fs.openSync(path.join(dir, 'big'), 'w');
      assert.throws(() => {
        for (let i = 0; i < 16; i++) fs.writeSync(fd, Buffer.alloc(1024 * 1024));
      }, /ENOSPC/);
      fs.closeSync(fd);
    } finally {
      q.release();
      q.release();
    }
    assert.ok(!mountedAt(dir));
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it('sweeps the mount of a workspace whose owner is gone, and leaves a live owner\'s alone', { skip: !root && 'needs root' }, () => {
    const make = (owner: number) => {
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-unit-'));
      const dir = path.join(ws, QUOTA_DIR);
      fs.mkdirSync(dir);
      mountDiskQuota(ws, dir, 8);
      fs.writeFileSync(path.join(ws, OWNER_FILE), String(owner));
      return { ws, dir };
    };
    // A pid that is certainly not running: above the kernel's pid_max.
    const dead = make(Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8')) + 1);
    const live = make(process.pid);
    sweepOrphanQuotas();
    assert.ok(!mountedAt(dead.dir) && !fs.existsSync(dead.ws));
    assert.ok(mountedAt(live.dir));
    fs.writeFileSync(path.join(live.ws, OWNER_FILE), String(Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8')) + 1));
    sweepOrphanQuotas();
    assert.ok(!mountedAt(live.dir));
  });
});

describe('copy-out', () => {
  it('copies top-level files first, skips files over either cap with the reason, and keeps later small ones', () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-unit-'));
    const dest = path.join(work, 'out');
    const files = [{ name: 'sub/a.bin', bytes: 400 }, { name: 'big.bin', bytes: 2000 }, { name: 'b.bin', bytes: 600 }, { name: 'submission.csv', bytes: 10 }];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(work, f.name)), { recursive: true });
      fs.writeFileSync(path.join(work, f.name), Buffer.alloc(f.bytes));
    }
    const out = copyOutFiles(work, files, dest, { maxFileBytes: 1000, maxTotalBytes: 1000 });
    assert.deepEqual(out.map((f) => f.name), files.map((f) => f.name), 'in the order given');
    const by = Object.fromEntries(out.map((f) => [f.name, f]));
    assert.match(by['big.bin'].notCopied!, /per-file cap/);
    assert.match(by['sub/a.bin'].notCopied!, /cap on all copied files/);
    assert.equal(by['b.bin'].path, path.join(dest, 'b.bin'));
    assert.ok(fs.existsSync(path.join(dest, 'submission.csv')));
    assert.ok(!fs.existsSync(path.join(dest, 'sub/a.bin')));
    fs.rmSync(work, { recursive: true, force: true });
  });
});
