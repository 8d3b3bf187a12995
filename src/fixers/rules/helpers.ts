/**
 * Building blocks shared by the rule files: renaming imported members (`np.float` -> `float`),
 * moving modules in import statements, renaming/removing keyword arguments of resolved calls,
 * renaming methods at their call sites, deleting statements, and the `rule()` constructor with defaults.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { ErrorSignature, Rule, RuleMatch, TextEdit } from './types.js';
import { callArgs, kwValue, removeArgument, renameKeyword, replaceNode, type Args } from './tree.js';

type RuleInput = Omit<Rule, 'errors' | 'autoFixable' | 'kind' | 'message'> &
  Partial<Pick<Rule, 'errors' | 'autoFixable' | 'kind' | 'message'>>;

export function rule(r: RuleInput): Rule {
  return {
    kind: 'error-repair',
    autoFixable: true,
    errors: [],
    message: `${r.title}: ${r.old} -> ${r.new}`,
    ...r,
  };
}

export const err = (ename: string, pattern: RegExp | string): ErrorSignature => ({
  ename,
  pattern: typeof pattern === 'string' ? new RegExp(escapeRe(pattern)) : pattern,
});

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Member renames on an imported module: `{ 'numpy.float': 'float' }` replaces the whole attribute
 * with `float`; a value starting with "." (e.g. ".nan") replaces only the member name, keeping the
 * user's alias (`np.NaN` -> `np.nan`). Also handles `from numpy import NaN` (the imported name and
 * the call sites that use it).
 */
export function* renameMembers(
  ctx: CellContext,
  map: Record<string, string | ((node: SyntaxNode, objText: string) => string)>,
  message?: (qname: string) => string,
): Generator<RuleMatch> {
  const keys = Object.keys(map);
  for (const { node, qname } of ctx.attributesTo(keys)) {
    // Skip the inner part of a longer chain that is itself renamed (np.float_ vs np.float).
    const obj = node.childForFieldName('object')!;
    const attr = node.childForFieldName('attribute')!;
    const spec = map[qname];
    let edit: TextEdit;
    if (typeof spec === 'function') edit = replaceNode(node, spec(node, obj.text));
    else if (spec.startsWith('.')) edit = replaceNode(attr, spec.slice(1));
    else edit = replaceNode(node, spec);
    yield { node, edits: [edit], message: message?.(qname) };
  }
}

/**
 * Rewrite module paths in imports: `moves` maps an old dotted module to a new one. Handles
 * `import a.b`, `import a.b as c`, `from a.b import x`, and fully dotted uses in code
 * (`sklearn.cross_validation.KFold` after `import sklearn`).
 */
export function* moveModules(ctx: CellContext, moves: Record<string, string>): Generator<RuleMatch> {
  const olds = Object.keys(moves).sort((a, b) => b.length - a.length);
  const target = (name: string): string | undefined => {
    for (const o of olds) if (name === o || name.startsWith(o + '.')) return moves[o] + name.slice(o.length);
    return undefined;
  };
  for (const stmt of ctx.nodes('import_statement')) {
    for (const item of stmt.childrenForFieldName('name')) {
      if (!item) continue;
      const dn = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
      if (!dn || dn.type !== 'dotted_name') continue;
      const t = target(dn.text);
      if (!t) continue;
      // `import a.b` binds `a`; keep uses `a.b.x` working by aliasing when the top name changes.
      if (item.type === 'dotted_name' && t.split('.')[0] !== dn.text.split('.')[0] && !dn.text.includes('.')) {
        yield { node: item, edits: [replaceNode(item, `${t} as ${dn.text}`)] };
      } else if (item.type === 'dotted_name' && dn.text.includes('.')) {
        // `import sklearn.cross_validation`: uses are written in full and rewritten below.
        yield { node: item, edits: [replaceNode(dn, t)] };
      } else {
        yield { node: item, edits: [replaceNode(dn, t)] };
      }
    }
  }
  for (const stmt of ctx.nodes('import_from_statement')) {
    const mod = stmt.childForFieldName('module_name');
    if (!mod || mod.type !== 'dotted_name') continue;
    const modName = mod.text.replace(/\s+/g, '');
    const t = target(modName);
    if (t) { yield { node: stmt, edits: [replaceNode(mod, t)] }; continue; }
    // `from sklearn import cross_validation`: the imported name is itself a moved module.
    const items = stmt.childrenForFieldName('name').filter((x): x is SyntaxNode => !!x);
    for (const it of items) {
      const name = it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text;
      const alias = it.type === 'aliased_import' ? it.childForFieldName('alias')!.text : name;
      const full = `${modName}.${name}`;
      if (!(full in moves)) continue;
      const to = moves[full];
      const parent = to.includes('.') ? to.slice(0, to.lastIndexOf('.')) : '';
      const last = to.slice(to.lastIndexOf('.') + 1);
      const asText = last === alias ? last : `${last} as ${alias}`;
      if (parent === modName) yield { node: it, edits: [replaceNode(it, asText)] };
      else if (items.length === 1) yield { node: stmt, edits: [replaceNode(stmt, parent ? `from ${parent} import ${asText}` : `import ${to}${to === alias ? '' : ` as ${alias}`}`)] };
      else yield { node: it };
    }
  }
  // Fully dotted uses in code.
  for (const node of ctx.nodes('attribute')) {
    const q = ctx.qname(node);
    if (!q || !(q in moves)) continue;
    // Only when written out in full from the top package (`sklearn.cross_validation`).
    if (node.text.replace(/\s+/g, '') !== q) continue;
    yield { node, edits: [replaceNode(node, moves[q])] };
  }
}

