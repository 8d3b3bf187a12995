/** Running debootstrap: its command line, its progress as build phases, and the one failure we accept. */
import type { EnvDefinition } from './definition.js';

export function debootstrapArgs(def: EnvDefinition, target: string, mirror: string): string[] {
  return [
    `--variant=${def.variant}`,
    `--components=${def.components.join(',')}`,
    `--include=${def.packages.join(',')}`,
    def.suite,
    target,
    mirror,
  ];
}

export type DebootstrapPhase = 'resolving' | 'downloading' | 'installing' | 'configuring';
const ORDER: DebootstrapPhase[] = ['resolving', 'downloading', 'installing', 'configuring'];

/**
 * The phase a debootstrap output line belongs to. Phases only move forward: "Validating" shows up
 * both for the index files and for each downloaded package.
 */
export function debootstrapPhase(line: string, current: DebootstrapPhase | undefined): DebootstrapPhase | undefined {
  let phase: DebootstrapPhase | undefined;
  // Required packages are unpacked and configured before the base ones; "configuring" is the base
  // system's configure run, where most of the time goes (byte-compiling the Python stack).
  if (/^I: Configuring the base system/.test(line)) phase = 'configuring';
  else if (/^I: (Extracting|Unpacking|Installing core|Configuring)/.test(line)) phase = 'installing';
  else if (/^I: Retrieving (?!(InRelease|Release|Packages)\b)/.test(line)) phase = 'downloading';
  else if (/^I: (Retrieving|Validating|Checking|Valid Release|Resolving|Found|Target architecture)/.test(line)) phase = 'resolving';
  if (!phase) return current;
  if (current && ORDER.indexOf(phase) < ORDER.indexOf(current)) return current;
  return phase;
}

export const PHASE_MESSAGES: Record<DebootstrapPhase, string> = {
  resolving: 'resolving package dependencies',
  downloading: 'downloading packages',
  installing: 'unpacking packages',
  configuring: 'configuring the packages',
};

export interface FailureVerdict {
  tolerated: boolean;
  /** Packages dpkg left unconfigured. */
  unconfigured: string[];
  reason: string;
}

/**
 * debootstrap does not resolve virtual packages, so a package depending on one (python3-zmq needs
 * python3-cffi-backend-api-*) stays unconfigured and debootstrap exits non-zero at its very last
 * step. That is repaired by the definition's postInstall commands. Accepted only when debootstrap
 * got as far as configuring and every dpkg error is a dependency problem: a failing maintainer
 * script, a download or unpack error is real.
 */
export function classifyDebootstrapFailure(output: string, debootstrapLog: string | undefined): FailureVerdict {
  const unconfigured: string[] = [];
  if (!/Failure while configuring base packages/.test(output)) {
    return { tolerated: false, unconfigured, reason: 'debootstrap failed before the configure stage' };
  }
  if (!debootstrapLog) return { tolerated: false, unconfigured, reason: 'no debootstrap.log to tell why configuring failed' };
  const lines = debootstrapLog.split('\n');
  const others: string[] = [];
  lines.forEach((line, i) => {
    const m = /^dpkg: error processing package (\S+) \(--configure\):/.exec(line);
    if (!m) return;
    if (/dependency problems/.test(lines[i + 1] ?? '')) unconfigured.push(m[1]);
    else others.push(`${m[1]}: ${(lines[i + 1] ?? '').trim()}`);
  });
  const unique = [...new Set(unconfigured)];
  if (others.length) return { tolerated: false, unconfigured: unique, reason: `packages failed to configure: ${others.join('; ')}` };
  if (!unique.length) return { tolerated: false, unconfigured: unique, reason: 'configuring failed without a dpkg error to explain it' };
  return { tolerated: true, unconfigured: unique, reason: `left unconfigured (unresolved virtual dependencies): ${unique.join(', ')}` };
}

/**
 * What debootstrap skips when it stops at the configure stage, done after postInstall: put the real
 * start-stop-daemon back, drop its policy-rc.d and its work directory.
 */
export const DEBOOTSTRAP_TAIL = [
  'if [ -e /sbin/start-stop-daemon.REAL ]; then mv /sbin/start-stop-daemon.REAL /sbin/start-stop-daemon; fi',
  'rm -f /usr/sbin/policy-rc.d',
  'if [ -e /debootstrap/debootstrap.log ]; then mv /debootstrap/debootstrap.log /var/log/bootstrap.log; fi',
  'rm -rf /debootstrap',
].join('\n');
