/**
 * Failure taxonomy: why a notebook does not reproduce, as exception class x cause. Derived from
 * the first error of the run (ename/evalue), the run status and the verdict. These notebooks ran
 * once for their authors, so an error in the fixed environment is read as a change of the
 * environment (removed API, missing library, Python 2, data layout) before anything else.
 */
import type { Verdict } from '../verdict.js';

export const CAUSES = {
  'missing-module': 'missing module',
  'unsupported-library': 'unsupported library',
  'removed-api': 'removed API',
  python2: 'Python 2 syntax',
  'data-path': 'data path',
  timeout: 'timeout',
  'kernel-death': 'kernel death',
  'score-drift': 'score drift',
  other: 'other error',
  // The tool could not evaluate the notebook (verdict "failed").
  'malformed-notebook': 'malformed notebook',
  'unsupported-kernel': 'non-Python kernel',
  'no-code': 'no code cells',
  'missing-data': 'data not provided',
  'sandbox-failure': 'sandbox failure',
  crashed: 'worker crashed',
  'llm-error': 'LLM provider failed',
} as const;
export type Cause = keyof typeof CAUSES;

export interface Taxonomy {
  /** The exception class (ename), or a pseudo-class for failures without one (Timeout, KernelDied, Drift). */
  exceptionClass: string;
  cause: Cause;
  /** The module, attribute or name involved, when the message names one. */
  subject?: string;
}

export interface EnvironmentFacts {
  /** Top-level modules that import in the environment (stdlib included). */
  modules: ReadonlySet<string>;
  /** Libraries deliberately not in the environment (environment.json "unavailable"). */
  unavailable: ReadonlySet<string>;
}

export interface TaxonomyInput {
  verdict: Verdict;
  /** Run status, or the reason the notebook could not be evaluated. */
  status: string;
  error?: { ename: string; evalue: string };
  /** The notebook was written for Python 2 (kernelspec / language_info). */
  python2?: boolean;
}

/** Python 2 modules that were renamed or merged in Python 3. */
const PY2_MODULES = new Set([
  'urllib2', 'urlparse', 'cPickle', 'StringIO', 'cStringIO', 'ConfigParser', 'Queue', 'HTMLParser', 'httplib',
  'Tkinter', 'tkMessageBox', 'commands', '__builtin__', 'copy_reg', 'sets', 'md5', 'sha', 'htmlentitydefs',
  'cookielib', 'SocketServer', 'xmlrpclib', 'anydbm', 'dbhash', 'thread', 'dummy_thread', 'repr', 'exceptions',
]);

/** Builtins that exist only in Python 2. */
const PY2_NAMES = new Set([
  'xrange', 'unicode', 'raw_input', 'reduce', 'basestring', 'long', 'unichr', 'file', 'execfile', 'cmp',
  'reload', 'apply', 'buffer', 'intern', 'coerce',
]);

const PY2_SYNTAX = [
  /Missing parentheses in call to '(print|exec)'/,
  /multiple exception types must be parenthesized/,
  /leading zeros in decimal integer literals/,
  /invalid hexadecimal literal|invalid decimal literal.*L\b/,
  /inconsistent use of tabs and spaces/,
];

const PY2_ATTRIBUTES = /has no attribute '(iteritems|itervalues|iterkeys|has_key|decode|letters|lowercase|uppercase|maketrans|next)'/;
const PY2_TYPES = /'(dict_keys|dict_values|dict_items|map|zip|filter)' object is not subscriptable|'range' object does not support item assignment|a bytes-like object is required, not 'str'/;
const SIGNATURE_CHANGE = /unexpected keyword argument|takes (from )?\d+( to \d+)? positional arguments? but \d+ (were|was) given|missing \d+ required (positional|keyword-only) argument|got multiple values for argument|keyword-only/;
const DATA_PATH = /No such file or directory|does not exist|FileNotFoundError|not found: ['"]?[^'"]*\.(csv|json|txt|zip|gz|parquet|xlsx?|pkl)/i;

function moduleOf(evalue: string): string | undefined {
  return /No module named '([^']+)'/.exec(evalue)?.[1];
}

