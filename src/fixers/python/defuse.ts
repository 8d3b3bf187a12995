/**
 * Def-use analysis of a notebook with tree-sitter: for every code cell, the module-level names
 * it defines, the names it uses from outside itself, the names it mutates in place, and what it
 * imports. Scoping follows Python closely enough for context selection: function parameters and
 * locals, comprehension variables and class bodies do not leak; `global` declarations do; a name
 * used inside a function body is a (deferred) use of the cell.
 */
import { parsePython, type SyntaxNode } from './parser.js';
import type { Notebook } from '../../core/notebook.js';
import { sourceText } from '../../core/notebook.js';
import { maskIPythonLines } from './ipython.js';

export interface ImportRecord {
  /** Full dotted module, e.g. "sklearn.cross_validation". */
  module: string;
  /** Top-level package, e.g. "sklearn". */
  top: string;
  /** The local name bound ("*" for a star import). */
  bound: string;
}

export interface CellDefUse {
  /** Position in notebook.cells. */
  cell: number;
  /** Module-level names bound by the cell (assignments, for/with/except targets, imports, def/class, global). */
  defines: string[];
  /** Names read before (or without) being bound in the cell, incl. free names of functions it defines. */
  uses: string[];
  /** The part of `uses` read only inside function bodies: needed when the function is called, not when the cell runs. */
  deferred: string[];
  /** Names changed in place: attribute/subscript assignment, in-place methods (fit, append, inplace=True). */
  mutates: string[];
  imports: ImportRecord[];
  /** tree-sitter found syntax errors (the lists are then best effort). */
  hasSyntaxErrors: boolean;
}

export interface NotebookDefUse {
  cells: CellDefUse[];
  byCell: Map<number, CellDefUse>;
}

export const PY_BUILTINS: ReadonlySet<string> = new Set(
  ('abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod ' +
    'enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass ' +
    'iter len list locals map max memoryview min next object oct open ord pow print property range repr reversed round set ' +
    'setattr slice sorted staticmethod str sum super tuple type vars zip __import__ __name__ __file__ __doc__ __builtins__ ' +
    'True False None NotImplemented Ellipsis ArithmeticError AssertionError AttributeError BaseException BufferError EOFError ' +
    'Exception FileExistsError FileNotFoundError FloatingPointError GeneratorExit ImportError IndentationError IndexError ' +
    'KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotImplementedError OSError OverflowError ' +
    'PermissionError RecursionError ReferenceError RuntimeError StopIteration SyntaxError SystemError SystemExit TypeError ' +
    'UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError ValueError ZeroDivisionError Warning UserWarning ' +
    'DeprecationWarning FutureWarning RuntimeWarning IOError EnvironmentError ' +
    // Python 2 builtins still seen in old notebooks, and IPython's
    'xrange unicode basestring long raw_input reduce unichr file execfile cmp display get_ipython In Out exit quit').split(' '),
);

/**
 * Methods that change their object (`model.fit(X, y)`, `cols.append(c)`): called as a statement,
 * the object counts as mutated (pandas' `inplace=True` aside, which any method may take).
 */
export const MUTATING_METHODS: ReadonlySet<string> = new Set([
  'fit', 'partial_fit', 'fit_transform', 'fit_predict', 'set_params', 'compile', 'load_weights', 'load_state_dict',
  'append', 'extend', 'insert', 'update', 'pop', 'popitem', 'remove', 'clear', 'sort', 'reverse', 'add', 'discard', 'setdefault',
]);

interface Scope {
  kind: 'module' | 'function' | 'class' | 'comprehension';
  locals: Set<string>;
  globals: Set<string>;
  parent?: Scope;
}

interface Acc {
  defs: Array<{ name: string; pos: number }>;
  uses: Array<{ name: string; pos: number; deferred: boolean }>;
  mutates: Set<string>;
  imports: ImportRecord[];
}

const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

function field(n: SyntaxNode, name: string): SyntaxNode | null {
  return n.childForFieldName(name);
}

