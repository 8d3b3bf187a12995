import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import {
  DEFAULT_MIRROR,
  archiveUris,
  isDebianArchiveUri,
  mirrorFromSources,
  readHostAptSources,
  resolveMirror,
} from '../../../src/executor/environment/mirror.js';

const DEB822 = `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
`;

test('deb822 .sources: the archive URI, not debian-security', () => {
  assert.deepEqual(archiveUris({ path: '/etc/apt/sources.list.d/debian.sources', text: DEB822 }), ['http://deb.debian.org/debian']);
});

test('deb822: disabled stanzas and deb-src only stanzas are skipped; continuation lines are read', () => {
  const text = `Types: deb-src
URIs: http://src.example.org/debian

Enabled: no
Types: deb
URIs: http://disabled.example.org/debian

Types: deb deb-src
URIs: http://security.debian.org/debian-security
 http://ftp.fr.debian.org/debian/
Suites: trixie
`;
  assert.deepEqual(archiveUris({ path: 'x.sources', text }), ['http://ftp.fr.debian.org/debian/']);
});

test('one-line .list: options in brackets, comments and third-party repos', () => {
  const text = `# deb http://commented.example.org/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/cloud.google.gpg] https://packages.cloud.google.com/apt cloud-sdk main
deb-src http://deb.debian.org/debian bookworm main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] https://mirror.example.net/debian bookworm main
deb http://deb.debian.org/debian bookworm main`;
  assert.deepEqual(archiveUris({ path: 'sources.list', text }), ['https://mirror.example.net/debian', 'http://deb.debian.org/debian']);
});

test('isDebianArchiveUri', () => {
  assert.ok(isDebianArchiveUri('http://deb.debian.org/debian'));
  assert.ok(isDebianArchiveUri('https://ftp.us.debian.org/debian/'));
  assert.ok(!isDebianArchiveUri('http://deb.debian.org/debian-security'));
  assert.ok(!isDebianArchiveUri('https://deb.nodesource.com/node_20.x'));
  assert.ok(!isDebianArchiveUri('file:/srv/debian'));
  assert.ok(!isDebianArchiveUri('cdrom:[Debian]/'));
});

test('mirrorFromSources takes the first file with an archive and strips the trailing slash', () => {
  const files = [
    { path: '/etc/apt/sources.list', text: '# empty\n' },
    { path: '/etc/apt/sources.list.d/a.list', text: 'deb http://ftp.de.debian.org/debian/ bookworm main\n' },
    { path: '/etc/apt/sources.list.d/debian.sources', text: DEB822 },
  ];
  assert.equal(mirrorFromSources(files), 'http://ftp.de.debian.org/debian');
  assert.equal(mirrorFromSources([{ path: 'x.list', text: 'deb https://deb.nodesource.com/node_20.x nodistro main' }]), undefined);
});

test('resolveMirror: explicit, then the host sources in apt order, then the default', () => {
  const etc = fs.mkdtempSync(path.join(os.tmpdir(), 'nbm-apt-'));
  try {
    assert.equal(resolveMirror(undefined, etc), DEFAULT_MIRROR);
    fs.mkdirSync(path.join(etc, 'sources.list.d'));
    fs.writeFileSync(path.join(etc, 'sources.list.d', 'b-debian.sources'), DEB822.replace('deb.debian.org/debian\n', 'mirror.b.example/debian\n'));
    fs.writeFileSync(path.join(etc, 'sources.list.d', 'a-nodesource.sources'), 'Types: deb\nURIs: https://deb.nodesource.com/node_20.x\n');
    fs.writeFileSync(path.join(etc, 'sources.list.d', 'c.list.disabled'), 'deb http://ignored.example/debian x main\n');
    assert.deepEqual(readHostAptSources(etc).map((f) => path.basename(f.path)), ['a-nodesource.sources', 'b-debian.sources']);
    assert.equal(resolveMirror(undefined, etc), 'http://mirror.b.example/debian');
    fs.writeFileSync(path.join(etc, 'sources.list'), 'deb http://first.example/debian bookworm main\n');
    assert.equal(resolveMirror(undefined, etc), 'http://first.example/debian');
    assert.equal(resolveMirror('http://explicit.example/debian/', etc), 'http://explicit.example/debian');
    assert.throws(() => resolveMirror('deb.debian.org', etc), /not a mirror URL/);
  } finally {
    fs.rmSync(etc, { recursive: true, force: true });
  }
});
