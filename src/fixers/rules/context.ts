/**
 * What a rule sees: one parsed cell (masked source, tree, nodes by type) and the notebook around it
 * (imports and aliases across all cells, names the notebook defines, DataFrame-valued names, the
 * notebook's Python version and era, the environment's versions, the competition's data files).
 */
import type { SyntaxNode, SyntaxTree } from '../python/parser.js';
import { afterCellMagic } from '../python/ipython.js';
import type { Library, TextEdit } from './types.js';
import { type TreeIndex, callArgs, methodCall, stringValue } from './tree.js';
import type { Era } from './versions.js';

export interface ParsedCell {
  /** Index in notebook.cells. */
  index: number;
  /** Original source. */
  source: string;
  /** Masked source (same length) that was parsed. */
  text: string;
  masked: Array<[number, number]>;
  tree: SyntaxTree;
  idx: TreeIndex;
}

export interface Binding {
  /** Fully qualified name the local name refers to ("numpy", "sklearn.cross_validation.KFold"). */
  qname: string;
  cell: number;
  offset: number;
  /** The import statement node. */
  stmt: SyntaxNode;
  /** The node naming what was imported (dotted_name / aliased_import). */
  item: SyntaxNode;
}

export interface EnvironmentInfo {
  name: string;
  /** Libraries not in the environment -> candidate replacements. */
  unavailable: Record<string, string[]>;
  /** Importable top-level modules of the environment's libraries (beyond the standard library). */
  modules: Set<string>;
}

/** A frame of the failing cell's traceback that lies in notebook code (a cell, and a line in it). */
export interface RuntimeFrame {
  /** Notebook cell index (mapped from `Cell In[N]` through the run's execution counts). */
  cell: number;
  /** 1-based line in that cell's source. */
  line: number;
  /** The function the frame is in (`<module>` at top level), when the traceback names it. */
  function?: string;
  /**
   * The library method this line called, from the next frame's qualified name (Python 3.11+ prints
   * `in DataFrame.corr(self, ...)`): the receiver of `.corr` on this line is a DataFrame.
   */
  callee?: { type: string; method: string };
}

/**
 * What the failing run said, for rules that fire on runtime evidence rather than static inference:
 * the exception (its message often names the receiver's type: `'Series' object has no attribute`),
 * the notebook frames of the traceback (innermost last), and the types of live names after the
 * last cell that ran (from the kernel probe's state summary).
 */
export interface RuntimeEvidence {
  /** The cell that raised (the diagnosis target). */
  failingCell: number;
  ename: string;
  evalue: string;
  traceback: string[];
  /** Notebook frames, outermost first (the failing cell's own frame is among them when known). */
  frames: RuntimeFrame[];
  /** Live names -> type name (`DataFrame`, `Series`, `ndarray`, ...), from the run's state probe. */
  types: Record<string, string>;
}

export interface NotebookInfo {
  /** Evidence from the failing run (rulesForError only). */
  runtime?: RuntimeEvidence;
  pythonMajor: 2 | 3;
  pythonVersion?: string;
  env: Record<string, string>;
  environment: EnvironmentInfo;
  era: Era;
  /** Data file names (relative paths under the data dir). */
  dataFiles: string[];
  /** Competition slug (the data is also mounted at /kaggle/input/<competition>/). */
  competition?: string;
  /** Files the notebook writes with %%writefile (local helper modules it defines itself). */
  writtenFiles: string[];
  /** What the mounted data holds that a rule's effect depends on (evidence-gated pins). */
  dataFacts?: DataFacts;
}

/** Facts read from the competition's data files (not from the notebook). */
export interface DataFacts {
  /** Per data file: field values that today's read_csv reads as missing and the notebook's era did not ('None'). */
  newlyMissingTokens: Record<string, string[]>;
}

const FRAME_PRODUCERS = new Set([
  'read_csv', 'read_table', 'read_excel', 'read_json', 'read_sql', 'read_sql_query', 'read_pickle', 'read_parquet',
  'read_hdf', 'read_fwf', 'DataFrame', 'concat', 'merge', 'get_dummies', 'pivot_table', 'crosstab',
]);
/** Types a runtime message may name that the pandas rules treat as pandas objects. */
const PANDAS_TYPES = new Set(['DataFrame', 'Series', 'NDFrame', 'Index', 'DatetimeIndex', 'MultiIndex', 'Categorical', 'DataFrameGroupBy', 'SeriesGroupBy', 'Rolling', 'Resampler']);
const SERIES_PRODUCERS = new Set(['isnull', 'isna', 'notnull', 'notna', 'to_numeric', 'to_datetime', 'cut', 'qcut', 'value_counts', 'factorize']);
const FRAME_METHODS = new Set([
  'copy', 'drop', 'dropna', 'fillna', 'merge', 'join', 'append', 'reset_index', 'set_index', 'sort_values',
  'sort_index', 'rename', 'assign', 'query', 'head', 'tail', 'sample', 'drop_duplicates', 'replace', 'astype',
  'select_dtypes', 'transpose', 'describe', 'pivot_table', 'reindex', 'combine_first',
]);

/**
 * Names that `from M import *` brought in from modules whose contents changed or went away (so the
 * fixed environment cannot say): scikit-learn 0.19's cross_validation / grid_search / learning_curve
 * `__all__`, and preprocessing's Imputer (removed 0.22).
 */
