/**
 * Version gating. A rule applies when the environment's library version has reached the version
 * that removed (or changed) the old form; a score-calibration rule also needs the notebook's era
 * to predate the change (known from a hint, from the notebook's Python version, or from the old
 * APIs it uses: code importing `sklearn.cross_validation` was written against scikit-learn < 0.20).
 */
import semver from 'semver';
import type { EraHint, Library, Rule } from './types.js';

/** The fixed environment (debian13) as measured; used when no built environment reports versions. */
export const DEFAULT_ENV_VERSIONS: Readonly<Record<string, string>> = {
  python: '3.13.5',
  numpy: '2.2.4',
  pandas: '2.2.3',
  'scikit-learn': '1.4.2',
  matplotlib: '3.10.1',
  seaborn: '0.13.2',
  xgboost: '3.0.0',
  scipy: '1.15.3',
  statsmodels: '0.14.4',
};

/** Aliases seen in versions.json / pip names for our Library keys. */
const VERSION_KEYS: Record<string, Library> = {
  python: 'python', python3: 'python', numpy: 'numpy', pandas: 'pandas', 'scikit-learn': 'scikit-learn',
  sklearn: 'scikit-learn', matplotlib: 'matplotlib', seaborn: 'seaborn', xgboost: 'xgboost', scipy: 'scipy',
  statsmodels: 'statsmodels',
};

/** Normalise a versions map (any key spelling, Debian suffixes) to our library keys. */
export function normalizeVersions(raw: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...DEFAULT_ENV_VERSIONS };
  if (!raw) return out;
  for (const [k, v] of Object.entries(raw)) {
    const key = VERSION_KEYS[k.toLowerCase()] ?? VERSION_KEYS[k.toLowerCase().replace(/^python3?-/, '')];
    if (key && typeof v === 'string' && coerce(v)) out[key] = v;
  }
  return out;
}

export function coerce(v: string | undefined): semver.SemVer | null {
  if (!v) return null;
  return semver.coerce(v.replace(/^[0-9]+:/, ''));
}

const lessCache = new Map<string, boolean | undefined>();

/** a < b on coerced versions (undefined when either is not a version). Memoized: every scan asks it per rule. */
export function versionLess(a: string, b: string): boolean | undefined {
  const key = `${a}\u0000${b}`;
  if (lessCache.has(key)) return lessCache.get(key);
  const x = coerce(a);
  const y = coerce(b);
  const less = !x || !y ? undefined : semver.lt(x, y);
  if (lessCache.size < 10_000) lessCache.set(key, less);
  return less;
}

/** True when the environment has reached the version the rule is about. */
export function ruleAppliesToEnvironment(rule: Rule, env: Record<string, string>): boolean {
  const gate = rule.kind === 'score-calibration' ? rule.changedIn ?? rule.removedIn : rule.removedIn;
  if (!gate) return true;
  const have = env[rule.library];
  if (!have) return true;
  const less = versionLess(have, gate);
  return less === undefined ? true : !less;
}

/** Release dates of the versions rules gate on (for era hints given as dates). */
const RELEASE_DATES: Record<string, string> = {
  'scikit-learn@0.18': '2016-09-28',
  'scikit-learn@0.20': '2018-09-25',
  'scikit-learn@0.21': '2019-05-09',
  'scikit-learn@0.22': '2019-12-03',
  'scikit-learn@0.23': '2020-05-12',
  'scikit-learn@0.24': '2020-12-22',
  'scikit-learn@1.0': '2021-09-24',
  'scikit-learn@1.1': '2022-05-12',
  'scikit-learn@1.2': '2022-12-08',
  'scikit-learn@1.3': '2023-06-30',
  'scikit-learn@1.4': '2024-01-18',
  'pandas@0.20': '2017-05-05',
  'pandas@0.23': '2018-05-15',
  'pandas@1.0': '2020-01-29',
  'pandas@2.0': '2023-04-03',
  'numpy@1.24': '2022-12-18',
  'numpy@2.0': '2024-06-16',
  'xgboost@1.0': '2020-02-20',
  'xgboost@1.3': '2020-12-08',
  'xgboost@2.0': '2023-09-12',
  'scipy@1.11': '2023-06-25',
  'matplotlib@3.0': '2018-09-18',
  'seaborn@0.12': '2022-09-05',
  'statsmodels@0.13': '2021-10-01',
};

function releaseDate(lib: Library, version: string): string | undefined {
  const v = coerce(version);
  if (!v) return undefined;
  return RELEASE_DATES[`${lib}@${v.major}.${v.minor}`] ?? RELEASE_DATES[`${lib}@${v.major}.${v.minor}.${v.patch}`];
}