/**
 * Move single imported names: `from old import A` -> `from new import B as A` (or `B` when the
 * name is unchanged). With several names in one statement, the moved one is split off onto its own
 * line after the statement.
 */
export function* moveImportedNames(
  ctx: CellContext,
  fromModule: string,
  names: Record<string, { module: string; name?: string }>,
): Generator<RuleMatch> {
  for (const stmt of ctx.nodes('import_from_statement')) {
    const mod = stmt.childForFieldName('module_name');
    if (!mod || mod.text.replace(/\s+/g, '') !== fromModule) continue;
    const items = stmt.childrenForFieldName('name').filter((x): x is SyntaxNode => !!x);
    const moved = items.filter((it) => (it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text) in names);
    if (moved.length === 0) continue;
    const render = (it: SyntaxNode) => {
      const name = it.type === 'aliased_import' ? it.childForFieldName('name')!.text : it.text;
      const alias = it.type === 'aliased_import' ? it.childForFieldName('alias')!.text : name;
      const to = names[name];
      const newName = to.name ?? name;
      return { module: to.module, text: newName === alias ? newName : `${newName} as ${alias}` };
    };
    if (moved.length === items.length && new Set(moved.map((m) => names[m.type === 'aliased_import' ? m.childForFieldName('name')!.text : m.text].module)).size === 1) {
      const first = render(moved[0]);
      const list = moved.map((m) => render(m).text).join(', ');
      const paren = stmt.text.includes('(');
      yield {
        node: stmt,
        edits: [{ start: stmt.startIndex, end: stmt.endIndex, text: `from ${first.module} import ${paren ? `(${list})` : list}` }],
      };
      continue;
    }
    // Split: drop the moved names from this statement, add new import lines after it.
    const indent = lineIndent(ctx.source, stmt.startIndex);
    const keep = items.filter((it) => !moved.includes(it));
    const byModule = new Map<string, string[]>();
    for (const m of moved) {
      const r = render(m);
      byModule.set(r.module, [...(byModule.get(r.module) ?? []), r.text]);
    }
    const extra = [...byModule].map(([module, list]) => `\n${indent}from ${module} import ${list.join(', ')}`).join('');
    const modText = stmt.childForFieldName('module_name')!.text;
    const paren = stmt.text.includes('(');
    const keepText = keep.map((k) => k.text).join(', ');
    yield {
      node: stmt,
      edits: [{ start: stmt.startIndex, end: stmt.endIndex, text: `from ${modText} import ${paren ? `(${keepText})` : keepText}${extra}` }],
    };
  }
}

export function lineIndent(source: string, offset: number): string {
  const ls = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(ls, offset))![0];
}

