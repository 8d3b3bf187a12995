/**
 * Truthful drift: a value that changes between two clean runs of the same code in the same
 * environment is not a result the notebook reproduces or fails to reproduce; it is nondeterministic
 * (unseeded randomness, timings in whatever format, set or hash ordering, wall-clock dates). When a
 * drift would decide the verdict, the loop runs the notebook once more from a fresh kernel and
 * compares the two runs: values that differ between them are listed as unjudged (with the reason),
 * and the verdict rests on the rest.
 *
 * Why by re-running rather than by recognising formats: a timing or an unseeded score has no
 * reliable textual signature, but it always has this one.
 */
import type { Comparison, OracleVerdict, UnjudgedReason } from './types.js';

/** Identity of a compared value across two runs of the same notebook (its n-th occurrence). */
function keys(comparisons: readonly Comparison[]): string[] {
  const seen = new Map<string, number>();
  return comparisons.map((c) => {
    const base = [c.cell, c.context ?? '', c.row ?? '', c.column ?? '', c.original].join('|');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}#${n}`;
  });
}

/**
 * The failing values of these cells, keyed as unstableValues keys them: values the code shows are
 * drawn from unseeded randomness (fixers/python/unseeded.ts), set aside like unstable ones.
 */
export function failingValuesIn(v: OracleVerdict, cells: ReadonlySet<number>): string[] {
  const ks = keys(v.comparisons);
  return v.comparisons.flatMap((c, i) => (!c.ok && !c.outOfOrder && c.cell !== null && cells.has(c.cell) ? [ks[i]!] : []));
}

/** Values whose new number differs between two clean runs (a value present in only one run counts too). */
export function unstableValues(a: OracleVerdict, b: OracleVerdict): Set<string> {
  const ka = keys(a.comparisons);
  const kb = keys(b.comparisons);
  const inB = new Map(kb.map((k, i) => [k, b.comparisons[i]]));
  const out = new Set<string>();
  ka.forEach((k, i) => {
    const other = inB.get(k);
    if (!other || !sameNumber(a.comparisons[i].new, other.new)) out.add(k);
  });
  for (const k of kb) if (!ka.includes(k)) out.add(k);
  return out;
}

function sameNumber(x: number | null, y: number | null): boolean {
  if (x === null || y === null) return x === y;
  return x === y || Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y));
}

/**
 * The verdict with nondeterministic values set aside: they are marked `unjudged` and no longer fail
 * it. A notebook whose only failures were such values matches; its remaining comparisons decide.
 */
export function excuseUnstable(v: OracleVerdict, unstable: ReadonlySet<string>, reasons?: ReadonlyMap<string, UnjudgedReason>): OracleVerdict {
  if (!unstable.size) return v;
  const ks = keys(v.comparisons);
  let excused = 0;
  const comparisons: Comparison[] = v.comparisons.map((c, i) => {
    if (!unstable.has(ks[i])) return c;
    if (!c.ok) excused += 1;
    return { ...c, ok: true, unjudged: reasons?.get(ks[i]) ?? 'nondeterministic' };
  });
  if (!excused) return { ...v, comparisons };
  const stillFailing = comparisons.filter((c) => !c.ok && !c.outOfOrder);
  const failingCells = new Set(((v.details.cellsFailing as number[] | undefined) ?? []));
  const excusedCells = new Set(comparisons.filter((c) => c.unjudged && c.cell !== null).map((c) => c.cell!));
  // A cell fails for reasons other than numbers (numbers missing): only excused when all its numbers were unstable.
  const otherFailures = [...failingCells].filter((cell) => !excusedCells.has(cell) || stillFailing.some((c) => c.cell === cell));
  const judgedLeft = comparisons.some((c) => !c.unjudged);
  const matches = stillFailing.length === 0 && otherFailures.length === 0 && (judgedLeft || v.oracle !== 'expected-score');
  return {
    ...v,
    matches: v.matches || matches,
    comparisons,
    details: { ...v.details, unjudged: comparisons.filter((c) => c.unjudged).length, reasonUnjudged: 'nondeterministic: values that differ between two clean runs from a fresh kernel, or that the code draws from unseeded randomness; ill-conditioned: values of a least-squares fit of a nearly singular design; tie: labels picked among equal quantities (the quantity is judged)' },
  };
}