const STAR_EXPORTS: Record<string, readonly string[]> = {
  'sklearn.cross_validation': ['KFold', 'LabelKFold', 'LeaveOneLabelOut', 'LeaveOneOut', 'LeavePLabelOut', 'LeavePOut',
    'ShuffleSplit', 'StratifiedKFold', 'StratifiedShuffleSplit', 'PredefinedSplit', 'LabelShuffleSplit', 'check_cv',
    'cross_val_score', 'cross_val_predict', 'permutation_test_score', 'train_test_split'],
  'sklearn.grid_search': ['GridSearchCV', 'ParameterGrid', 'fit_grid_point', 'ParameterSampler', 'RandomizedSearchCV'],
  'sklearn.learning_curve': ['learning_curve', 'validation_curve'],
  'sklearn.preprocessing': ['Imputer'],
};
const PY_BUILTINS = new Set(['abs', 'all', 'any', 'bool', 'dict', 'float', 'int', 'len', 'list', 'max', 'min', 'object', 'pow',
  'print', 'range', 'round', 'set', 'sorted', 'str', 'sum', 'tuple', 'type', 'zip', 'map', 'filter', 'open', 'input', 'iter', 'next',
  'isinstance', 'getattr', 'setattr', 'hasattr', 'enumerate', 'reversed', 'slice', 'super', 'vars', 'id', 'hash', 'repr', 'format',
  'complex', 'divmod', 'bytes', 'frozenset', 'callable', 'chr', 'ord', 'hex', 'oct', 'bin', 'exec', 'eval', 'compile', 'globals',
  'locals', 'dir', 'help', 'property', 'staticmethod', 'classmethod', 'issubclass', 'memoryview', 'bytearray', 'ascii', 'breakpoint']);

const NO_NAMES: readonly string[] = Object.freeze([]);

export class NotebookContext {
  readonly bindings = new Map<string, Binding[]>();
  /** Names bound by assignment, def, class, loops, parameters, with/except targets (not imports). */
  readonly assigned = new Set<string>();
  /** Names assigned from pandas DataFrame producers (read_csv, DataFrame, concat...) or their methods. */
  readonly frames = new Set<string>();
  /** Names assigned from any pandas object (DataFrames and Series such as `df['a']`). */
  readonly pandasNames = new Set<string>();
  /** Names bound only to lists of strings (column lists). */
  readonly columnLists = new Set<string>();
  /** Modules imported anywhere (`import a.b` records "a.b" and "a"). */
  readonly importedModules = new Set<string>();
  /** `from X import *` modules. */
  readonly starModules = new Set<string>();
  /** `from X import *` statements in notebook order (module and cell). */
  private readonly starImports: Array<{ module: string; cell: number }> = [];
  readonly futureDivision: boolean;
  readonly futurePrint: boolean;

  private readonly memos = new Map<string, unknown>();
  /**
   * Qualified names by cell, then by node id (unique within a tree): a key string per lookup, built
   * from the cell, the node's range and its type, cost more than the lookup itself.
   */
  private readonly qnames = new Map<number, Map<number, string | undefined>>();

  /**
   * Empty the caches once the rules have run: this context, made when the scan starts, is often
   * promoted to the old generation before it ends, and a young GC keeps whatever young objects an
   * old one points to, dead or not, so its memos (nodes, lookup maps) would otherwise be copied and
   * promoted after the notebook is done, until the next full GC.
   */
  release(): void {
    this.memos.clear();
    this.qnames.clear();
  }

  /** Notebook-wide values computed once per pass (cross-cell facts rules need for every cell). */
  memo<T>(key: string, fn: () => T): T {
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const v = fn();
    this.memos.set(key, v);
    return v;
  }

  /**
   * Local names that stand for something imported under another name (`from x import KFold as KF`,
   * `import numpy as np`), keyed by the imported name's last segment ("KFold" -> ["KF"]).
   */
  aliasIndex(): ReadonlyMap<string, readonly string[]> {
    return this.memo('alias-index', () => {
      const m = new Map<string, string[]>();
      for (const [local, list] of this.bindings) {
        for (const b of list) {
          const last = b.qname.slice(b.qname.lastIndexOf('.') + 1);
          if (last === local) continue;
          const l = m.get(last) ?? [];
          if (!l.includes(local)) l.push(local);
          m.set(last, l);
        }
      }
      return m;
    });
  }

  /** The aliases of one imported name (aliasIndex). */
  aliasesOf(lastName: string): readonly string[] {
    return this.aliasIndex().get(lastName) ?? NO_NAMES;
  }

  /**
   * All identifier nodes with this text, in every cell (cell order, then document order). Asked
   * after a few names per notebook, so it is answered per name, skipping the cells whose words
   * do not include it (a notebook-wide index built every cell's identifier nodes). Not a cell that
   * has parse errors: error recovery can lex an identifier from inside a longer word.
   */
  identifiers(name: string): Array<{ node: SyntaxNode; cell: number }> {
    return this.memo(`identifiers:${name}`, () => {
      const out: Array<{ node: SyntaxNode; cell: number }> = [];
      for (const cell of this.cells) {
        const cache = cellCache(cell);
        if (!hasParseErrors(cell) && !cache.mayHaveIdentifier(name)) continue;
        for (const node of cache.identifiers().get(name) ?? []) out.push({ node, cell: cell.index });
      }
      return out;
    });
  }

  constructor(readonly cells: ParsedCell[], readonly info: NotebookInfo) {
    let futureDivision = false;
    let futurePrint = false;
    for (const cell of cells) {
      for (const stmt of cell.idx.byType.get('future_import_statement') ?? []) {
        for (const n of stmt.namedChildren) {
          if (n?.text === 'division') futureDivision = true;
          if (n?.text === 'print_function') futurePrint = true;
        }
      }
      this.collectImports(cell);
      this.collectAssigned(cell);
    }
    this.futureDivision = futureDivision;
    this.futurePrint = futurePrint;
  }

  private framesReady = false;

  private ensureFrames(): void {
    if (this.framesReady) return;
    this.framesReady = true;
    this.collectFrames();
  }

  get pythonMajor(): 2 | 3 {
    return this.info.pythonMajor;
  }

