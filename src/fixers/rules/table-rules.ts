/**
 * Table-driven rules: one interpreter turns change-record entries (a moved symbol, a renamed keyword,
 * a removed no-op keyword, a renamed option value, a renamed method) into `Rule`s, so a library's
 * removals are data mined from its release notes (tables/<library>.json), not code per case (like ruff's
 * NPY201, one rule driven by a table). Every entry carries its own before/after fixture, executed in
 * the fixed kernel by the sandbox fixture test like any hand-written rule.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { ErrorSignature, Fixture, Library, Rule, RuleGate, RuleMatch, TextEdit } from './types.js';
import { err, escapeRe, moveImportedNames, rule } from './helpers.js';
import { callArgs, kwValue, quoteOf, removeArgument, renameKeyword, replaceNode, stringValue } from './tree.js';
import { paramEntriesFor } from './param-dicts.js';

/**
 * What a method's receiver must be for the entry to apply statically. 'any': the method name alone
 * is distinctive enough (`legendHandles`); otherwise untyped receivers are rewritten only when a runtime
 * error of the entry's signature was seen (see `runtimeWidens`).
 */
export type ReceiverKind = 'pandas' | 'DataFrame' | 'Series' | 'estimator' | 'any';

/** A callee: a qualified function/class, or a method name on a receiver kind. */
export type Callee =
  | { qname: string }
  | { method: string; receiver: ReceiverKind };

interface EntryBase {
  /** Rule id (`<library-prefix>-<what>`), unique across all rules. */
  id: string;
  library: Library;
  /** Version in which the old form stopped working. */
  removedIn: string;
  deprecatedIn?: string;
  /** The change record (whatsnew page and anchor). */
  link: string;
  message: string;
  fixtures: Fixture[];
  /** Extra exception signatures (added to the defaults derived from the kind; for rename-method they replace them). */
  errors?: ErrorSignature[];
  /**
   * 'error': proposed only for a matching runtime error (rulesForError), for names too common to
   * rewrite on sight. Default 'static'.
   */
  trigger?: 'static' | 'error';
  /** Why the entry is written as it is (what a code comment would say in code). */
  note?: string;
}

/** `from a.b import Old` / `a.b.Old` / `alias.Old` -> the new importable name (also used for plain renames). */
export interface MoveSymbolEntry extends EntryBase {
  kind: 'move-symbol' | 'rename-function';
  /** Old qualified name, e.g. "sklearn.mixture.GMM". */
  from: string;
  /** New qualified name; "builtins.x" means the builtin `x`. */
  to: string;
}

/** `f(old=v)` -> `f(new=v)`; with `values`, the value is mapped too (`take_last=True` -> `keep='last'`). */
export interface RenameKwargEntry extends EntryBase {
  kind: 'rename-kwarg';
  callees: Callee[];
  from: string;
  to: string;
  /** Old literal (Python source: `True`, `None`, `'x'`) -> new literal source. Unlisted literals: report only. */
  values?: Record<string, string>;
}

/** A removed keyword whose removal keeps the behaviour: at `onlyValues` (literal source), or `always` (with why). */
export interface DropKwargEntry extends EntryBase {
  kind: 'drop-kwarg';
  callees: Callee[];
  kwarg: string;
  onlyValues?: string[];
  always?: true;
  /** Why dropping it does not change what the code does. */
  why: string;
}

/** A string option's new spelling (`criterion='mse'` -> `'squared_error'`), also in param-grid dicts. */
export interface ReplaceValueEntry extends EntryBase {
  kind: 'replace-value';
  callees: Callee[];
  kwarg: string;
  /** Old literal source -> new literal source (`"'auto'": "'balanced'"`, `"'none'": 'None'`). */
  values: Record<string, string>;
  /** Also rewrite `{'kwarg': [...]}` / `{'step__kwarg': ...}` dict entries (parameter grids, param dicts). */
  inDicts?: boolean;
  /** The parameter's place among the positional arguments (0: the first), when it may be passed that way (`to_dict('r')`). */
  position?: number;
}

