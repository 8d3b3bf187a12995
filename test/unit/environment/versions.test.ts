import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mountsUnder } from '../../../src/executor/environment/chroot.js';
import { parseDpkgQuery, parsePythonReport } from '../../../src/executor/environment/versions.js';

test('the python report is found among noise printed at import time', () => {
  const out = 'some banner\nNBM-VERSIONS {"python": "3.13.5", "modules": {"numpy": "2.2.4", "lightgbm": null}, "errors": {"lightgbm": "not installed"}}\ntrailing\n';
  const r = parsePythonReport(out);
  assert.equal(r.python, '3.13.5');
  assert.deepEqual(r.modules, { numpy: '2.2.4', lightgbm: null });
  assert.throws(() => parsePythonReport('Traceback ...'), /printed no report/);
});

test('dpkg-query output keeps installed packages only', () => {
  const out = 'python3\t3.13.5-1\tii \npython3-numpy\t1:2.2.4+ds-1\tii \nold-thing\t1.0\trc \nlibc6:amd64\t2.41-12\tii \nhalf\t1\tiF \n';
  assert.deepEqual(parseDpkgQuery(out), { python3: '3.13.5-1', 'python3-numpy': '1:2.2.4+ds-1', libc6: '2.41-12' });
});

test('mountsUnder: strictly below the dir, deepest first, octal escapes decoded', () => {
  const info = [
    '22 1 8:1 / / rw,relatime - ext4 /dev/vda rw',
    '90 22 0:5 / /cache/envs/.tmp-x/rootfs/proc rw - proc proc rw',
    '91 22 0:6 / /cache/envs/.tmp-x/rootfs/dev rw - devtmpfs udev rw',
    '92 91 0:7 / /cache/envs/.tmp-x/rootfs/dev/pts rw - devpts devpts rw',
    '93 22 0:8 / /cache/envs/.tmp-x/rootfs rw - ext4 /dev/vdb rw',
    '94 22 0:9 / /cache/envs/.tmp-x/rootfs2/proc rw - proc proc rw',
    '95 22 0:10 / /with\\040space/rootfs/proc rw - proc proc rw',
  ].join('\n');
  assert.deepEqual(mountsUnder('/cache/envs/.tmp-x/rootfs/', info), [
    '/cache/envs/.tmp-x/rootfs/dev/pts',
    '/cache/envs/.tmp-x/rootfs/proc',
    '/cache/envs/.tmp-x/rootfs/dev',
  ]);
  assert.deepEqual(mountsUnder('/with space/rootfs', info), ['/with space/rootfs/proc']);
});