  private bind(name: string, b: Binding): void {
    let list = this.bindings.get(name);
    if (!list) this.bindings.set(name, (list = []));
    list.push(b);
  }

  private collectImports(cell: ParsedCell): void {
    for (const stmt of cell.idx.byType.get('import_statement') ?? []) {
      for (const item of stmt.childrenForFieldName('name')) {
        if (!item) continue;
        if (item.type === 'dotted_name') {
          const full = item.text.replace(/\s+/g, '');
          this.addModule(full);
          this.bind(full.split('.')[0], { qname: full.split('.')[0], cell: cell.index, offset: stmt.startIndex, stmt, item });
        } else if (item.type === 'aliased_import') {
          const name = item.childForFieldName('name')?.text.replace(/\s+/g, '');
          const alias = item.childForFieldName('alias')?.text;
          if (name && alias) {
            this.addModule(name);
            this.bind(alias, { qname: name, cell: cell.index, offset: stmt.startIndex, stmt, item });
          }
        }
      }
    }
    for (const stmt of cell.idx.byType.get('import_from_statement') ?? []) {
      const mod = stmt.childForFieldName('module_name');
      if (!mod || mod.type !== 'dotted_name') continue;
      const modName = mod.text.replace(/\s+/g, '');
      this.addModule(modName);
      if (stmt.namedChildren.some((c) => c?.type === 'wildcard_import')) {
        this.starModules.add(modName);
        this.starImports.push({ module: modName, cell: cell.index });
      }
      for (const item of stmt.childrenForFieldName('name')) {
        if (!item) continue;
        if (item.type === 'dotted_name') {
          this.bind(item.text, { qname: `${modName}.${item.text}`, cell: cell.index, offset: stmt.startIndex, stmt, item });
        } else if (item.type === 'aliased_import') {
          const name = item.childForFieldName('name')?.text;
          const alias = item.childForFieldName('alias')?.text;
          if (name && alias) this.bind(alias, { qname: `${modName}.${name}`, cell: cell.index, offset: stmt.startIndex, stmt, item });
        }
      }
    }
  }

  private addModule(full: string): void {
    const parts = full.split('.');
    for (let i = 1; i <= parts.length; i++) this.importedModules.add(parts.slice(0, i).join('.'));
  }

