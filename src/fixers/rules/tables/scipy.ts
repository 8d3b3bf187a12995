/** SciPy removals (release notes 1.x "Expired deprecations") that scipy.ts does not cover. Checked in 1.15. */
import type { TableEntry } from '../table-rules.js';

const RN = (v: string) => `https://docs.scipy.org/doc/scipy/release/${v}-notes.html#expired-deprecations`;
const BI = (v: string) => `https://docs.scipy.org/doc/scipy/release/${v}-notes.html#backwards-incompatible-changes`;

/** A function that left its module for another name or place (old form: AttributeError or ImportError). */
const moved = (id: string, from: string, to: string, [deprecatedIn, removedIn]: [string, string], link: string, why: string, before: string, after: string, expect: string, beforeError = 'AttributeError'): TableEntry => ({
  kind: from.slice(from.lastIndexOf('.')) === to.slice(to.lastIndexOf('.')) ? 'move-symbol' : 'rename-function',
  id, library: 'scipy', removedIn, deprecatedIn, from, to, link,
  message: `${from} was removed in SciPy ${removedIn}: ${why}`,
  fixtures: [{ before, after, expect, beforeError }],
});

/** A keyword renamed (same meaning), removed in `removedIn`. */
const kwRenamed = (id: string, callees: string[], from: string, to: string, [deprecatedIn, removedIn]: [string, string], why: string, before: string, after: string, expect: string, values?: Record<string, string>): TableEntry => ({
  kind: 'rename-kwarg', id, library: 'scipy', removedIn, deprecatedIn, callees: callees.map((qname) => ({ qname })), from, to, ...(values ? { values } : {}),
  link: RN(`${removedIn}.0`),
  message: `${callees.map((c) => c.slice(c.lastIndexOf('.') + 1)).join('/')}(${from}=) was removed in SciPy ${removedIn}: ${why}`,
  fixtures: [{ before, after, expect, beforeError: 'TypeError' }],
});

/** Window functions left the scipy.signal namespace in 1.13 (they live in scipy.signal.windows since 1.1). */
const WINDOWS: Record<string, string> = {
  barthann: '5', bartlett: '5', blackman: '5', blackmanharris: '5', bohman: '5', boxcar: '5', chebwin: '5, 50', cosine: '5',
  exponential: '5', flattop: '5', gaussian: '5, 1.0', general_gaussian: '5, 1.5, 1.0', hamming: '5', hann: '5', kaiser: '5, 2.0',
  nuttall: '5', parzen: '5', triang: '5', tukey: '5',
};