/**
 * Exclusive upper bounds of library versions implied by the notebook's Python version (the last
 * library releases that still supported it).
 */
const PYTHON_UPPER: Array<{ python: string; upper: Partial<Record<Library, string>> }> = [
  { python: '3.0', upper: { 'scikit-learn': '0.21', pandas: '0.25', numpy: '1.17', matplotlib: '3.0', seaborn: '0.10', xgboost: '1.0', scipy: '1.3', statsmodels: '0.12' } },
  { python: '3.5', upper: { 'scikit-learn': '0.21', pandas: '0.23', numpy: '1.17', matplotlib: '3.0', seaborn: '0.10', xgboost: '1.0', scipy: '1.3' } },
  { python: '3.6', upper: { 'scikit-learn': '0.23', pandas: '1.0', numpy: '1.19', matplotlib: '3.1', seaborn: '0.11', xgboost: '1.2', scipy: '1.5' } },
  { python: '3.7', upper: { 'scikit-learn': '1.0', pandas: '1.2', numpy: '1.20', matplotlib: '3.4', seaborn: '0.12', xgboost: '1.6', scipy: '1.6' } },
  { python: '3.8', upper: { 'scikit-learn': '1.1', pandas: '1.4', numpy: '1.22', matplotlib: '3.6', seaborn: '0.13', xgboost: '2.0', scipy: '1.8' } },
  { python: '3.9', upper: { 'scikit-learn': '1.4', pandas: '2.1', numpy: '1.25', xgboost: '2.1', scipy: '1.11' } },
];

/** Era.evidence's answer when nothing known decides. */
const NO_EVIDENCE = Symbol('no evidence');

export class Era {
  /** Exclusive upper bounds: the notebook's library version is known to be below these. */
  readonly upper: Partial<Record<Library, string>> = {};
  readonly reasons: Partial<Record<Library, string>> = {};

  constructor(readonly hint: EraHint = {}, pythonVersion?: string) {
    for (const [lib, b] of Object.entries(hint.bounds ?? {}) as Array<[Library, { version: string; reason: string }]>) this.bound(lib, b.version, b.reason);
    if (pythonVersion) {
      for (const row of PYTHON_UPPER) {
        if (versionLess(pythonVersion, row.python)) {
          for (const [lib, v] of Object.entries(row.upper) as Array<[Library, string]>) {
            this.bound(lib, v, `written for Python ${pythonVersion}`);
          }
          break;
        }
      }
    }
  }

  /** Record evidence that the notebook's `lib` is older than `version`. */
  bound(lib: Library, version: string, reason: string): void {
    const cur = this.upper[lib];
    if (!cur || versionLess(version, cur)) {
      this.upper[lib] = version;
      this.reasons[lib] = reason;
    }
  }

  /**
   * Does the notebook predate `lib`'s `version`? true/false when known, undefined when not.
   * Explicit versions win, then the date, then the inferred bounds.
   */
  predates(lib: Library, version: string): boolean | undefined {
    const known = this.evidence(lib, version);
    if (known !== NO_EVIDENCE) return known;
    return this.hint.unknownAsOld ? true : undefined;
  }

  /** predates() from evidence alone: never true because the era is unknown (hint.unknownAsOld). */
  knownToPredate(lib: Library, version: string): boolean {
    return this.evidence(lib, version) === true;
  }

  /** What the versions, the date and the bounds say, before any assumption about an unknown era. */
  private evidence(lib: Library, version: string): boolean | undefined | typeof NO_EVIDENCE {
    const exact = this.hint.versions?.[lib];
    if (exact) return versionLess(exact, version);
    if (this.hint.date) {
      const released = releaseDate(lib, version);
      if (released) return this.hint.date.slice(0, 10) < released;
    }
    const upper = this.upper[lib];
    return upper && !versionLess(version, upper) ? true : NO_EVIDENCE;
  }

  /** Why we believe the notebook predates `lib`'s `version` (for messages). */
  why(lib: Library, version: string): string {
    if (this.hint.versions?.[lib]) return `the notebook used ${lib} ${this.hint.versions[lib]}`;
    if (this.hint.date && releaseDate(lib, version)) return `the notebook was written on ${this.hint.date.slice(0, 10)}, before ${lib} ${version} (${releaseDate(lib, version)})`;
    if (this.reasons[lib] && this.upper[lib] && !versionLess(version, this.upper[lib]!)) return `${this.reasons[lib]} (so ${lib} < ${this.upper[lib]})`;
    return this.hint.unknownAsOld ? `era unknown: a candidate kept only if the stored outputs agree with its run` : 'unknown era';
  }
}