/** `recv.old(...)` -> `recv.new(...)` (`new` may be a chain: `values.reshape`); `attribute` for non-call uses. */
export interface RenameMethodEntry extends EntryBase {
  kind: 'rename-method';
  receiver: ReceiverKind;
  from: string;
  to: string;
  /** The old name is an attribute (`leg.legendHandles`), not only a method call. */
  attribute?: boolean;
}

export type TableEntry = MoveSymbolEntry | RenameKwargEntry | DropKwargEntry | ReplaceValueEntry | RenameMethodEntry;

const last = (q: string) => q.slice(q.lastIndexOf('.') + 1);
const parentOf = (q: string) => (q.includes('.') ? q.slice(0, q.lastIndexOf('.')) : '');
const top = (q: string) => q.split('.')[0];

/** Usual local names for modules a rewrite may have to import. */
const PREFERRED_ALIAS: Record<string, string> = {
  numpy: 'np', pandas: 'pd', 'matplotlib.pyplot': 'plt', seaborn: 'sns', ast: 'ast', inspect: 'inspect', pickle: 'pickle',
};

/** Modules that other modules re-export as an attribute (`plt.cm` is `matplotlib.cm`): a moved name is also reached through them. */
const REEXPORTED_AS: Record<string, string[]> = {
  'matplotlib.cm': ['matplotlib.pyplot.cm', 'pylab.cm'],
};

const unexpectedKw = (kw: string) => err('TypeError', new RegExp(`unexpected keyword argument '${escapeRe(kw)}'`));

/** The literal's canonical source: strings as `'value'`, other literals as written (`True`, `None`, `1e-07`). */
function literalKey(node: SyntaxNode | undefined): string | undefined {
  if (!node) return undefined;
  const s = stringValue(node);
  if (s !== undefined) return `'${s}'`;
  if (['true', 'false', 'none', 'integer', 'float'].includes(node.type)) return node.text;
  if (node.type === 'unary_operator' && /^-\s*[\d.]/.test(node.text)) return node.text.replace(/\s+/g, '');
  return undefined;
}

/** Write a new literal, keeping the user's quote style when both old and new are strings. */
function literalText(old: SyntaxNode, to: string): string {
  const m = /^'(.*)'$/.exec(to);
  if (m && old.type === 'string') {
    const q = quoteOf(old);
    return `${q}${m[1]}${q.replace(/^[a-zA-Z]*/, '')}`;
  }
  return to;
}

/** Does the runtime error of this run (rulesForError) carry one of the entry's signatures? */
function runtimeWidens(ctx: CellContext, errors: ErrorSignature[]): boolean {
  const rt = ctx.nb.info.runtime;
  if (!rt || rt.failingCell !== ctx.index) return false;
  return errors.some((e) => (e.ename === rt.ename || (e.ename === 'ImportError' && rt.ename === 'ModuleNotFoundError')) && e.pattern.test(rt.evalue));
}

function receiverOk(ctx: CellContext, recv: SyntaxNode, kind: ReceiverKind, widened: boolean): boolean {
  // A module or class (`np.reshape`, `pd.DataFrame.x`) is never an instance receiver.
  if (ctx.qname(recv)) return false;
  if (kind === 'any' || widened) return true;
  const nb = ctx.nb;
  switch (kind) {
    case 'pandas': return nb.isPandasExpr(recv, ctx.index);
    case 'DataFrame': return nb.isDataFrameExpr(recv, ctx.index);
    case 'Series': return nb.isPandasExpr(recv, ctx.index) && !nb.isDataFrameExpr(recv, ctx.index);
    case 'estimator': {
      // `SVC().fit(...)`: a direct constructor call; named estimators need the runtime error.
      if (recv.type !== 'call') return false;
      const q = ctx.qname(recv.childForFieldName('function'));
      return !!q && top(q) === 'sklearn';
    }
  }
}

