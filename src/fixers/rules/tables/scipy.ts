/** SciPy removals (release notes 1.x "Expired deprecations") that scipy.ts does not cover. Checked in 1.15. */
import type { TableEntry } from '../table-rules.js';

const RN = (v: string) => `https://docs.scipy.org/doc/scipy/release/${v}-notes.html#expired-deprecations`;

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
];