function named(n: SyntaxNode): SyntaxNode[] {
  return n.namedChildren.filter((c): c is SyntaxNode => c !== null);
}

function rootName(n: SyntaxNode | null): string | undefined {
  let cur = n;
  while (cur) {
    if (cur.type === 'identifier') return cur.text;
    if (cur.type === 'attribute') cur = field(cur, 'object');
    else if (cur.type === 'subscript') cur = field(cur, 'value');
    else if (cur.type === 'call') cur = field(cur, 'function');
    else if (cur.type === 'parenthesized_expression') cur = named(cur)[0] ?? null;
    else return undefined;
  }
  return undefined;
}

class Analyzer {
  acc: Acc = { defs: [], uses: [], mutates: new Set(), imports: [] };

  use(name: string, pos: number, scope: Scope): void {
    let s: Scope | undefined = scope;
    let deferred = false;
    let fromFunction = false;
    while (s && s.kind !== 'module') {
      if (s.kind === 'class' && fromFunction) { s = s.parent; continue; }
      if (s.globals.has(name)) break;
      if (s.locals.has(name)) return;
      if (s.kind === 'function') { deferred = true; fromFunction = true; }
      s = s.parent;
    }
    this.acc.uses.push({ name, pos, deferred });
  }

  bind(name: string, pos: number, scope: Scope): void {
    if (scope.kind === 'module' || scope.globals.has(name)) this.acc.defs.push({ name, pos });
    else scope.locals.add(name);
  }

  mutate(n: SyntaxNode | null, scope: Scope): void {
    const name = rootName(n);
    if (!name) return;
    // Only module-level objects matter across cells.
    let s: Scope | undefined = scope;
    while (s && s.kind !== 'module') {
      if (s.globals.has(name)) break;
      if (s.locals.has(name)) return;
      s = s.parent;
    }
    this.acc.mutates.add(name);
  }

  bindTarget(t: SyntaxNode | null, scope: Scope, pos: number): void {
    if (!t) return;
    switch (t.type) {
      case 'identifier':
        this.bind(t.text, pos, scope);
        return;
      case 'attribute':
        this.visit(field(t, 'object'), scope);
        this.mutate(t, scope);
        return;
      case 'subscript':
        this.visit(field(t, 'value'), scope);
        for (const c of t.childrenForFieldName('subscript')) if (c) this.visit(c, scope);
        this.mutate(t, scope);
        return;
      default:
        // pattern_list, tuple_pattern, list_pattern, tuple, list, as_pattern_target, splats, parenthesized
        for (const c of named(t)) this.bindTarget(c, scope, pos);
    }
  }

  /** Names a function/comprehension body binds (does not descend into nested scopes' bodies). */
  collectLocals(body: SyntaxNode, into: Set<string>, globals: Set<string>): void {
    const targets = (t: SyntaxNode | null): void => {
      if (!t) return;
      if (t.type === 'identifier') into.add(t.text);
      else if (t.type !== 'attribute' && t.type !== 'subscript') for (const c of named(t)) targets(c);
    };
    const walk = (n: SyntaxNode): void => {
      switch (n.type) {
        case 'function_definition':
        case 'class_definition': {
          const name = field(n, 'name');
          if (name) into.add(name.text);
          return;
        }
        case 'lambda':
          return;
        case 'global_statement':
        case 'nonlocal_statement':
          for (const c of named(n)) globals.add(c.text);
          return;
        case 'assignment':
        case 'augmented_assignment':
          targets(field(n, 'left'));
          break;
        case 'named_expression':
          targets(field(n, 'name'));
          break;
        case 'for_statement':
          targets(field(n, 'left'));
          break;
        case 'as_pattern': {
          const alias = field(n, 'alias');
          if (alias) targets(alias);
          break;
        }
        case 'import_statement':
        case 'import_from_statement':
          for (const c of n.childrenForFieldName('name')) {
            if (!c) continue;
            if (c.type === 'aliased_import') { const a = field(c, 'alias'); if (a) into.add(a.text); }
            else if (c.type === 'dotted_name') {
              const ids = named(c);
              into.add(n.type === 'import_statement' ? ids[0]!.text : ids[ids.length - 1]!.text);
            }
          }
          return;
      }
      if (COMPREHENSIONS.has(n.type)) return;
      for (const c of named(n)) walk(c);
    };
    walk(body);
    for (const g of globals) into.delete(g);
  }

