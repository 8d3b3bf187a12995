/**
 * A drift the rules did not address, in a cell the code feeds from an unseeded draw (a forest
 * without random_state, train_test_split without one, sample(), np.random with no seed): the
 * author's value was one draw and this run's is another, even when two runs here agree. The drifted
 * cell's values are set aside as nondeterministic (listed, not judged) before any model is asked.
 * Only that cell's values: another fed cell's drift gets its own turn at the rules.
 */
import type { Notebook } from '../core/notebook.js';
import { unseededCells } from '../fixers/python/unseeded.js';
import type { FixDiagnosis } from './fixers.js';
import { failingValuesIn, type OracleVerdict } from './oracle/index.js';

export interface SetAside { cells: Array<{ cell: number; draw: string }>; unstable: string[] }

export class UnseededDrift {
  /** Code version + cell whose unseeded draws were already looked for (each is looked at once). */
  private readonly checked = new Set<string>();

  /** The values to set aside (also added to `unstable`), or undefined when the drift is not a draw's. */
  setAside(work: Notebook, codeKey: string, d: FixDiagnosis, verdict: () => OracleVerdict, unstable: Set<string>): SetAside | undefined {
    const at = `${codeKey}:${d.cell}`;
    if (d.fixType !== 'score-calibration' || this.checked.has(at)) return undefined;
    this.checked.add(at);
    const draws = unseededCells(work);
    if (!draws.has(d.cell)) return undefined;
    const keys = failingValuesIn(verdict(), new Set([d.cell]));
    if (!keys.length) return undefined;
    for (const k of keys) unstable.add(k);
    const cells = [...new Set(keys.map((k) => Number(k.split('|')[0])))].map((cell) => ({ cell, draw: draws.get(cell)! }));
    return { cells, unstable: keys };
  }
}