/** Calls matching the callees: qualified (any import path of the same package and name) or methods on a receiver kind. */
function* matchingCalls(ctx: CellContext, callees: Callee[], widened: boolean): Generator<SyntaxNode> {
  const seen = new Set<number>();
  const byName = new Map<string, Callee[]>();
  for (const c of callees) {
    const n = 'qname' in c ? last(c.qname) : c.method;
    byName.set(n, [...(byName.get(n) ?? []), c]);
  }
  for (const info of ctx.callsNamed(byName.keys())) {
    if (seen.has(info.call.startIndex)) continue;
    const q = ctx.qname(info.fn);
    const ok = (byName.get(info.name) ?? [...byName.values()].flat()).some((c) => {
      if ('qname' in c) {
        // Private or old module paths of the same package count (`sklearn.cluster._agglomerative.X`).
        return !!q && (q === c.qname || (top(q) === top(c.qname) && last(q) === last(c.qname)));
      }
      return !q && info.name === c.method && !!info.recv && receiverOk(ctx, info.recv, c.receiver, widened);
    });
    if (!ok) continue;
    seen.add(info.call.startIndex);
    yield info.call;
  }
}

function calleeText(c: Callee): string {
  if ('qname' in c) return last(c.qname);
  return `${c.receiver === 'any' ? 'obj' : c.receiver === 'estimator' ? 'est' : c.receiver === 'Series' ? 's' : 'df'}.${c.method}`;
}

// ---------------------------------------------------------------------------------------------
// Matchers per kind

function* findMoveSymbol(ctx: CellContext, e: MoveSymbolEntry): Generator<RuleMatch> {
  const builtin = e.to.startsWith('builtins.');
  const fromMod = parentOf(e.from);
  const toMod = parentOf(e.to);
  // `from old.mod import Old [as A]` -> `from new.mod import New as A` (uses keep their local name).
  if (!builtin) {
    yield* moveImportedNames(ctx, fromMod, { [last(e.from)]: { module: toMod, name: last(e.to) } });
  } else {
    for (const stmt of ctx.nodes('import_from_statement')) {
      if (stmt.childForFieldName('module_name')?.text.replace(/\s+/g, '') !== fromMod) continue;
      if (stmt.childrenForFieldName('name').some((n) => n && (n.type === 'aliased_import' ? n.childForFieldName('name')!.text : n.text) === last(e.from))) {
        yield { node: stmt, message: `${e.message} (remove it from this import and use the builtin ${last(e.to)})` };
      }
    }
  }
  // Attribute uses: `mixture.GMM`, `np.issubclass_`, `scipy.signal.hann`, `plt.cm.Vega10`.
  const reached = [e.from, ...(REEXPORTED_AS[fromMod] ?? []).map((m) => `${m}.${last(e.from)}`)];
  for (const { node } of ctx.attributesTo(reached)) {
    const obj = node.childForFieldName('object')!;
    const attr = node.childForFieldName('attribute')!;
    if (builtin) { yield { node, edits: [replaceNode(node, last(e.to))] }; continue; }
    if (toMod === fromMod) { yield { node, edits: [replaceNode(attr, last(e.to))] }; continue; }
    if (toMod.startsWith(fromMod + '.')) {
      // A public subpackage the old module loads (`scipy.signal.windows`): reach it through the user's alias.
      yield { node, edits: [replaceNode(node, `${obj.text}${toMod.slice(fromMod.length)}.${last(e.to)}`)] };
      continue;
    }
    const ref = ctx.moduleRef(toMod, PREFERRED_ALIAS[toMod] ?? toMod);
    if (!ref) { yield { node }; continue; }
    const edits: TextEdit[] = [replaceNode(node, `${ref.name}.${last(e.to)}`)];
    if (ref.edit) edits.push(ref.edit);
    yield { node, edits };
  }
}

function* findRenameKwarg(ctx: CellContext, e: RenameKwargEntry, widened: boolean): Generator<RuleMatch> {
  for (const call of matchingCalls(ctx, e.callees, widened)) {
    const args = callArgs(call);
    const kw = args?.keywords.get(e.from);
    if (!args || !kw) continue;
    if (args.keywords.has(e.to)) { yield { node: kw, message: `${e.message} (both ${e.from}= and ${e.to}= are given)` }; continue; }
    if (!e.values) { yield { node: kw, edits: [renameKeyword(kw, e.to)] }; continue; }
    const v = kwValue(kw)!;
    const to = e.values[literalKey(v) ?? ''];
    if (to === undefined) { yield { node: kw, message: `${e.message} (the value ${v.text} has no direct equivalent here)` }; continue; }
    yield { node: kw, edits: [replaceNode(kw, `${e.to}=${literalText(v, to)}`)] };
  }
}