export const scipyTable: TableEntry[] = [
  ...Object.entries(WINDOWS).map(([name, args]): TableEntry => ({
    kind: 'move-symbol', id: `scipy-signal-${name.replace(/_/g, '-')}`, library: 'scipy', removedIn: '1.13', deprecatedIn: '1.1',
    from: `scipy.signal.${name}`, to: `scipy.signal.windows.${name}`,
    link: RN('1.13.0'),
    message: `scipy.signal.${name} was removed in SciPy 1.13: use scipy.signal.windows.${name}`,
    fixtures: [{
      before: `from scipy import signal\nprint(len(signal.${name}(${args})))`,
      after: `from scipy import signal\nprint(len(signal.windows.${name}(${args})))`,
      expect: '5', beforeError: 'AttributeError',
    }],
  })),
  {
    kind: 'rename-function', id: 'scipy-linalg-pinv2', library: 'scipy', removedIn: '1.9', deprecatedIn: '1.7',
    from: 'scipy.linalg.pinv2', to: 'scipy.linalg.pinv',
    link: RN('1.9.0'),
    message: 'scipy.linalg.pinv2 was removed in SciPy 1.9: use scipy.linalg.pinv',
    fixtures: [{
      before: 'from scipy.linalg import pinv2\nprint(pinv2([[2.0]])[0][0])',
      after: 'from scipy.linalg import pinv as pinv2\nprint(pinv2([[2.0]])[0][0])',
      expect: '0.5', beforeError: 'ImportError',
    }],
  },
  ...(['tril', 'triu'] as const).map((name): TableEntry => ({
    kind: 'move-symbol', id: `scipy-linalg-${name}`, library: 'scipy', removedIn: '1.13', deprecatedIn: '1.11',
    from: `scipy.linalg.${name}`, to: `numpy.${name}`,
    link: RN('1.13.0'),
    message: `scipy.linalg.${name} was removed in SciPy 1.13: use numpy.${name}`,
    fixtures: [{
      before: `import scipy.linalg\nprint(scipy.linalg.${name}([[1, 2], [3, 4]]).tolist())`,
      after: `import numpy as np\nimport scipy.linalg\nprint(np.${name}([[1, 2], [3, 4]]).tolist())`,
      expect: name === 'tril' ? '[[1, 0], [3, 4]]' : '[[1, 2], [0, 4]]', beforeError: 'AttributeError',
    }],
  })),
  moved('scipy-stats-betai', 'scipy.stats.betai', 'scipy.special.betainc', ['0.17', '1.0'], BI('1.0.0'), 'use scipy.special.betainc (same arguments)',
    'from scipy import stats\nprint(stats.betai(2, 3, 0.5))', 'import scipy.special\nfrom scipy import stats\nprint(scipy.special.betainc(2, 3, 0.5))', '0.6875'),
  moved('scipy-stats-frechet-r', 'scipy.stats.frechet_r', 'scipy.stats.weibull_min', ['1.0', '1.6'], RN('1.6.0'), 'it was an alias of weibull_min',
    'from scipy import stats\nprint(round(stats.frechet_r.cdf(1.0, 2.0), 6))', 'from scipy import stats\nprint(round(stats.weibull_min.cdf(1.0, 2.0), 6))', '0.632121'),
  moved('scipy-stats-frechet-l', 'scipy.stats.frechet_l', 'scipy.stats.weibull_max', ['1.0', '1.6'], RN('1.6.0'), 'it was an alias of weibull_max',
    'from scipy import stats\nprint(round(stats.frechet_l.cdf(-1.0, 2.0), 6))', 'from scipy import stats\nprint(round(stats.weibull_max.cdf(-1.0, 2.0), 6))', '0.367879'),
  moved('scipy-misc-pade', 'scipy.misc.pade', 'scipy.interpolate.pade', ['1.0', '1.3'], BI('1.3.0'), 'use scipy.interpolate.pade',
    'from scipy.misc import pade\np, q = pade([1.0, 1.0, 0.5], 1)\nprint(p.coeffs.round(3).tolist(), q.coeffs.round(3).tolist())',
    'from scipy.interpolate import pade\np, q = pade([1.0, 1.0, 0.5], 1)\nprint(p.coeffs.round(3).tolist(), q.coeffs.round(3).tolist())', '[0.5, 1.0] [-0.5, 1.0]', 'ImportError'),
  moved('scipy-distance-matching', 'scipy.spatial.distance.matching', 'scipy.spatial.distance.hamming', ['1.0', '1.9'], RN('1.9.0'), 'it was an alias of hamming',
    'from scipy.spatial import distance\nprint(distance.matching([1, 0, 1, 1], [1, 1, 1, 0]))', 'from scipy.spatial import distance\nprint(distance.hamming([1, 0, 1, 1], [1, 1, 1, 0]))', '0.5'),
  moved('scipy-integrate-quadrature', 'scipy.integrate.quadrature', 'scipy.integrate.quad', ['1.12', '1.15'], RN('1.15.0'), 'use scipy.integrate.quad (it also returns (value, error estimate))',
    'import numpy as np\nfrom scipy import integrate\nprint(round(integrate.quadrature(np.cos, 0, np.pi / 2)[0], 6))', 'import numpy as np\nfrom scipy import integrate\nprint(round(integrate.quad(np.cos, 0, np.pi / 2)[0], 6))', '1.0'),
  ...(['lsim', 'impulse', 'step'] as const).map((name): TableEntry => moved(`scipy-signal-${name}2`, `scipy.signal.${name}2`, `scipy.signal.${name}`, ['1.11', '1.13'], RN('1.13.0'),
    `use scipy.signal.${name} (same system and time arguments; it solves the LTI system exactly instead of with odeint)`,
    `import numpy as np\nfrom scipy import signal\nout = signal.${name}2(([1.0], [1.0, 1.0])${name === 'lsim' ? ', U=np.ones(11), T=np.linspace(0, 5, 11)' : ', T=np.linspace(0, 5, 11)'})\nprint(round(float(out[1][-1]), 4))`,
    `import numpy as np\nfrom scipy import signal\nout = signal.${name}(([1.0], [1.0, 1.0])${name === 'lsim' ? ', U=np.ones(11), T=np.linspace(0, 5, 11)' : ', T=np.linspace(0, 5, 11)'})\nprint(round(float(out[1][-1]), 4))`,
    name === 'impulse' ? '0.0067' : '0.9933')),
  {
    kind: 'drop-kwarg', id: 'scipy-kendalltau-initial-lexsort', library: 'scipy', removedIn: '1.14', deprecatedIn: '1.10',
    callees: [{ qname: 'scipy.stats.kendalltau' }], kwarg: 'initial_lexsort', always: true,
    why: 'it only chose the sort used to count discordant pairs; the statistic and p-value did not depend on it',
    link: RN('1.14.0'),
    message: 'kendalltau(initial_lexsort=) was removed in SciPy 1.14 (it had no effect on the result)',
    fixtures: [{
      before: 'from scipy import stats\nprint(round(stats.kendalltau([1, 2, 3, 4], [1, 3, 2, 4], initial_lexsort=True)[0], 4))',
      after: 'from scipy import stats\nprint(round(stats.kendalltau([1, 2, 3, 4], [1, 3, 2, 4])[0], 4))',
      expect: '0.6667', beforeError: 'TypeError',
    }],
  },
  ...(['pinv', 'pinvh'] as const).flatMap((fn) => (['cond', 'rcond'] as const).map((kw) => kwRenamed(`scipy-linalg-${fn}-${kw}`, [`scipy.linalg.${fn}`], kw, 'rtol', ['1.7', '1.14'],
    `values below ${kw} times the largest singular value/eigenvalue were cut, which is rtol= (atol= defaults to 0)`,
    `import numpy as np\nfrom scipy import linalg\nprint(linalg.${fn}(np.diag([1.0, 1e-3]), ${kw}=1e-2).round(3).tolist())`,
    `import numpy as np\nfrom scipy import linalg\nprint(linalg.${fn}(np.diag([1.0, 1e-3]), rtol=1e-2).round(3).tolist())`, '[[1.0, 0.0], [0.0, 0.0]]'))),
  kwRenamed('scipy-linalg-eigh-eigvals', ['scipy.linalg.eigh', 'scipy.linalg.eigvalsh'], 'eigvals', 'subset_by_index', ['1.5', '1.14'], 'the (low, high) index range is subset_by_index=',
    'import numpy as np\nfrom scipy import linalg\nprint(linalg.eigh(np.diag([3.0, 1.0, 2.0]), eigvals=(1, 2))[0].tolist())',
    'import numpy as np\nfrom scipy import linalg\nprint(linalg.eigh(np.diag([3.0, 1.0, 2.0]), subset_by_index=(1, 2))[0].tolist())', '[2.0, 3.0]'),
  {
    kind: 'drop-kwarg', id: 'scipy-linalg-eigh-turbo', library: 'scipy', removedIn: '1.14', deprecatedIn: '1.5',
    callees: [{ qname: 'scipy.linalg.eigh' }, { qname: 'scipy.linalg.eigvalsh' }], kwarg: 'turbo', always: true,
    why: 'it only picked the divide-and-conquer LAPACK driver of generalized problems (the default driver gives the same eigenvalues)',
    link: RN('1.14.0'),
    message: 'eigh/eigvalsh(turbo=) was removed in SciPy 1.14 (a driver choice; driver= since 1.5)',
    fixtures: [{
      before: 'import numpy as np\nfrom scipy import linalg\nprint(linalg.eigh(np.diag([3.0, 1.0]), np.eye(2), turbo=True)[0].tolist())',
      after: 'import numpy as np\nfrom scipy import linalg\nprint(linalg.eigh(np.diag([3.0, 1.0]), np.eye(2))[0].tolist())',
      expect: '[1.0, 3.0]', beforeError: 'TypeError',
    }],
  },
  {
    ...kwRenamed('scipy-linalg-solve-sym-pos', ['scipy.linalg.solve'], 'sym_pos', 'assume_a', ['1.9', '1.11'], "sym_pos=True is assume_a='pos'",
      'from scipy import linalg\nprint(linalg.solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0], sym_pos=True).round(6).tolist())',
      "from scipy import linalg\nprint(linalg.solve([[2.0, 0.0], [0.0, 4.0]], [2.0, 2.0], assume_a='pos').round(6).tolist())", '[1.0, 0.5]', { True: "'pos'" }),
  },
  kwRenamed('scipy-signal-remez-hz', ['scipy.signal.remez'], 'Hz', 'fs', ['1.0', '1.14'], 'Hz= was the sampling frequency, fs=',
    'from scipy import signal\nprint(len(signal.remez(11, [0, 0.1, 0.2, 0.5], [1, 0], Hz=1.0)))',
    'from scipy import signal\nprint(len(signal.remez(11, [0, 0.1, 0.2, 0.5], [1, 0], fs=1.0)))', '11'),
];