  private collectAssigned(cell: ParsedCell): void {
    const add = (n: SyntaxNode | null | undefined) => collectTargets(n, this.assigned);
    const by = cell.idx.byType;
    for (const t of ['assignment', 'augmented_assignment']) for (const n of by.get(t) ?? []) add(n.childForFieldName('left'));
    for (const t of ['for_statement', 'for_in_clause']) for (const n of by.get(t) ?? []) add(n.childForFieldName('left'));
    for (const t of ['function_definition', 'class_definition']) for (const n of by.get(t) ?? []) add(n.childForFieldName('name'));
    for (const n of by.get('as_pattern_target') ?? []) add(n.firstNamedChild);
    for (const n of by.get('named_expression') ?? []) add(n.childForFieldName('name'));
    for (const t of ['global_statement', 'nonlocal_statement']) for (const n of by.get(t) ?? []) for (const c of n.namedChildren) add(c);
    for (const t of ['parameters', 'lambda_parameters']) {
      for (const n of by.get(t) ?? []) {
        for (const p of n.namedChildren) {
          if (!p) continue;
          if (p.type === 'identifier') add(p);
          else if (p.type === 'default_parameter' || p.type === 'typed_default_parameter') add(p.childForFieldName('name'));
          else if (p.type === 'typed_parameter' || p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern') add(p.firstNamedChild);
          else add(p);
        }
      }
    }
    // Python 2: `except E, e:` binds e.
    for (const n of by.get('except_clause') ?? []) {
      const values = n.childrenForFieldName('value').filter(Boolean);
      if (values.length === 2) add(values[1]);
    }
  }

  private collectFrames(): void {
    const assigns: Array<{ left: SyntaxNode; right: SyntaxNode; cell: number }> = [];
    for (const cell of this.cells) {
      for (const a of cell.idx.byType.get('assignment') ?? []) {
        const left = a.childForFieldName('left');
        const right = a.childForFieldName('right');
        if (left?.type === 'identifier' && right) assigns.push({ left, right, cell: cell.index });
        // `train, test = pd.read_csv(a), pd.read_csv(b)`: element by element.
        else if (left && right && ['pattern_list', 'tuple_pattern'].includes(left.type) && ['expression_list', 'tuple'].includes(right.type)) {
          const ls = left.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
          const rs = right.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment');
          if (ls.length === rs.length) ls.forEach((l, i) => { if (l.type === 'identifier') assigns.push({ left: l, right: rs[i], cell: cell.index }); });
        }
      }
    }
    // `for df in [train, test]:` / `for dataset in combine:` (combine = [train, test]): the loop name takes each element.
    const literalLists = new Map<string, SyntaxNode[] | null>();
    for (const { left, right } of assigns) {
      const elems = right.type === 'list' || right.type === 'tuple' ? right.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment') : null;
      literalLists.set(left.text, literalLists.has(left.text) ? null : elems);
    }
    // Names every assignment of which is a list of strings (`plot_cols = ['temp', 'humidity']`): a
    // frame subscripted by one is a frame (`df[mask][plot_cols]`).
    const stringLists = new Map<string, boolean>();
    for (const { left, right } of assigns) {
      const ok = right.type === 'list' && right.namedChildren.some((c) => c?.type === 'string') && right.namedChildren.every((c) => !c || c.type === 'string' || c.type === 'comment');
      stringLists.set(left.text, (stringLists.get(left.text) ?? true) && ok);
    }
    for (const [name, ok] of stringLists) if (ok) this.columnLists.add(name);
    for (const cell of this.cells) {
      for (const f of cell.idx.byType.get('for_statement') ?? []) {
        const left = f.childForFieldName('left');
        const right = f.childForFieldName('right');
        if (left?.type !== 'identifier' || !right) continue;
        const elems = right.type === 'list' || right.type === 'tuple'
          ? right.namedChildren.filter((c): c is SyntaxNode => !!c && c.type !== 'comment')
          : right.type === 'identifier' ? literalLists.get(right.text) ?? null : null;
        if (elems?.length && elems.every((e) => e.type === 'identifier')) for (const e of elems) assigns.push({ left, right: e, cell: cell.index });
      }
    }
    // A name counts as a DataFrame (or pandas object) when some assignment makes it one and none
    // makes it something else (`predictions = []` somewhere makes `predictions.append(x)` a list
    // append); assignments from unknown calls (the notebook's own functions) are neutral.
    const byName = new Map<string, Array<{ right: SyntaxNode; cell: number }>>();
    for (const { left, right, cell } of assigns) {
      let l = byName.get(left.text);
      if (!l) byName.set(left.text, (l = []));
      l.push({ right, cell });
    }
    // Whether an assignment is clearly not pandas does not depend on the names found so far: decided
    // once, not again in every round.
    const candidates = [...byName].filter(([, rights]) => !rights.some((r) => this.isNonPandasExpr(r.right, r.cell)));
    for (let round = 0; round < 3; round++) {
      let changed = false;
      for (const [name, rights] of candidates) {
        if (!this.frames.has(name) && rights.some((r) => this.isDataFrameExpr(r.right, r.cell) && !isSelfUpdate(name, r.right))) {
          this.frames.add(name);
          changed = true;
        }
        if (!this.pandasNames.has(name) && rights.some((r) => this.isPandasExpr(r.right, r.cell) && !isSelfUpdate(name, r.right))) {
          this.pandasNames.add(name);
          changed = true;
        }
      }
      if (!changed) break;
    }

  }

  /** Clearly not a pandas object: literals, comprehensions, builtins that build lists, numpy calls. */
  isNonPandasExpr(node: SyntaxNode, cell: number): boolean {
    if (['list', 'dictionary', 'set', 'tuple', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension',
      'generator_expression', 'string', 'concatenated_string', 'integer', 'float', 'true', 'false', 'none', 'lambda'].includes(node.type)) return true;
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'identifier' && ['list', 'dict', 'set', 'tuple', 'len', 'int', 'float', 'str', 'range', 'zip', 'map', 'filter', 'sorted', 'open'].includes(fn.text) && !this.isBound(fn.text)) return true;
      const q = fn ? this.qname(fn, cell) : undefined;
      if (q && (q.startsWith('numpy.') || q.startsWith('sklearn.'))) return true;
    }
    return false;
  }

  /**
   * The type the runtime error names for this receiver: `'Series' object has no attribute 'order'`
   * raised on the line of a notebook frame says the receiver of `.order` there is a Series, whatever
   * static inference can tell (a function parameter, a name assigned in a loop).
   */
  evidenceType(node: SyntaxNode, cell: number): string | undefined {
    const rt = this.info.runtime;
    if (!rt) return undefined;
    const byCallee = this.calleeType(node, cell, rt.frames);
    if (byCallee) return byCallee;
    const m = /'(?:pandas\.(?:core\.\w+\.)*)?([\w.]+)' object has no attribute '(\w+)'/.exec(rt.evalue);
    if (!m) return undefined;
    const [, type, attr] = m;
    const parent = node.parent;
    if (parent?.type !== 'attribute' || parent.childForFieldName('object')?.startIndex !== node.startIndex) return undefined;
    if (parent.childForFieldName('attribute')?.text !== attr) return undefined;
    const frames = rt.frames.length ? rt.frames : [{ cell: rt.failingCell, line: 0 }];
    const row = node.startPosition.row + 1;
    const hit = frames.some((f) => f.cell === cell && (f.line === 0 || (row <= f.line && parent.endPosition.row + 1 >= f.line) || row === f.line));
    return hit ? type : undefined;
  }

  /** The receiver of `node.method(...)` on a frame's line whose next (library) frame is `Type.method`. */
  private calleeType(node: SyntaxNode, cell: number, frames: readonly RuntimeFrame[]): string | undefined {
    const parent = node.parent;
    if (parent?.type !== 'attribute' || parent.childForFieldName('object')?.startIndex !== node.startIndex) return undefined;
    const attr = parent.childForFieldName('attribute')?.text;
    const row = node.startPosition.row + 1;
    const f = frames.find((x) => x.cell === cell && x.callee && x.callee.method === attr && row <= x.line && parent.endPosition.row + 1 >= x.line);
    return f?.callee?.type;
  }

  /** Heuristic: does this expression evaluate to a pandas DataFrame? */
  isDataFrameExpr(node: SyntaxNode, cell: number): boolean {
    this.ensureFrames();
    if (this.evidenceType(node, cell) === 'DataFrame') return true;
    if (node.type === 'identifier') return this.frames.has(node.text);
    if (node.type === 'parenthesized_expression') {
      const inner = node.namedChildren.filter((c) => c && c.type !== 'comment');
      return inner.length === 1 && this.isDataFrameExpr(inner[0]!, cell);
    }
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const q = fn ? this.qname(fn, cell) : undefined;
      if (q && q.startsWith('pandas.') && FRAME_PRODUCERS.has(q.split('.').pop()!) && !q.endsWith('.Series')) return true;
      const m = methodCall(node);
      if (m && FRAME_METHODS.has(m.name) && this.isDataFrameExpr(m.recv, cell)) return true;
      if (m && m.name === 'append' && callArgs(node)?.keywords.has('ignore_index') && this.isDataFrameExpr(m.recv, cell)) return true;
      return false;
    }
    if (node.type === 'subscript') {
      const v = node.childForFieldName('value');
      if (!v) return false;
      const key = node.childForFieldName('subscript');
      // df[['a', 'b']], df[mask], df[1:5]; df.loc[mask] / df.iloc[a:b]
      const frameKey = !!key && (['list', 'comparison_operator', 'boolean_operator', 'slice', 'unary_operator', 'call'].includes(key.type)
        || (key.type === 'identifier' && this.columnLists.has(key.text)));
      if (v.type === 'attribute' && ['loc', 'iloc'].includes(v.childForFieldName('attribute')?.text ?? '')) {
        const obj = v.childForFieldName('object');
        return frameKey && !!obj && this.isDataFrameExpr(obj, cell);
      }
      return frameKey && this.isDataFrameExpr(v, cell);
    }
    return false;
  }

  /** Heuristic: a pandas DataFrame or Series (or a name assigned from one). */
  isPandasExpr(node: SyntaxNode, cell: number): boolean {
    this.ensureFrames();
    if (PANDAS_TYPES.has(this.evidenceType(node, cell) ?? '')) return true;
    if (this.isDataFrameExpr(node, cell)) return true;
    if (node.type === 'identifier') return this.pandasNames.has(node.text);
    if (node.type === 'call') {
      const fn = node.childForFieldName('function');
      const q = fn ? this.qname(fn, cell) : undefined;
      if (q && (q === 'pandas.Series' || (q.startsWith('pandas.') && (FRAME_PRODUCERS.has(q.split('.').pop()!) || SERIES_PRODUCERS.has(q.split('.').pop()!))))) return true;
      const m = methodCall(node);
      if (m && FRAME_METHODS.has(m.name) && this.isPandasExpr(m.recv, cell)) return true;
      return false;
    }
    if (node.type === 'subscript') {
      const v = node.childForFieldName('value');
      if (!v) return false;
      if (v.type === 'attribute' && ['loc', 'iloc', 'at', 'iat'].includes(v.childForFieldName('attribute')?.text ?? '')) {
        const obj = v.childForFieldName('object');
        return !!obj && this.isPandasExpr(obj, cell);
      }
      return this.isDataFrameExpr(v, cell);
    }
    if (node.type === 'comparison_operator' || node.type === 'binary_operator' || node.type === 'unary_operator' || node.type === 'parenthesized_expression') {
      // df.Age > 30, ~mask, (df.a + df.b)
      return node.namedChildren.some((c) => !!c && c.type !== 'comment' && this.isPandasExpr(c, cell));
    }
    if (node.type === 'attribute') {
      const obj = node.childForFieldName('object');
      const attr = node.childForFieldName('attribute')?.text ?? '';
      // df.Age (a column) or df.T
      return !!obj && this.isDataFrameExpr(obj, cell) && !['values', 'shape', 'columns', 'index', 'dtypes', 'str', 'dt', 'loc', 'iloc'].includes(attr);
    }
    return false;
  }

  /** Back-compat name: DataFrame or Series. */
  isFrameExpr(node: SyntaxNode, cell: number): boolean {
    return this.isPandasExpr(node, cell);
  }

  /** Is this name bound anywhere in the notebook (import, assignment, def, parameter...)? */
  isBound(name: string): boolean {
    return this.bindings.has(name) || this.assigned.has(name);
  }

  /** The binding of a local name as seen from `cell`: the latest import at or before it, else the first. */
  binding(name: string, cell: number): Binding | undefined {
    const list = this.bindings.get(name);
    if (!list || list.length === 0) return undefined;
    let best: Binding | undefined;
    for (const b of list) if (b.cell <= cell) best = b;
    return best ?? list[0];
  }

  /** Qualified name of an identifier / attribute chain through the notebook's imports. */
  qname(node: SyntaxNode, cell: number): string | undefined {
    let byId = this.qnames.get(cell);
    if (!byId) this.qnames.set(cell, (byId = new Map()));
    const id = node.id;
    if (byId.has(id)) return byId.get(id);
    const q = this.computeQname(node, cell);
    byId.set(id, q);
    return q;
  }

  private computeQname(node: SyntaxNode, cell: number): string | undefined {
    if (node.type === 'identifier') {
      const b = this.binding(node.text, cell);
      if (b && !this.assigned.has(node.text)) return b.qname;
      if (b && this.assigned.has(node.text)) {
        // Imported and also assigned somewhere: trust the import only for module-like names.
        return b.qname.includes('.') || /^[a-z]/.test(node.text) ? b.qname : undefined;
      }
      if (!b && !this.assigned.has(node.text)) return this.starQname(node.text, cell);
      return undefined;
    }
    if (node.type === 'attribute') {
      const obj = node.childForFieldName('object');
      const attr = node.childForFieldName('attribute');
      if (!obj || !attr) return undefined;
      const base = this.qname(obj, cell);
      return base ? `${base}.${attr.text}` : undefined;
    }
    return undefined;
  }

  /**
   * A name no import or assignment binds, brought in by `from M import *`: the star module known to
   * export it (STAR_EXPORTS), else the only star module of the notebook (never for Python builtins).
   */
  private starQname(name: string, cell: number): string | undefined {
    if (!this.starImports.length) return undefined;
    const before = this.starImports.filter((s) => s.cell <= cell);
    const pool = before.length ? before : this.starImports;
    for (let i = pool.length - 1; i >= 0; i--) if (STAR_EXPORTS[pool[i].module]?.includes(name)) return `${pool[i].module}.${name}`;
    const mods = new Set(this.starImports.map((s) => s.module));
    if (mods.size !== 1 || PY_BUILTINS.has(name)) return undefined;
    return `${[...mods][0]}.${name}`;
  }

  /** Local name under which `module` (exactly) is imported, e.g. "numpy" -> "np". */
  aliasFor(module: string): string | undefined {
    let best: Binding | undefined;
    let bestName: string | undefined;
    for (const [name, list] of this.bindings) {
      for (const b of list) {
        if (b.qname === module && !this.assigned.has(name) && (!best || b.cell < best.cell || (b.cell === best.cell && b.offset < best.offset))) {
          best = b;
          bestName = name;
        }
      }
    }
    return bestName;
  }

  /** The first cell index where `module` is imported under `name` (for "is it imported before cell c"). */
  importedBefore(module: string, cell: number): boolean {
    for (const list of this.bindings.values()) for (const b of list) if (b.qname === module && b.cell <= cell) return true;
    return false;
  }
}