function* findDropKwarg(ctx: CellContext, e: DropKwargEntry, widened: boolean): Generator<RuleMatch> {
  for (const call of matchingCalls(ctx, e.callees, widened)) {
    const args = callArgs(call);
    const kw = args?.keywords.get(e.kwarg);
    if (!args || !kw) continue;
    const key = literalKey(kwValue(kw));
    if (!e.always && !(key !== undefined && e.onlyValues?.includes(key))) {
      yield { node: kw, message: `${e.message} (the value ${kwValue(kw)?.text} changes behaviour: remove it by hand and check the result)` };
      continue;
    }
    yield { node: kw, edits: [removeArgument(args, kw, ctx.source)] };
  }
}

function* findReplaceValue(ctx: CellContext, e: ReplaceValueEntry, widened: boolean): Generator<RuleMatch> {
  const rewrite = function* (node: SyntaxNode | undefined): Generator<RuleMatch> {
    if (!node) return;
    if (node.type === 'list' || node.type === 'tuple') {
      for (const c of node.namedChildren) if (c) yield* rewrite(c);
      return;
    }
    const to = e.values[literalKey(node) ?? ''];
    if (to !== undefined) yield { node, edits: [replaceNode(node, literalText(node, to))] };
  };
  for (const call of matchingCalls(ctx, e.callees, widened)) {
    const args = callArgs(call);
    const kw = args?.keywords.get(e.kwarg);
    // A positional argument counts only before any splat (which could shift the places).
    yield* rewrite(kw ? kwValue(kw) : e.position !== undefined && args && !args.listSplat ? args.positional[e.position] : undefined);
  }
  if (!e.inDicts) return;
  for (const entry of paramEntriesFor(ctx, e.kwarg)) yield* rewrite(entry.value);
}

function* findRenameMethod(ctx: CellContext, e: RenameMethodEntry, widened: boolean): Generator<RuleMatch> {
  for (const info of ctx.attributesNamed([e.from])) {
    const isCall = info.node.parent?.type === 'call' && info.node.parent.childForFieldName('function')?.startIndex === info.node.startIndex;
    if (!isCall && !e.attribute) continue;
    // A chained target (`values.reshape`) is itself `<recv>.reshape`: do not rewrite it again.
    if (e.to.includes('.') && info.node.text.replace(/\s+/g, '').endsWith(`.${e.to}`)) continue;
    if (!receiverOk(ctx, info.obj, e.receiver, widened)) continue;
    yield { node: info.node, edits: [replaceNode(info.nameNode, e.to)] };
  }
}

// ---------------------------------------------------------------------------------------------

function defaultErrors(e: TableEntry): ErrorSignature[] {
  switch (e.kind) {
    case 'move-symbol':
    case 'rename-function': {
      const name = escapeRe(last(e.from));
      return [
        err('ImportError', new RegExp(`cannot import name '${name}' from '${escapeRe(parentOf(e.from))}'`)),
        err('AttributeError', new RegExp(`(has no attribute '${name}'|\`np\\.${name}\` was removed)`)),
      ];
    }
    case 'rename-kwarg': return [unexpectedKw(e.from)];
    case 'drop-kwarg': return [unexpectedKw(e.kwarg)];
    case 'replace-value': return [];
    case 'rename-method': return [err('AttributeError', new RegExp(`object has no attribute '${escapeRe(e.from)}'`))];
  }
}

/**
 * A dict-searching value entry whose old values are all strings runs only where one of them is
 * written: every match is such a literal (in a call or in a dict). Other entries: no gate.
 */
function literalGate(e: TableEntry): RuleGate | undefined {
  if (e.kind !== 'replace-value' || !e.inDicts) return undefined;
  const values = Object.keys(e.values).map((k) => /^'(.*)'$/.exec(k)?.[1]);
  return values.every((v) => v !== undefined) ? { literals: values as string[] } : undefined;
}

