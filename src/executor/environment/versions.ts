/**
 * The versions file: what is actually inside a built rootfs (Python, each listed library as it
 * imports, Debian release and package versions). Run results quote it, so it is measured, not assumed.
 */
import { z } from 'zod';
import type { ChrootSession } from './chroot.js';
import { SANDBOX_UID } from './rootfs-setup.js';

export interface EnvVersions {
  environment: string;
  hash: string;
  builtAt: string;
  /** /etc/debian_version */
  debian: string;
  python: string;
  /** distribution name -> version, null when it is not installed or does not import. */
  pythonModules: Record<string, string | null>;
  debPackages: Record<string, string>;
  /** nbmodernize version that built it. */
  tool: string;
}

export const EnvVersionsSchema = z.object({
  environment: z.string(),
  hash: z.string(),
  builtAt: z.string(),
  debian: z.string(),
  python: z.string(),
  pythonModules: z.record(z.string(), z.string().nullable()),
  debPackages: z.record(z.string(), z.string()),
  tool: z.string(),
});

const MARKER = 'NBM-VERSIONS ';

/**
 * Imports each module with its output swallowed (some print banners) and reports on one marked line,
 * so stray output at import time cannot corrupt the JSON.
 */
export const VERSION_SCRIPT = `
import contextlib, importlib, importlib.metadata as md, io, json, platform, sys
mods = json.loads(sys.argv[1])
out = {"python": platform.python_version(), "modules": {}, "errors": {}}
for dist, mod in mods.items():
    try:
        version = md.version(dist)
    except Exception as e:
        out["modules"][dist] = None
        out["errors"][dist] = "not installed (%s)" % e
        continue
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            importlib.import_module(mod)
        out["modules"][dist] = version
    except BaseException as e:
        out["modules"][dist] = None
        out["errors"][dist] = "import %s failed: %s: %s" % (mod, type(e).__name__, e)
sys.stdout.write("${MARKER}" + json.dumps(out) + "\\n")
`;

export interface PythonReport {
  python: string;
  modules: Record<string, string | null>;
  errors: Record<string, string>;
}

export function parsePythonReport(stdout: string): PythonReport {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`the version script printed no report: ${stdout.slice(-500)}`);
  const parsed = JSON.parse(line.slice(MARKER.length));
  return z
    .object({ python: z.string(), modules: z.record(z.string(), z.string().nullable()), errors: z.record(z.string(), z.string()) })
    .parse(parsed);
}

/** `dpkg-query -W -f '${Package}\t${Version}\t${db:Status-Abbrev}\n'` output -> installed package versions. */
export function parseDpkgQuery(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const [pkg, version, status] = line.split('\t');
    // "ii " = installed; anything else (config-files only, half-configured) is not usable.
    if (pkg && version && status?.startsWith('ii')) out[pkg.replace(/:[a-z0-9]+$/, '')] = version;
  }
  return out;
}

export const SCRATCH_HOME = '/tmp/nbm-versions';

/**
 * Runs the script as the sandbox uid, not root: a library that only imports as root (unreadable
 * files) would be broken in every sandbox, and root would leave caches in the rootfs.
 */
export async function measurePython(session: ChrootSession, modules: Record<string, string>): Promise<PythonReport> {
  const r = await session.exec(['/usr/bin/python3', '-c', VERSION_SCRIPT, JSON.stringify(modules)], {
    user: `${SANDBOX_UID}:${SANDBOX_UID}`,
    env: { HOME: SCRATCH_HOME, MPLBACKEND: 'Agg', MPLCONFIGDIR: `${SCRATCH_HOME}/mpl`, PYTHONDONTWRITEBYTECODE: '1' },
    captureStdout: true,
  });
  if (r.code !== 0) throw new Error(`python3 in the rootfs failed (exit ${r.code}): ${r.tail.slice(-5).join(' | ')}`);
  return parsePythonReport(r.stdout);
}

export async function dpkgVersions(session: ChrootSession): Promise<Record<string, string>> {
  const r = await session.exec(['dpkg-query', '-W', '-f', '${Package}\t${Version}\t${db:Status-Abbrev}\n'], { captureStdout: true });
  if (r.code !== 0) throw new Error(`dpkg-query failed (exit ${r.code}): ${r.tail.slice(-5).join(' | ')}`);
  return parseDpkgQuery(r.stdout);
}