/** `x = x.method(...)` / `x = x[...]`: keeps x's type (used to look through self-updates). */
function isSelfUpdate(name: string, right: SyntaxNode): boolean {
  let cur: SyntaxNode | null = right;
  while (cur && (cur.type === 'call' || cur.type === 'attribute' || cur.type === 'subscript')) {
    cur = cur.type === 'call' ? cur.childForFieldName('function') : cur.type === 'attribute' ? cur.childForFieldName('object') : cur.childForFieldName('value');
  }
  return cur?.type === 'identifier' && cur.text === name && right.type !== 'identifier';
}

/** Identifiers bound by an assignment target (names, tuples, lists, starred). */
export function collectTargets(n: SyntaxNode | null | undefined, into: Set<string>): void {
  if (!n) return;
  switch (n.type) {
    case 'identifier':
      into.add(n.text);
      return;
    case 'pattern_list': case 'tuple_pattern': case 'list_pattern': case 'tuple': case 'list':
    case 'parenthesized_expression': case 'list_splat_pattern': case 'expression_list': case 'as_pattern_target':
      for (const c of n.namedChildren) collectTargets(c, into);
      return;
    default:
      return;
  }
}

export interface CallInfo {
  call: SyntaxNode;
  fn: SyntaxNode;
  /** Identifier text, or the attribute name of `x.name(...)`. */
  name: string;
  /** The receiver of `x.name(...)`. */
  recv?: SyntaxNode;
  nameNode: SyntaxNode;
}