function describe(e: TableEntry): { title: string; old: string; new: string; triggers: string[] } {
  switch (e.kind) {
    case 'move-symbol':
    case 'rename-function':
      return { title: `${e.from} moved/renamed`, old: e.from, new: e.to.replace(/^builtins\./, ''), triggers: [last(e.from)] };
    case 'rename-kwarg': {
      const c = e.callees.map(calleeText).join(', ');
      const vals = e.values ? Object.entries(e.values).map(([a, b]) => `${e.from}=${a} -> ${e.to}=${b}`).join('; ') : '';
      return { title: `${e.from}= renamed to ${e.to}=`, old: `${c}(${e.from}=...)`, new: vals || `${c}(${e.to}=...)`, triggers: [e.from] };
    }
    case 'drop-kwarg': {
      const c = e.callees.map(calleeText).join(', ');
      const at = e.always ? '...' : (e.onlyValues ?? []).join('|');
      return { title: `${e.kwarg}= removed (no effect)`, old: `${c}(${e.kwarg}=${at})`, new: `${c}()`, triggers: [e.kwarg] };
    }
    case 'replace-value': {
      const c = e.callees.map(calleeText).join(', ');
      const vals = Object.entries(e.values);
      return {
        title: `${e.kwarg}= values renamed`,
        old: `${c}(${vals.map(([a]) => `${e.kwarg}=${a}`).join(' / ')})`,
        new: vals.map(([, b]) => `${e.kwarg}=${b}`).join(' / '),
        // Grid keys are strings, not identifiers: entries that look into dicts are gated by their values (literalGate).
        // A value that may be passed positionally has no keyword to look for: the callee's name is the trigger.
        triggers: e.inDicts ? [] : [e.kwarg, ...(e.position !== undefined ? e.callees.map((c) => ('method' in c ? c.method : last(c.qname))) : [])],
      };
    }
    case 'rename-method': {
      const r = e.receiver === 'any' ? 'obj' : e.receiver === 'Series' ? 's' : e.receiver === 'estimator' ? 'est' : 'df';
      const call = e.attribute ? '' : '()';
      return { title: `.${e.from} renamed to .${e.to}`, old: `${r}.${e.from}${call}`, new: `${r}.${e.to}${call}`, triggers: [e.from] };
    }
  }
}

/** One `Rule` per table entry. */
export function ruleFromEntry(e: TableEntry): Rule {
  // A method rename's default signature names only the method; an entry that gives its own
  // (`'OpenpyxlWriter' object has no attribute 'save'`) replaces it, other kinds add to the defaults.
  const errors = e.kind === 'rename-method' && e.errors ? e.errors : [...(e.errors ?? []), ...defaultErrors(e)];
  const d = describe(e);
  return rule({
    id: e.id,
    library: e.library,
    title: d.title,
    old: d.old,
    new: d.new,
    removedIn: e.removedIn,
    ...(e.deprecatedIn ? { deprecatedIn: e.deprecatedIn } : {}),
    errors,
    link: e.link,
    message: e.kind === 'drop-kwarg' ? `${e.message} (${e.why})` : e.message,
    ...(d.triggers.length ? { triggers: d.triggers } : {}),
    ...(literalGate(e) ? { gate: literalGate(e) } : {}),
    ...(e.trigger === 'error' ? { trigger: 'error' as const } : {}),
    fixtures: e.fixtures,
    *find(ctx: CellContext) {
      // With the failing run's error in hand (rulesForError), untyped receivers are accepted: the
      // exception already says which object lacks the old name.
      // Error-triggered entries run only after such an error was matched, so they are widened too.
      const widened = e.trigger === 'error' || runtimeWidens(ctx, errors);
      const matches: RuleMatch[] = [];
      switch (e.kind) {
        case 'move-symbol': case 'rename-function': matches.push(...findMoveSymbol(ctx, e)); break;
        case 'rename-kwarg': matches.push(...findRenameKwarg(ctx, e, widened)); break;
        case 'drop-kwarg': matches.push(...findDropKwarg(ctx, e, widened)); break;
        case 'replace-value': matches.push(...findReplaceValue(ctx, e, widened)); break;
        case 'rename-method': matches.push(...findRenameMethod(ctx, e, widened)); break;
      }
      yield* matches;
    },
  });
}

/** Rules for every entry of the given tables, in table order. */
export function tableRules(tables: readonly (readonly TableEntry[])[]): Rule[] {
  return tables.flat().map(ruleFromEntry);
}
