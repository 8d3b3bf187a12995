/**
 * Which Debian archive debootstrap downloads from. The host's own apt sources are the best guess:
 * they are what this machine is known to reach (a local mirror, a proxy, a snapshot).
 */
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from '../../core/errors.js';

export const DEFAULT_MIRROR = 'http://deb.debian.org/debian';

export interface AptSourceFile {
  path: string;
  text: string;
}

/** URIs of the main archive in one apt source file, one-line (.list) or deb822 (.sources) format. */
export function archiveUris(file: AptSourceFile): string[] {
  const uris = file.path.endsWith('.sources') ? deb822Uris(file.text) : oneLineUris(file.text);
  return uris.filter(isDebianArchiveUri);
}

function oneLineUris(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    // deb [arch=amd64 signed-by=...] URI suite components
    const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

function deb822Uris(text: string): string[] {
  const out: string[] = [];
  // Stanzas are separated by blank lines; one with "Enabled: no" or without a binary "deb" type is skipped.
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last = '';
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#')) continue;
      if (/^\s/.test(raw) && last) {
        fields.set(last, `${fields.get(last)} ${raw.trim()}`);
        continue;
      }
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(raw);
      if (m) {
        last = m[1].toLowerCase();
        fields.set(last, m[2].trim());
      }
    }
    if ((fields.get('enabled') ?? 'yes').toLowerCase() === 'no') continue;
    if (!(fields.get('types') ?? '').split(/\s+/).includes('deb')) continue;
    out.push(...(fields.get('uris') ?? '').split(/\s+/).filter(Boolean));
  }
  return out;
}

/**
 * A plain http(s) URI whose path ends in /debian, like http://deb.debian.org/debian or a mirror's
 * http://ftp.fr.debian.org/debian/. debian-security, ports, third-party repos and file: URIs don't
 * carry the full suite.
 */
export function isDebianArchiveUri(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return /\/debian\/?$/.test(url.pathname);
}

/** The first archive URI among the files, in apt's own reading order, without a trailing slash. */
export function mirrorFromSources(files: AptSourceFile[]): string | undefined {
  for (const f of files) {
    const uri = archiveUris(f)[0];
    if (uri) return uri.replace(/\/+$/, '');
  }
  return undefined;
}

/** /etc/apt/sources.list then sources.list.d/*.list and *.sources sorted by name, like apt. */
export function readHostAptSources(etcApt = '/etc/apt'): AptSourceFile[] {
  const files: AptSourceFile[] = [];
  const read = (p: string) => {
    try {
      files.push({ path: p, text: fs.readFileSync(p, 'utf8') });
    } catch {
      // unreadable or vanished: apt would skip it as well
    }
  };
  read(path.join(etcApt, 'sources.list'));
  const dir = path.join(etcApt, 'sources.list.d');
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    names = [];
  }
  for (const n of names.filter((n) => n.endsWith('.list') || n.endsWith('.sources')).sort()) read(path.join(dir, n));
  return files;
}

export function resolveMirror(explicit?: string, etcApt?: string): string {
  if (explicit) {
    if (!/^https?:\/\/[^\s]+$/.test(explicit)) {
      throw new EnvironmentError(`not a mirror URL: ${explicit}`, `use e.g. --mirror ${DEFAULT_MIRROR}`);
    }
    return explicit.replace(/\/+$/, '');
  }
  return mirrorFromSources(readHostAptSources(etcApt)) ?? DEFAULT_MIRROR;
}