export interface AttrInfo {
  node: SyntaxNode;
  obj: SyntaxNode;
  name: string;
  nameNode: SyntaxNode;
}

const ASCII_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NO_CALLS: readonly CallInfo[] = Object.freeze([]);

/** Per-tree lookups built once (reading node fields goes through WASM and is not free). */
export class CellCache {
  private _calls?: Map<string, CallInfo[]>;
  private _attrs?: Map<string, AttrInfo[]>;
  private _idents?: Map<string, SyntaxNode[]>;

  constructor(private readonly cell: ParsedCell) {}

  release(): void {
    this._calls = this._attrs = this._idents = undefined;
    this._strings = this._tokens = this._words = undefined;
  }

  /**
   * The calls named `name` (callsByName), without building that index for a cell that cannot have
   * an identifier so named (a call's name is the text of an identifier): notebook-wide lookups ask
   * every cell after a few names that most cells never mention. A cell without parse errors is
   * asked through its words (one set lookup per name, where searching the text for each name cost
   * more than the set); one with errors through its text (mayName).
   */
  callsNamed(name: string): readonly CallInfo[] {
    if (!this.mayName(name)) return NO_CALLS;
    return this.callsByName().get(name) ?? NO_CALLS;
  }

  callsByName(): Map<string, CallInfo[]> {
    if (this._calls) return this._calls;
    const m = new Map<string, CallInfo[]>();
    for (const call of this.cell.idx.byType.get('call') ?? []) {
      const fn = call.childForFieldName('function');
      if (!fn) continue;
      let info: CallInfo | undefined;
      if (fn.type === 'identifier') info = { call, fn, name: fn.text, nameNode: fn };
      else if (fn.type === 'attribute') {
        const nameNode = fn.childForFieldName('attribute');
        const recv = fn.childForFieldName('object');
        if (nameNode && recv) info = { call, fn, name: nameNode.text, recv, nameNode };
      }
      if (!info) continue;
      let l = m.get(info.name);
      if (!l) m.set(info.name, (l = []));
      l.push(info);
    }
    return (this._calls = m);
  }

  attrsByName(): Map<string, AttrInfo[]> {
    if (this._attrs) return this._attrs;
    const m = new Map<string, AttrInfo[]>();
    for (const node of this.cell.idx.byType.get('attribute') ?? []) {
      const obj = node.childForFieldName('object');
      const nameNode = node.childForFieldName('attribute');
      if (!obj || !nameNode) continue;
      const name = nameNode.text;
      let l = m.get(name);
      if (!l) m.set(name, (l = []));
      l.push({ node, obj, name, nameNode });
    }
    return (this._attrs = m);
  }

  private _strings?: Set<string>;

  /** Values of the cell's plain string literals (the exact check behind a rule's literal gate). */
  stringValues(): Set<string> {
    if (this._strings) return this._strings;
    const s = new Set<string>();
    for (const n of this.cell.idx.byType.get('string')) {
      const v = stringValue(n);
      if (v !== undefined) s.add(v);
    }
    return (this._strings = s);
  }

