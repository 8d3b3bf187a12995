/**
 * A rule whose repair is a shim after the notebook's first import of a library, proposed only when a
 * runtime TypeError's traceback passes through one frame of that library: behaviour that depended on
 * the data (which columns an old release dropped), so no call can be rewritten ahead of the run.
 * pandas-list-agg-nuisance.ts and pandas-transform-nuisance.ts are two of them.
 */
import type { Library, Rule } from './types.js';
import { err, rule } from './helpers.js';
import { importOf, shimAfterImport, type ShimSpec } from './import-shim.js';

export interface TracebackShimSpec {
  id: string;
  library: Library;
  /** The package whose first import the shim follows (and whose name triggers the rule). */
  pkg: string;
  title: string;
  old: string;
  new: string;
  removedIn: string;
  deprecatedIn: string;
  link: string;
  message: string;
  /** The shim's marker name and its text. */
  mark: string;
  shim: string;
  /** A traceback line of the library frame the old behaviour lived in. */
  frame: RegExp;
  /** The fixture: code that fails today (its first line the import), what it prints with the shim, the error it raises. */
  fixture: { code: string; expect: string; evalue: string; tracebackLine: string };
}

export function tracebackShimRule(spec: TracebackShimSpec): Rule {
  const shim: ShimSpec = { mark: spec.mark, text: spec.shim, qualifies: importOf(spec.pkg) };
  const [first, ...rest] = spec.fixture.code.split('\n');
  return rule({
    id: spec.id,
    // The shim goes into the cell of the first import: the rule must run there.
    triggers: [spec.pkg],
    library: spec.library,
    title: spec.title,
    old: spec.old,
    new: spec.new,
    removedIn: spec.removedIn,
    deprecatedIn: spec.deprecatedIn,
    trigger: 'error',
    errors: [err('TypeError', /.*/)],
    errorScope: 'notebook',
    shim: true,
    link: spec.link,
    message: spec.message,
    fixtures: [{
      before: spec.fixture.code,
      after: [first, spec.shim, ...rest].join('\n'),
      expect: spec.fixture.expect,
      beforeError: 'TypeError',
      context: { runtime: { ename: 'TypeError', evalue: spec.fixture.evalue, traceback: [spec.fixture.tracebackLine] } },
    }],
    *find(ctx) {
      const rt = ctx.nb.info.runtime;
      if (!rt || !rt.traceback.some((l) => spec.frame.test(l))) return;
      const m = shimAfterImport(ctx, shim);
      if (m) yield m;
    },
  });
}