export function classifyFailure(input: TaxonomyInput, env: EnvironmentFacts): Taxonomy | null {
  if (input.verdict === 'reproduced') return null;
  switch (input.status) {
    case 'malformed-notebook': return { exceptionClass: 'NotebookError', cause: 'malformed-notebook' };
    case 'unsupported-kernel': return { exceptionClass: 'NotebookError', cause: 'unsupported-kernel' };
    case 'no-code-cells': return { exceptionClass: 'NotebookError', cause: 'no-code' };
    case 'missing-data': return { exceptionClass: 'InputError', cause: 'missing-data' };
    case 'environment': return { exceptionClass: 'SandboxError', cause: 'sandbox-failure' };
    case 'crashed': return { exceptionClass: 'WorkerCrash', cause: 'crashed' };
    case 'llm-error': return { exceptionClass: 'LlmError', cause: 'llm-error' };
    case 'internal-error': return { exceptionClass: input.error?.ename ?? 'InternalError', cause: 'other' };
    case 'timeout': return { exceptionClass: 'Timeout', cause: 'timeout' };
    case 'budget-exceeded': return { exceptionClass: 'Timeout', cause: 'timeout' };
    case 'kernel-died': return { exceptionClass: 'KernelDied', cause: 'kernel-death' };
  }
  const e = input.error;
  if (!e) return input.status === 'ok' ? { exceptionClass: 'Drift', cause: 'score-drift' } : { exceptionClass: 'Unknown', cause: 'other' };
  return { exceptionClass: e.ename || 'Error', ...classifyError(e.ename, e.evalue, env, input.python2 ?? false) };
}

function classifyError(ename: string, evalue: string, env: EnvironmentFacts, python2: boolean): { cause: Cause; subject?: string } {
  switch (ename) {
    case 'ModuleNotFoundError':
    case 'ImportError': {
      const mod = moduleOf(evalue);
      if (mod) {
        const top = mod.split('.')[0]!;
        if (PY2_MODULES.has(top)) return { cause: 'python2', subject: mod };
        if (env.unavailable.has(top)) return { cause: 'unsupported-library', subject: mod };
        // The package is there but the submodule is gone: sklearn.cross_validation and friends.
        if (env.modules.has(top)) return { cause: 'removed-api', subject: mod };
        return { cause: 'missing-module', subject: mod };
      }
      const name = /cannot import name '([^']+)'/.exec(evalue)?.[1];
      if (name) return { cause: 'removed-api', subject: name };
      return { cause: 'missing-module' };
    }
    case 'SyntaxError':
    case 'IndentationError':
    case 'TabError':
      if (PY2_SYNTAX.some((r) => r.test(evalue)) || python2) return { cause: 'python2' };
      return { cause: 'other' };
    case 'NameError': {
      const name = /name '([^']+)' is not defined/.exec(evalue)?.[1];
      if (name && PY2_NAMES.has(name)) return { cause: 'python2', subject: name };
      return { cause: 'other', ...(name ? { subject: name } : {}) };
    }
    case 'AttributeError': {
      const attr = /has no attribute '([^']+)'/.exec(evalue)?.[1];
      if (PY2_ATTRIBUTES.test(evalue) && python2) return { cause: 'python2', ...(attr ? { subject: attr } : {}) };
      return { cause: 'removed-api', ...(attr ? { subject: attr } : {}) };
    }
    case 'OptionError':
      // pandas options that no longer exist ('display.height', 'display.mpl_style').
      return { cause: 'removed-api' };
    case 'FileNotFoundError':
      return { cause: 'data-path' };
    case 'OSError':
    case 'IOError':
      if (DATA_PATH.test(evalue)) return { cause: 'data-path' };
      // matplotlib styles renamed in 3.6 ('seaborn' -> 'seaborn-v0_8').
      if (/is not a valid package style/.test(evalue)) return { cause: 'removed-api', subject: /'([^']+)'/.exec(evalue)?.[1] ?? 'style' };
      return { cause: 'other' };
    case 'UsageError':
      // IPython magics that no longer exist or parse (%install_ext, "% matplotlib" with a space).
      if (/magic function .* not found/.test(evalue)) return { cause: 'removed-api' };
      return { cause: 'other' };
    case 'TypeError':
      if (PY2_TYPES.test(evalue)) return { cause: 'python2' };
      if (SIGNATURE_CHANGE.test(evalue)) return { cause: 'removed-api' };
      return { cause: 'other' };
    case 'ValueError':
    case 'KeyError':
      if (DATA_PATH.test(evalue)) return { cause: 'data-path' };
      return { cause: 'other' };
    default:
      if (DATA_PATH.test(evalue)) return { cause: 'data-path' };
      return { cause: 'other' };
  }
}

export function causeLabel(cause: string): string {
  return (CAUSES as Record<string, string>)[cause] ?? cause;
}