  /**
   * Every word of the cell's text that could be an identifier (in strings and comments too), in
   * text order and repeated as often as it occurs: a superset of its identifiers, read without
   * building a tree node per identifier, for dispatch (which marks rules by them, so repeats do no
   * harm: making them a set for it cost more than looking the repeats up).
   */
  words(): readonly string[] {
    return (this._words ??= this.cell.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  }

  private _words: string[] | undefined;

  /** The distinct words(), built when a name is first looked up in them. */
  tokens(): Set<string> {
    return (this._tokens ??= new Set(this.words()));
  }

  private _tokens: Set<string> | undefined;

  /**
   * Could the cell have an identifier spelled `name`? No when `name` is an ASCII name that is no
   * word of its text (tokens() is a superset of the identifiers, as dispatch relies on): asking
   * after a name a cell never mentions then builds none of its identifier nodes.
   */
  mayHaveIdentifier(name: string): boolean {
    return !ASCII_NAME.test(name) || this.tokens().has(name);
  }

  /**
   * Could one of the cell's identifiers be spelled `name`? Through its words when it has no parse
   * errors (mayHaveIdentifier), else through its text: error recovery can lex an identifier from
   * inside a longer word.
   */
  mayName(name: string): boolean {
    return (this._parseErrors ??= hasParseErrors(this.cell)) ? this.cell.text.includes(name) : this.mayHaveIdentifier(name);
  }

  private _parseErrors: boolean | undefined;

  identifiers(): Map<string, SyntaxNode[]> {
    if (this._idents) return this._idents;
    const m = new Map<string, SyntaxNode[]>();
    for (const id of this.cell.idx.byType.get('identifier') ?? []) {
      const t = id.text;
      let l = m.get(t);
      if (!l) m.set(t, (l = []));
      l.push(id);
    }
    return (this._idents = m);
  }
}

/** Is one of `names`, or a local alias of one, in `where` (a cell: possibly one of its names, mayName; a lookup: a key of it)? */
function someNameOrAlias(names: readonly string[], aliases: ReadonlyMap<string, readonly string[]>, where: CellCache | ReadonlyMap<string, unknown>): boolean {
  for (let i = 0; i < names.length; i++) {
    if (where instanceof CellCache ? where.mayName(names[i]) : where.has(names[i])) return true;
    const local = aliases.get(names[i]);
    if (local) for (let k = 0; k < local.length; k++) if (where instanceof CellCache ? where.mayName(local[k]) : where.has(local[k])) return true;
  }
  return false;
}

/** Append what `byName` lists under `name`, unless `taken` says it was appended already (it remembers only names found). */
function takeOnce<T>(byName: ReadonlyMap<string, readonly T[]>, name: string, taken: Set<string>, out: T[]): void {
  const l = byName.get(name);
  if (!l || taken.has(name)) return;
  taken.add(name);
  for (let i = 0; i < l.length; i++) out.push(l[i]);
}

const caches = new WeakMap<ParsedCell, CellCache>();

function hasParseErrors(cell: ParsedCell): boolean {
  return cell.idx.byType.get('ERROR').length > 0 || cell.idx.byType.get('MISSING').length > 0;
}

export function cellCache(cell: ParsedCell): CellCache {
  let c = caches.get(cell);
  if (!c) caches.set(cell, (c = new CellCache(cell)));
  return c;
}

/** Forget a disposed cell's lookups (engine.ts disposeCell), emptying them too: see NotebookContext.release. */
export function releaseCellCache(cell: ParsedCell): void {
  caches.get(cell)?.release();
  caches.delete(cell);
}

const segmentCache = new WeakMap<object, Set<string>>();

function lastSegments(qnames: Set<string>): Set<string> {
  const cached = segmentCache.get(qnames);
  if (cached) return cached;
  const s = new Set<string>();
  for (const q of qnames) s.add(q.slice(q.lastIndexOf('.') + 1));
  segmentCache.set(qnames, s);
  return s;
}

export class CellContext {
  constructor(readonly nb: NotebookContext, readonly cell: ParsedCell) {}

  get index(): number {
    return this.cell.index;
  }

  /** The masked source the tree was built from (same offsets as the original). */
  get source(): string {
    return this.cell.text;
  }

  get root(): SyntaxNode {
    return this.cell.tree.rootNode;
  }

  nodes(type: string): SyntaxNode[] {
    return this.cell.idx.byType.get(type) ?? [];
  }

  qname(node: SyntaxNode | null | undefined): string | undefined {
    return node ? this.nb.qname(node, this.cell.index) : undefined;
  }

  get cache(): CellCache {
    return cellCache(this.cell);
  }

  /** Identifier nodes of this cell with this text. */
  identifiers(name: string): SyntaxNode[] {
    if (!this.cache.mayHaveIdentifier(name)) return [];
    return this.cache.identifiers().get(name) ?? [];
  }

  /**
   * Could the cell hold a call or attribute reaching one of `qnames`? No when no last segment of
   * them (nor, with `aliases`, a local alias of one) can be one of its identifiers (mayName): the
   * called or accessed name is an identifier. Asked before building sets and the cell's lookups:
   * most cells mention none of the names (rules ask this on every cell they run).
   */
  private mentionsLastSegment(qnames: Iterable<string>, aliases: boolean): boolean {
    const cache = this.cache;
    const byLast = aliases ? this.nb.aliasIndex() : undefined;
    for (const q of qnames) {
      const last = q.slice(q.lastIndexOf('.') + 1);
      if (cache.mayName(last) || byLast?.get(last)?.some((a) => cache.mayName(a))) return true;
    }
    return false;
  }

  /** Calls whose function resolves (through imports) to one of `qnames`. */
  *callsTo(qnames: Iterable<string>): Generator<{ call: SyntaxNode; fn: SyntaxNode; qname: string }> {
    const list = Array.isArray(qnames) || qnames instanceof Set ? qnames : [...qnames];
    if (!this.mentionsLastSegment(list, true)) return;
    const set = list instanceof Set ? (list as Set<string>) : new Set(list);
    const out: Array<{ call: SyntaxNode; fn: SyntaxNode; qname: string }> = [];
    const names = new Set(lastSegments(set));
    for (const n of [...names]) for (const a of this.nb.aliasesOf(n)) names.add(a);
    const byName = this.cache.callsByName();
    for (const last of names) {
      for (const info of byName.get(last) ?? []) {
        const q = this.qname(info.fn);
        if (q && set.has(q)) out.push({ call: info.call, fn: info.fn, qname: q });
      }
    }
    out.sort((a, b) => a.call.startIndex - b.call.startIndex);
    yield* out;
  }