  visitFunction(n: SyntaxNode, scope: Scope): void {
    const isLambda = n.type === 'lambda';
    const params = field(n, 'parameters');
    // Defaults and annotations are evaluated in the enclosing scope.
    const paramNames: string[] = [];
    if (params) {
      for (const p of named(params)) {
        if (p.type === 'identifier') paramNames.push(p.text);
        else if (p.type === 'default_parameter' || p.type === 'typed_default_parameter') {
          const name = field(p, 'name');
          if (name) paramNames.push(name.text);
          this.visit(field(p, 'value'), scope);
          this.visit(field(p, 'type'), scope);
        } else if (p.type === 'typed_parameter') {
          for (const c of named(p)) {
            if (c.type === 'identifier') paramNames.push(c.text);
            else if (c.type === 'list_splat_pattern' || c.type === 'dictionary_splat_pattern') paramNames.push(...named(c).map((x) => x.text));
            else this.visit(c, scope);
          }
        } else if (p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern' || p.type === 'tuple_pattern') {
          const collect = (x: SyntaxNode): void => { if (x.type === 'identifier') paramNames.push(x.text); else named(x).forEach(collect); };
          collect(p);
        }
      }
    }
    if (!isLambda) {
      this.visit(field(n, 'return_type'), scope);
      const name = field(n, 'name');
      if (name) this.bind(name.text, n.endIndex, scope);
    }
    const inner: Scope = { kind: 'function', locals: new Set(paramNames), globals: new Set(), parent: scope };
    const body = field(n, 'body');
    if (body) {
      if (!isLambda) this.collectLocals(body, inner.locals, inner.globals);
      this.visit(body, inner);
    }
  }

  visitClass(n: SyntaxNode, scope: Scope): void {
    this.visit(field(n, 'superclasses'), scope);
    const inner: Scope = { kind: 'class', locals: new Set(), globals: new Set(), parent: scope };
    this.visit(field(n, 'body'), inner);
    const name = field(n, 'name');
    if (name) this.bind(name.text, n.endIndex, scope);
  }

  visitComprehension(n: SyntaxNode, scope: Scope): void {
    const inner: Scope = { kind: 'comprehension', locals: new Set(), globals: new Set(), parent: scope };
    const clauses = named(n).filter((c) => c.type === 'for_in_clause');
    // The first iterable is evaluated outside; targets are local to the comprehension.
    clauses.forEach((c, i) => {
      this.visit(field(c, 'right'), i === 0 ? scope : inner);
      const collect = (x: SyntaxNode | null): void => {
        if (!x) return;
        if (x.type === 'identifier') inner.locals.add(x.text);
        else named(x).forEach(collect);
      };
      collect(field(c, 'left'));
    });
    for (const c of named(n)) if (c.type !== 'for_in_clause') this.visit(c, inner);
  }

  visitImport(n: SyntaxNode, scope: Scope): void {
    if (n.type === 'import_statement') {
      for (const c of n.childrenForFieldName('name')) {
        if (!c) continue;
        if (c.type === 'aliased_import') {
          const mod = field(c, 'name')!.text;
          const alias = field(c, 'alias')!.text;
          this.acc.imports.push({ module: mod, top: mod.split('.')[0]!, bound: alias });
          this.bind(alias, n.endIndex, scope);
        } else if (c.type === 'dotted_name') {
          const mod = c.text;
          const top = mod.split('.')[0]!;
          this.acc.imports.push({ module: mod, top, bound: top });
          this.bind(top, n.endIndex, scope);
        }
      }
      return;
    }
    // import_from_statement
    const modNode = field(n, 'module_name');
    const mod = modNode ? modNode.text.replace(/\s+/g, '') : '';
    const top = mod.replace(/^\.+/, '').split('.')[0] ?? '';
    if (named(n).some((c) => c.type === 'wildcard_import')) {
      this.acc.imports.push({ module: mod, top, bound: '*' });
    }
    for (const c of n.childrenForFieldName('name')) {
      if (!c) continue;
      let bound: string | undefined;
      if (c.type === 'aliased_import') bound = field(c, 'alias')?.text;
      else if (c.type === 'dotted_name') bound = c.text.split('.').pop();
      if (!bound) continue;
      this.acc.imports.push({ module: mod, top, bound });
      this.bind(bound, n.endIndex, scope);
    }
  }

