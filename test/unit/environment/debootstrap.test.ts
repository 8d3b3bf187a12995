import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  classifyDebootstrapFailure,
  debootstrapArgs,
  debootstrapPhase,
  type DebootstrapPhase,
} from '../../../src/executor/environment/debootstrap.js';
import { loadDefinition } from '../../../src/executor/environment/definition.js';

test('debootstrap command line', () => {
  const def = loadDefinition('debian13');
  const args = debootstrapArgs(def, '/c/rootfs', 'http://m/debian');
  assert.deepEqual(args.slice(0, 2), ['--variant=minbase', '--components=main']);
  assert.equal(args[2], `--include=${def.packages.join(',')}`);
  assert.deepEqual(args.slice(3), ['trixie', '/c/rootfs', 'http://m/debian']);
});

test('output lines map to forward-only phases', () => {
  const lines = [
    'I: Target architecture can be executed',
    'I: Retrieving InRelease ',
    'I: Checking Release signature',
    'I: Retrieving Packages ',
    'I: Validating Packages ',
    'I: Resolving dependencies of required packages...',
    'I: Checking component main on http://deb.debian.org/debian...',
    'I: Retrieving adduser 3.152',
    'I: Validating adduser 3.152',
    'I: Chosen extractor for .deb packages: dpkg-deb',
    'I: Extracting adduser...',
    'I: Installing core packages...',
    'I: Unpacking required packages...',
    'I: Configuring required packages...',
    'I: Configuring dpkg...',
    'I: Unpacking the base system...',
    'I: Configuring the base system...',
    'I: Configuring python3-zmq...',
    'I: Base system installed successfully.',
  ];
  const seen: DebootstrapPhase[] = [];
  let p: DebootstrapPhase | undefined;
  for (const l of lines) {
    p = debootstrapPhase(l, p);
    if (p && seen.at(-1) !== p) seen.push(p);
  }
  assert.deepEqual(seen, ['resolving', 'downloading', 'installing', 'configuring']);
  assert.equal(debootstrapPhase('random noise', 'downloading'), 'downloading');
  assert.equal(debootstrapPhase('I: Configuring dpkg...', 'installing'), 'installing', 'required packages are part of installing');
});

const OUTPUT_CONF_FAIL = `I: Configuring python3-zmq...
W: Failure while configuring base packages.  This will be re-attempted up to five times.
W: See /c/rootfs/debootstrap/debootstrap.log for details (possibly the package python3-zmq is at fault)
`;

const LOG_DEP_ONLY = `Setting up python3-numpy (1:2.2.4+ds-1) ...
dpkg: dependency problems prevent configuration of python3-zmq:
 python3-zmq depends on python3-cffi-backend-api-min (<= 9729); however:
  Package python3-cffi-backend-api-min is not installed.

dpkg: error processing package python3-zmq (--configure):
 dependency problems - leaving unconfigured
dpkg: dependency problems prevent configuration of python3-jupyter-client:
 python3-jupyter-client depends on python3-zmq; however:
  Package python3-zmq is not configured yet.

dpkg: error processing package python3-jupyter-client (--configure):
 dependency problems - leaving unconfigured
Errors were encountered while processing:
 python3-zmq
 python3-jupyter-client
`;

test('unresolved virtual dependencies at the configure stage are tolerated', () => {
  const v = classifyDebootstrapFailure(OUTPUT_CONF_FAIL, LOG_DEP_ONLY);
  assert.equal(v.tolerated, true);
  assert.deepEqual(v.unconfigured, ['python3-zmq', 'python3-jupyter-client']);
});

test('a failing maintainer script, a download error or a missing log is not tolerated', () => {
  const scriptFail = LOG_DEP_ONLY + `dpkg: error processing package fontconfig (--configure):
 installed fontconfig package post-installation script subprocess returned error exit status 1
`;
  assert.equal(classifyDebootstrapFailure(OUTPUT_CONF_FAIL, scriptFail).tolerated, false);
  assert.match(classifyDebootstrapFailure(OUTPUT_CONF_FAIL, scriptFail).reason, /fontconfig/);
  assert.equal(classifyDebootstrapFailure("E: Couldn't download packages: python3-numpy", LOG_DEP_ONLY).tolerated, false);
  assert.equal(classifyDebootstrapFailure(OUTPUT_CONF_FAIL, undefined).tolerated, false);
  assert.equal(classifyDebootstrapFailure(OUTPUT_CONF_FAIL, 'Setting up x ...\n').tolerated, false);
});