  /** Calls whose function's last name is in `names` (identifier or attribute; import aliases included), any receiver. */
  callsNamed(names: Iterable<string>): CallInfo[] {
    const list = Array.isArray(names) ? (names as string[]) : [...names];
    // Most cells call none of the names: say so before building sets and arrays (rules ask this on every cell they run),
    // and before building the cell's call index when its text does not even contain them. Plain loops, not
    // closures: this runs tens of thousands of times a scan, and each closure was an allocation.
    const aliases = this.nb.aliasIndex();
    if (!someNameOrAlias(list, aliases, this.cache)) return [];
    const byName = this.cache.callsByName();
    if (!someNameOrAlias(list, aliases, byName)) return [];
    // The names, then their aliases, each once, in that order (ties of the sort keep it), collecting
    // only those the cell calls: a set of every name and alias cost more than the lookups (rules pass
    // up to a hundred names).
    const out: CallInfo[] = [];
    const taken = new Set<string>();
    for (const n of list) takeOnce(byName, n, taken, out);
    for (const n of list) for (const a of this.nb.aliasesOf(n)) takeOnce(byName, a, taken, out);
    return out.sort((a, b) => a.call.startIndex - b.call.startIndex);
  }

  /**
   * Method calls `<object>.name(...)` with name in `names`, on receivers that are values (not an
   * imported module or class: `np.sort(...)` is not a `.sort()` method call).
   */
  *methodCalls(names: Iterable<string>): Generator<{ call: SyntaxNode; recv: SyntaxNode; name: string; nameNode: SyntaxNode; attr: SyntaxNode }> {
    for (const info of this.callsNamed(names)) {
      if (!info.recv || this.qname(info.recv)) continue;
      yield { call: info.call, recv: info.recv, name: info.name, nameNode: info.nameNode, attr: info.fn };
    }
  }

  /** Attribute nodes whose qualified name is in `qnames` (e.g. "numpy.float"). */
  *attributesTo(qnames: Iterable<string>): Generator<{ node: SyntaxNode; qname: string }> {
    const list = Array.isArray(qnames) || qnames instanceof Set ? qnames : [...qnames];
    if (!this.mentionsLastSegment(list, false)) return;
    const set = list instanceof Set ? (list as Set<string>) : new Set(list);
    const byName = this.cache.attrsByName();
    const out: Array<{ node: SyntaxNode; qname: string }> = [];
    for (const last of lastSegments(set)) {
      for (const info of byName.get(last) ?? []) {
        const q = this.qname(info.node);
        if (q && set.has(q)) out.push({ node: info.node, qname: q });
      }
    }
    out.sort((a, b) => a.node.startIndex - b.node.startIndex);
    yield* out;
  }

  /** Attribute nodes `x.name` with name in `names`. */
  attributesNamed(names: Iterable<string>): AttrInfo[] {
    const byName = this.cache.attrsByName();
    const out: AttrInfo[] = [];
    const taken = new Set<string>();
    for (const n of names) takeOnce(byName, n, taken, out);
    return out.sort((a, b) => a.node.startIndex - b.node.startIndex);
  }

  inError(node: SyntaxNode): boolean {
    for (const [s, e] of this.cell.idx.errors) if (node.startIndex >= s && node.endIndex <= e) return true;
    return false;
  }

  /** A free reference to a builtin-like name: not an attribute's member, keyword, parameter or definition. */
  isFreeName(id: SyntaxNode): boolean {
    const p = id.parent;
    if (!p) return false;
    if (p.type === 'attribute' && p.childForFieldName('attribute')?.startIndex === id.startIndex) return false;
    if (p.type === 'keyword_argument' && p.childForFieldName('name')?.startIndex === id.startIndex) return false;
    if (['dotted_name', 'aliased_import', 'parameters', 'lambda_parameters', 'default_parameter', 'typed_parameter',
      'function_definition', 'class_definition', 'global_statement', 'nonlocal_statement'].includes(p.type)) return false;
    return true;
  }

  /** Offset where an import line can go at the top of this cell (after a cell magic and __future__ imports). */
  importOffset(): number {
    const src = this.cell.source;
    let offset = afterCellMagic(src);
    for (const stmt of this.nodes('future_import_statement')) {
      if (stmt.parent?.type === 'module') {
        const nl = src.indexOf('\n', stmt.endIndex);
        offset = Math.max(offset, nl < 0 ? src.length : nl + 1);
      }
    }
    return offset;
  }

  /** An edit inserting `line` (without newline) at the top of the cell. */
  importEdit(line: string): TextEdit {
    const at = this.importOffset();
    const src = this.cell.source;
    const needsNl = at === src.length && at > 0 && !src.endsWith('\n');
    return { start: at, end: at, text: (needsNl ? '\n' : '') + line + '\n' };
  }

  /**
   * The local name to use for `module` in generated code (e.g. "np" for numpy), plus an import edit
   * when the notebook does not import it before this cell.
   */
  moduleRef(module: string, preferred: string): { name: string; edit?: TextEdit } | undefined {
    const alias = this.nb.aliasFor(module);
    if (alias && this.nb.importedBefore(module, this.cell.index)) return { name: alias };
    if (alias) return { name: alias, edit: this.importEdit(alias === module ? `import ${module}` : `import ${module} as ${alias}`) };
    if (this.nb.isBound(preferred)) return undefined;
    return { name: preferred, edit: this.importEdit(preferred === module ? `import ${module}` : `import ${module} as ${preferred}`) };
  }

  libraryVersion(lib: Library): string | undefined {
    return this.nb.info.env[lib];
  }
}