/** Calls resolving to `qnames` (or methods named `methods` on any receiver) with keyword `kw`. */
export function* callsWithKeyword(
  ctx: CellContext,
  spec: { qnames?: Iterable<string>; methods?: Iterable<string>; anyCall?: boolean },
  kw: string,
): Generator<{ call: SyntaxNode; kw: SyntaxNode; value: SyntaxNode | undefined; qname?: string }> {
  const q = spec.qnames ? new Set(spec.qnames) : undefined;
  const m = spec.methods ? new Set(spec.methods) : undefined;
  for (const call of ctx.nodes('call')) {
    const args = callArgs(call);
    const k = args?.keywords.get(kw);
    if (!k) continue;
    const fn = call.childForFieldName('function');
    if (!fn) continue;
    let ok = !!spec.anyCall;
    let qname: string | undefined;
    if (q) {
      qname = ctx.qname(fn);
      if (qname && q.has(qname)) ok = true;
    }
    if (!ok && m) {
      const name = fn.type === 'attribute' ? fn.childForFieldName('attribute')?.text : fn.type === 'identifier' ? fn.text : undefined;
      if (name && m.has(name)) ok = true;
    }
    if (ok) yield { call, kw: k, value: kwValue(k), qname };
  }
}

/** A method call as `renameMethodCalls` shows it to its test: the call, its receiver, the old name, its arguments. */
export interface MethodCallSite { call: SyntaxNode; recv: SyntaxNode; name: string; args: Args | undefined }

/**
 * Renamed methods: every call `x.old(...)` of a method in `renames` (old name -> new name) that `when`
 * accepts (default: all) gets the new name, arguments kept. The finding is reported at the call, or
 * with `at: 'name'` at the method's name.
 */
export function* renameMethodCalls(
  ctx: CellContext,
  renames: Readonly<Record<string, string>>,
  when: (site: MethodCallSite) => boolean = () => true,
  at: 'call' | 'name' = 'call',
): Generator<RuleMatch> {
  for (const { call, recv, name, nameNode } of ctx.methodCalls(Object.keys(renames))) {
    if (!when({ call, recv, name, args: callArgs(call) })) continue;
    yield { node: at === 'name' ? nameNode : call, edits: [replaceNode(nameNode, renames[name])] };
  }
}

export function renameKw(kw: SyntaxNode, name: string): TextEdit {
  return renameKeyword(kw, name);
}

export function dropKw(ctx: CellContext, call: SyntaxNode, kw: SyntaxNode): TextEdit {
  return removeArgument(callArgs(call)!, kw, ctx.source);
}

/**
 * Delete a statement: its whole line(s) when it is alone on them and not the only statement of a
 * block; otherwise replace it with `pass`.
 */
export function deleteStatement(ctx: CellContext, stmt: SyntaxNode): TextEdit {
  const src = ctx.source;
  const parent = stmt.parent;
  const siblings = parent ? parent.namedChildren.filter((c) => c && c.type !== 'comment') : [];
  const lineStart = src.lastIndexOf('\n', stmt.startIndex - 1) + 1;
  let lineEnd = src.indexOf('\n', stmt.endIndex);
  if (lineEnd < 0) lineEnd = src.length;
  const alone = src.slice(lineStart, stmt.startIndex).trim() === '' && src.slice(stmt.endIndex, lineEnd).trim() === '';
  if (parent?.type === 'block' && siblings.length <= 1) return replaceNode(stmt, 'pass');
  if (!alone) return replaceNode(stmt, 'pass');
  return { start: lineStart, end: lineEnd < src.length ? lineEnd + 1 : lineEnd, text: '' };
}

/** `first cell index` using a free identifier `name` (for one-time import insertion). */
export function firstCellUsing(ctx: CellContext, name: string): number | undefined {
  return ctx.nb.identifiers(name)[0]?.cell;
}


/**
 * Replace `node` with `module.member` (the module alone without a member), under the notebook's
 * name for the module, importing it when the notebook does not; report-only when that name is taken.
 */
export function moduleMember(ctx: CellContext, node: SyntaxNode, module: string, member?: string): RuleMatch {
  const ref = ctx.moduleRef(module, module);
  if (!ref) return { node };
  return { node, edits: [replaceNode(node, member ? `${ref.name}.${member}` : ref.name), ...(ref.edit ? [ref.edit] : [])] };
}
