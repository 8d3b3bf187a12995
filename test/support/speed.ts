/**
 * Budgets for work that computes, derived from how fast this machine runs right now. A test whose
 * notebook computes (a corpus notebook fitting models) must not pass or fail with the machine's
 * speed: its time budget is the work's time on the reference machine times the slowdown measured
 * here with a fixed calibration loop. Tests that need "longer than the budget" wait instead
 * (time.sleep), which takes the same time everywhere.
 */

/** The calibration loop's best time on the reference: one unloaded core of a 2020s x86 server. */
export const REFERENCE_MS = 100;

let measured: number | undefined;

/** The loop's best of 5 here, in ms: CPU throttling and competing processes show up in it. */
export function calibrationMs(): number {
  if (measured !== undefined) return measured;
  let best = Infinity;
  let x = 1;
  for (let k = 0; k < 5; k++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 5e7; i++) x = (Math.imul(x, 1664525) + 1013904223) | 0;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  // x is used so the loop cannot be optimised away.
  measured = best + (x === 0.5 ? 1 : 0);
  return measured;
}

/** How many times slower than the reference this machine is now (never below 1). */
export function slowdown(): number {
  return Math.max(1, calibrationMs() / REFERENCE_MS);
}

/** A budget in seconds for work that takes `referenceS` on the reference machine. */
export function calibratedS(referenceS: number): number {
  return Math.ceil(referenceS * slowdown());
}