  visit(n: SyntaxNode | null, scope: Scope): void {
    if (!n) return;
    switch (n.type) {
      case 'identifier':
        this.use(n.text, n.startIndex, scope);
        return;
      case 'attribute':
        this.visit(field(n, 'object'), scope);
        return;
      case 'keyword_argument':
        this.visit(field(n, 'value'), scope);
        return;
      case 'assignment': {
        this.visit(field(n, 'right'), scope);
        this.visit(field(n, 'type'), scope);
        this.bindTarget(field(n, 'left'), scope, n.endIndex);
        return;
      }
      case 'augmented_assignment': {
        const left = field(n, 'left');
        this.visit(field(n, 'right'), scope);
        this.visit(left, scope);
        this.bindTarget(left, scope, n.endIndex);
        return;
      }
      case 'named_expression':
        this.visit(field(n, 'value'), scope);
        this.bindTarget(field(n, 'name'), scope, n.endIndex);
        return;
      case 'for_statement': {
        this.visit(field(n, 'right'), scope);
        const left = field(n, 'left');
        this.bindTarget(left, scope, left ? left.endIndex : n.startIndex);
        this.visit(field(n, 'body'), scope);
        this.visit(field(n, 'alternative'), scope);
        return;
      }
      case 'as_pattern': {
        const [value] = named(n);
        if (value && value !== field(n, 'alias')) this.visit(value, scope);
        const alias = field(n, 'alias');
        this.bindTarget(alias, scope, alias ? alias.endIndex : n.endIndex);
        return;
      }
      case 'import_statement':
      case 'import_from_statement':
        this.visitImport(n, scope);
        return;
      case 'future_import_statement':
        return;
      case 'function_definition':
      case 'lambda':
        this.visitFunction(n, scope);
        return;
      case 'class_definition':
        this.visitClass(n, scope);
        return;
      case 'global_statement':
      case 'nonlocal_statement':
        if (scope.kind !== 'module') for (const c of named(n)) scope.globals.add(c.text);
        return;
      case 'expression_statement': {
        const [expr] = named(n);
        if (expr && expr.type === 'call') {
          const fn = field(expr, 'function');
          if (fn && fn.type === 'attribute') {
            const method = field(fn, 'attribute')?.text ?? '';
            const args = field(expr, 'arguments');
            const inplace = !!args && named(args).some((a) => a.type === 'keyword_argument' && field(a, 'name')?.text === 'inplace' && field(a, 'value')?.text === 'True');
            if (inplace || MUTATING_METHODS.has(method)) {
              this.visit(expr, scope);
              this.mutate(field(fn, 'object'), scope);
              return;
            }
          }
        }
        break;
      }
      case 'dotted_name':
        return;
    }
    if (COMPREHENSIONS.has(n.type)) {
      this.visitComprehension(n, scope);
      return;
    }
    for (const c of named(n)) this.visit(c, scope);
  }
}

function hasErrors(root: SyntaxNode): boolean {
  return root.hasError;
}

/** Def-use of one cell's source (IPython syntax is masked first). */
export function analyzeCell(source: string, cell = 0): CellDefUse {
  const { code } = maskIPythonLines(source);
  const tree = parsePython(code);
  const a = new Analyzer();
  const module: Scope = { kind: 'module', locals: new Set(), globals: new Set() };
  a.visit(tree.rootNode, module);
  const { defs, uses, mutates, imports } = a.acc;
  const defined = new Set(defs.map((d) => d.name));
  const external = new Set<string>();
  const immediate = new Set<string>();
  for (const u of uses) {
    if (PY_BUILTINS.has(u.name) && !defined.has(u.name)) continue;
    const boundBefore = u.deferred ? defined.has(u.name) : defs.some((d) => d.name === u.name && d.pos <= u.pos);
    if (boundBefore) continue;
    external.add(u.name);
    if (!u.deferred) immediate.add(u.name);
  }
  const result: CellDefUse = {
    cell,
    defines: [...defined],
    uses: [...external],
    deferred: [...external].filter((n) => !immediate.has(n)),
    mutates: [...mutates].filter((m) => !PY_BUILTINS.has(m)),
    imports,
    hasSyntaxErrors: hasErrors(tree.rootNode),
  };
  tree.delete();
  return result;
}

export function analyzeNotebook(nb: Notebook): NotebookDefUse {
  const cells: CellDefUse[] = [];
  for (let i = 0; i < nb.cells.length; i++) {
    const c = nb.cells[i]!;
    if (c.cell_type !== 'code') continue;
    cells.push(analyzeCell(sourceText(c.source), i));
  }
  return { cells, byCell: new Map(cells.map((c) => [c.cell, c])) };
}

/**
 * Every name a cell's source mentions, wherever and however (attribute names after a dot, string
 * contents and comments aside; the dotted module path of an import counts its first name only).
 * Coarser than analyzeCell's uses: a name the cell binds before reading it, or a builtin, is here too.
 */
export function mentionedNames(source: string): Set<string> {
  const tree = parsePython(maskIPythonLines(source).code);
  const names = new Set<string>();
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'identifier') {
      const p = n.parent;
      const afterDot = p && ((p.type === 'attribute' && field(p, 'attribute')?.id === n.id) || (p.type === 'dotted_name' && p.firstNamedChild?.id !== n.id));
      if (!afterDot) names.add(n.text);
      return;
    }
    for (const c of named(n)) visit(c);
  };
  visit(tree.rootNode);
  tree.delete();
  return names;
}

/**
 * The cells after the target that read what it defines (until a cell redefines the name): the
 * cells a change of a name, type or shape in the target would break. Nearest first, at most `max`.
 */
export function consumerCells(du: NotebookDefUse, target: number, max = 4): Array<{ cell: number; names: string[] }> {
  const t = du.byCell.get(target);
  if (!t) return [];
  const live = new Set(t.defines);
  const out: Array<{ cell: number; names: string[] }> = [];
  for (const c of du.cells.filter((x) => x.cell > target).sort((a, b) => a.cell - b.cell)) {
    if (!live.size || out.length >= max) break;
    const names = [...new Set([...c.uses, ...c.mutates])].filter((n) => live.has(n));
    if (names.length) out.push({ cell: c.cell, names });
    for (const d of c.defines) live.delete(d);
  }
  return out;
}

/**
 * The cells after the target whose values come from it, transitively: a cell that reads (or changes
 * in place) a name the target or an earlier dependent binds or changes is a dependent, and what it
 * binds joins the followed names; a name an independent cell rebinds stops being followed. The cells
 * a change inside the target can move (a search restricted to fewer candidates), as opposed to the
 * later cells that drift for reasons of their own.
 */
export function dependentCells(du: NotebookDefUse, target: number): Set<number> {
  const t = du.byCell.get(target);
  const out = new Set<number>();
  if (!t) return out;
  const live = new Set([...t.defines, ...t.mutates]);
  for (const c of du.cells.filter((x) => x.cell > target).sort((a, b) => a.cell - b.cell)) {
    if (!live.size) break;
    const reads = [...c.uses, ...c.mutates].some((n) => live.has(n));
    if (reads) {
      out.add(c.cell);
      for (const d of [...c.defines, ...c.mutates]) live.add(d);
    } else {
      for (const d of c.defines) live.delete(d);
    }
  }
  return out;
}
