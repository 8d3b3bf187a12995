/**
 * Data paths. Old notebooks read their competition files from wherever the author kept them
 * (`train.csv`, `data/train.csv`, `C:\Users\...\train.csv`, `~/.kaggle/competitions/titanic/train.csv`,
 * `PATH + 'train.csv'`, `os.path.join(DIR, 'train.csv')`). In the sandbox the working dir is
 * /kaggle/working and the data is mounted at /kaggle/input/<file> (and /kaggle/input/<competition>/),
 * so a read of a file of the competition that is not already at `../input/<file>` is rewritten to
 * `../input/<file>`. Writes into directories that do not exist go to the working dir instead.
 */
import type { SyntaxNode } from '../python/parser.js';
import { cellCache, type CellContext, type NotebookContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, kwValue, replaceNode, stringValue, quoteOf } from './tree.js';

/** Readers and the keyword naming their path argument. */
const READERS: Record<string, string> = {
  'pandas.read_csv': 'filepath_or_buffer', 'pandas.read_table': 'filepath_or_buffer', 'pandas.read_excel': 'io',
  'pandas.read_json': 'path_or_buf', 'pandas.read_pickle': 'filepath_or_buffer', 'pandas.read_parquet': 'path',
  'pandas.read_hdf': 'path_or_buf', 'pandas.read_feather': 'path', 'pandas.read_fwf': 'filepath_or_buffer',
  'pandas.DataFrame.from_csv': 'path', 'numpy.loadtxt': 'fname', 'numpy.genfromtxt': 'fname', 'numpy.load': 'file',
  'numpy.fromfile': 'file', 'io.open': 'file', 'codecs.open': 'filename', 'PIL.Image.open': 'fp', 'csv.reader': '',
};

const READER_NAMES = [...new Set([...Object.keys(READERS).map((q) => q.slice(q.lastIndexOf('.') + 1)), 'open'])];

const WRITERS = new Set(['to_csv', 'to_excel', 'to_pickle', 'to_json', 'to_parquet', 'savefig', 'to_hdf', 'to_feather']);

/** Names of the calls that write a file: the writer methods, plt.savefig, np.save and np.savetxt. */
const WRITE_CALL_NAMES = [...new Set([...WRITERS, 'savefig', 'save', 'savetxt'])];

export const KAGGLE_WORKING = '/kaggle/working';

interface PathExpr {
  /** The node to replace. */
  node: SyntaxNode;
  /** The literal file-name part the expression ends with (e.g. "train.csv" or "data/train.csv"). */
  tail: string;
  /** Whether the whole path is a plain literal (so "exists as written" can be decided). */
  literal?: string;
}

/** The trailing literal piece of a path expression: 'x', A + 'x', os.path.join(A, 'x'), f'{A}/x', '{}/x'.format(A), '%s/x' % A. */
function pathExpr(ctx: CellContext, n: SyntaxNode): PathExpr | undefined {
  const lit = stringValue(n);
  if (lit !== undefined) return { node: n, tail: lit, literal: lit };
  if (n.type === 'string') {
    // f-string: the text after the last interpolation
    const parts = n.namedChildren.filter((c): c is SyntaxNode => !!c);
    const last = parts.filter((c) => c.type === 'string_content').pop();
    const lastInterp = parts.filter((c) => c.type === 'interpolation').pop();
    if (last && lastInterp && last.startIndex > lastInterp.startIndex) return { node: n, tail: last.text };
    return undefined;
  }
  if (n.type === 'binary_operator') {
    const op = n.child(1)?.type;
    const right = n.childForFieldName('right');
    const left = n.childForFieldName('left');
    if ((op === '+' || op === '/') && right) {
      // DIR + 'train.csv', Path(DIR) / 'train.csv'
      const r = stringValue(right);
      if (r !== undefined) return { node: n, tail: r };
    }
    if (op === '%' && left) {
      const l = stringValue(left);
      if (l !== undefined) return { node: n, tail: l.replace(/.*%[sdr]/, '') };
    }
    return undefined;
  }
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    const q = ctx.qname(fn);
    const args = callArgs(n);
    if (!args || args.splat) return undefined;
    if (q === 'os.path.join' || q === 'posixpath.join' || q === 'pathlib.Path' || q === 'pathlib.PurePath') {
      const last = args.positional[args.positional.length - 1];
      const l = stringValue(last);
      if (l !== undefined) {
        const all = args.positional.map((a) => stringValue(a));
        return { node: n, tail: l, literal: all.every((x) => x !== undefined) ? all.join('/') : undefined };
      }
      return undefined;
    }
    if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'format') {
      const s = stringValue(fn.childForFieldName('object'));
      if (s !== undefined) return { node: n, tail: s.replace(/.*\}/, '') };
    }
    // Path('data') / 'train.csv' is a binary '/', handled below.
    return undefined;
  }
  return undefined;
}

function basename(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? '';
}

/** Map data file basenames (lower-case) to their path relative to the data dir (top level preferred). */
function dataIndex(ctx: CellContext): Map<string, string> {
  const out = new Map<string, string>();
  const files = [...ctx.nb.info.dataFiles].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  for (const rel of files) {
    const key = basename(rel).toLowerCase();
    if (!out.has(key)) out.set(key, rel.replace(/\\/g, '/'));
  }
  return out;
}

/** Does the literal path, as the kernel sees it from /kaggle/working, already point at the mounted file? */
function alreadyMounted(literal: string, rel: string, competition: string | undefined): boolean {
  const p = literal.replace(/\\/g, '/').replace(/\/+/g, '/');
  const targets = [`../input/${rel}`, `/kaggle/input/${rel}`, `./../input/${rel}`];
  if (competition) targets.push(`../input/${competition}/${rel}`, `/kaggle/input/${competition}/${rel}`);
  return targets.includes(p);
}

function readPathArg(nb: NotebookContext, cell: number, call: SyntaxNode): SyntaxNode | undefined {
  const fn = call.childForFieldName('function');
  const q = fn ? nb.qname(fn, cell) : undefined;
  const args = callArgs(call);
  if (!args) return undefined;
  if (q && q in READERS) return args.positional[0] ?? (READERS[q] ? kwValue(args.keywords.get(READERS[q])) : undefined);
  // builtin open() for reading
  if (fn?.type === 'identifier' && fn.text === 'open' && !nb.isBound('open')) {
    const mode = stringValue(args.positional[1] ?? kwValue(args.keywords.get('mode'))) ?? 'r';
    if (/[wax+]/.test(mode)) return undefined;
    return args.positional[0] ?? kwValue(args.keywords.get('file'));
  }
  return undefined;
}

function rewriteTo(ctx: CellContext, expr: PathExpr, rel: string): TextEdit {
  const q = expr.node.type === 'string' ? quoteOf(expr.node).replace(/^[a-zA-Z]*/, '') : "'";
  return replaceNode(expr.node, `${q}../input/${rel}${q}`);
}

/** Names some reader reads (`pd.read_csv(train_file)`), in any cell. */
function readPathNames(nb: NotebookContext): Set<string> {
  return nb.memo('data-path-names', () => {
    const s = new Set<string>();
    for (const cell of nb.cells) {
      const calls = cellCache(cell);
      for (const n of READER_NAMES) {
        for (const { call } of calls.callsNamed(n)) {
          const arg = readPathArg(nb, cell.index, call);
          if (arg?.type === 'identifier') s.add(arg.text);
        }
      }
    }
    return s;
  });
}

const dataPath = rule({
  id: 'data-path',
  // A reader call, or the assignment of a name some reader reads (in any cell).
  triggers: READER_NAMES,
  gate: { notebookTriggers: readPathNames },
  library: 'data',
  title: 'competition data read from the author\'s path',
  old: "pd.read_csv('data/train.csv')",
  new: "pd.read_csv('../input/train.csv')",
  errors: [err('FileNotFoundError', /No such file or directory/)],
  link: 'https://www.kaggle.com/docs/notebooks',
  message: 'the notebook reads a competition file from a path that does not exist in the sandbox; the data is mounted at ../input/',
  fixtures: [
    {
      before: "import os\nimport pandas as pd\nPATH = 'data/'\na = pd.read_csv('data/train.csv')\nb = pd.read_csv(PATH + 'train.csv')\nc = pd.read_csv(os.path.join('~', '.kaggle', 'competitions', 'titanic', 'train.csv'))\nd = pd.read_csv('C:\\\\Users\\\\me\\\\titanic\\\\Train.csv')\nprint(len(a), len(b), len(c), len(d))",
      after: "import os\nimport pandas as pd\nPATH = 'data/'\na = pd.read_csv('../input/train.csv')\nb = pd.read_csv('../input/train.csv')\nc = pd.read_csv('../input/train.csv')\nd = pd.read_csv('../input/train.csv')\nprint(len(a), len(b), len(c), len(d))",
      expect: '2 2 2 2',
      beforeError: 'FileNotFoundError',
      context: { dataFiles: ['train.csv', 'test.csv'] },
    },
    {
      before: "import numpy as np\ntrain_file = './input/train.csv'\nwith open(train_file) as f:\n    header = f.readline().strip()\nprint(header, np.loadtxt('test.csv', delimiter=',', skiprows=1).shape)",
      after: "import numpy as np\ntrain_file = '../input/train.csv'\nwith open(train_file) as f:\n    header = f.readline().strip()\nprint(header, np.loadtxt('../input/test.csv', delimiter=',', skiprows=1).shape)",
      expect: 'a,b (2, 2)',
      beforeError: 'FileNotFoundError',
      context: { dataFiles: ['train.csv', 'test.csv'] },
    },
    {
      before: "from pathlib import Path\nimport pandas as pd\ndataset_dir = 'dataset'\na = pd.read_csv(Path(dataset_dir, 'train.csv'))\nb = pd.read_csv(Path(dataset_dir) / 'test.csv')\nprint(a.shape, b.shape)",
      after: "from pathlib import Path\nimport pandas as pd\ndataset_dir = 'dataset'\na = pd.read_csv('../input/train.csv')\nb = pd.read_csv('../input/test.csv')\nprint(a.shape, b.shape)",
      expect: '(2, 2) (2, 2)',
      beforeError: 'FileNotFoundError',
      context: { dataFiles: ['train.csv', 'test.csv'] },
    },
  ],
  *find(ctx): Generator<RuleMatch> {
    const index = dataIndex(ctx);
    const written = writtenPaths(ctx);
    if (index.size === 0 && written.size === 0) return;
    const competition = ctx.nb.info.competition;
    const match = (expr: PathExpr): string | undefined => {
      const rel = index.get(basename(expr.tail).toLowerCase());
      if (!rel) return undefined;
      if (expr.literal !== undefined && alreadyMounted(expr.literal, rel, competition)) return undefined;
      return rel;
    };
    const pathNames = new Set<string>();
    for (const { call } of ctx.callsNamed(READER_NAMES)) {
      const arg = readPathArg(ctx.nb, ctx.index, call);
      if (!arg) continue;
      if (arg.type === 'identifier') { pathNames.add(arg.text); continue; }
      const expr = pathExpr(ctx, arg);
      // Reading back a file the notebook wrote into a directory we redirect to the working dir.
      if (expr?.literal !== undefined && written.has(expr.literal)) {
        const q = quoteOf(arg).replace(/^[a-zA-Z]*/, '');
        yield { node: arg, edits: [replaceNode(arg, `${q}${basename(expr.literal)}${q}`)], message: `${expr.literal} is written by the notebook into a directory that does not exist here; it is read back from the working dir` };
        continue;
      }
      const rel = expr && match(expr);
      if (expr && rel) yield { node: arg, edits: [rewriteTo(ctx, expr, rel)], message: `${expr.literal ?? expr.tail} is read from the author's layout; the competition file is at ../input/${rel}` };
    }
    // `train_file = 'data/train.csv'` (assigned once) later passed to a reader, in this or another cell.
    const usedAsPath = readPathNames(ctx.nb);
    for (const a of ctx.nodes('assignment')) {
      const left = a.childForFieldName('left');
      const right = a.childForFieldName('right');
      if (left?.type !== 'identifier' || !right || !usedAsPath.has(left.text)) continue;
      if (assignmentCount(ctx, left.text) !== 1) continue;
      const expr = pathExpr(ctx, right);
      const rel = expr && match(expr);
      if (expr && rel) yield { node: right, edits: [rewriteTo(ctx, expr, rel)], message: `${left.text} = ${expr.literal ?? expr.tail} is read from the author's layout; the competition file is at ../input/${rel}` };
    }
  },
});

function assignmentCount(ctx: CellContext, name: string): number {
  const counts = ctx.nb.memo('assignment-counts', () => {
    const m = new Map<string, number>();
    for (const cell of ctx.nb.cells) {
      for (const t of ['assignment', 'augmented_assignment']) {
        for (const a of cell.idx.byType.get(t) ?? []) {
          const l = a.childForFieldName('left');
          if (l?.type === 'identifier') m.set(l.text, (m.get(l.text) ?? 0) + 1);
        }
      }
    }
    return m;
  });
  return counts.get(name) ?? 0;
}

/** Directories the notebook creates itself (os.makedirs('out'), os.mkdir('out')). */
function createdDirs(ctx: CellContext): Set<string> {
  return ctx.nb.memo('created-dirs', () => createdDirsOf(ctx));
}

function createdDirsOf(ctx: CellContext): Set<string> {
  const out = new Set<string>();
  for (const cell of ctx.nb.cells) {
    const calls = cellCache(cell);
    for (const { call } of [...calls.callsNamed('makedirs'), ...calls.callsNamed('mkdir')]) {
      const q = ctx.nb.qname(call.childForFieldName('function')!, cell.index);
      if (q !== 'os.makedirs' && q !== 'os.mkdir' && q !== 'pathlib.Path.mkdir') continue;
      const v = stringValue(callArgs(call)?.positional[0]);
      if (v) out.add(v.replace(/\/+$/, ''));
    }
  }
  return out;
}

/** Names assigned exactly once to a string literal anywhere in the notebook. */
function constStrings(ctx: CellContext): Map<string, string> {
  return ctx.nb.memo('const-strings', () => {
    const values = new Map<string, string>();
    for (const cell of ctx.nb.cells) {
      for (const a of cell.idx.byType.get('assignment') ?? []) {
        const l = a.childForFieldName('left');
        const v = stringValue(a.childForFieldName('right'));
        if (l?.type === 'identifier' && v !== undefined) values.set(l.text, v);
      }
    }
    for (const name of [...values.keys()]) if (assignmentCount(ctx, name) !== 1) values.delete(name);
    return values;
  });
}

/** The value of a path expression built from literals and once-assigned names (Path(d, 'f'), os.path.join, d + 'f'). */
function constPath(ctx: CellContext, n: SyntaxNode | null | undefined): string | undefined {
  if (!n) return undefined;
  const lit = stringValue(n);
  if (lit !== undefined) return lit;
  if (n.type === 'identifier') return constStrings(ctx).get(n.text);
  if (n.type === 'binary_operator' && ['+', '/'].includes(n.child(1)?.type ?? '')) {
    const l = constPath(ctx, n.childForFieldName('left'));
    const r = constPath(ctx, n.childForFieldName('right'));
    if (l === undefined || r === undefined) return undefined;
    return n.child(1)?.type === '/' ? `${l.replace(/\/$/, '')}/${r}` : l + r;
  }
  if (n.type === 'call') {
    const q = ctx.qname(n.childForFieldName('function'));
    if (q !== 'os.path.join' && q !== 'pathlib.Path' && q !== 'pathlib.PurePath') return undefined;
    const parts = callArgs(n)?.positional.map((a) => constPath(ctx, a));
    if (!parts?.length || parts.some((p) => p === undefined)) return undefined;
    return parts.map((p, i) => (i < parts.length - 1 ? p!.replace(/\/$/, '') : p)).join('/');
  }
  return undefined;
}

/** Where a write of `literal` goes instead (its basename in the working dir), or undefined when the path is fine. */
function redirectedOutput(ctx: CellContext, literal: string): { base: string; dir: string } | undefined {
  const made = createdDirs(ctx);
  const norm = literal.replace(/\\/g, '/');
  const dir = norm.includes('/') ? norm.slice(0, norm.lastIndexOf('/')) : '';
  if (!dir || dir === '.' || dir === KAGGLE_WORKING || dir === './' || made.has(dir) || made.has(dir.replace(/^\.\//, ''))) return undefined;
  const base = basename(norm);
  return base ? { base, dir } : undefined;
}

/** Literal paths the notebook writes (anywhere) that are redirected to the working dir. */
function writtenPaths(ctx: CellContext): Set<string> {
  return ctx.nb.memo('written-paths', () => {
    const out = new Set<string>();
    for (const cell of ctx.nb.cells) {
      const calls = cellCache(cell);
      for (const n of WRITE_CALL_NAMES) {
        for (const { call } of calls.callsNamed(n)) {
          const v = stringValue(callArgs(call)?.positional[0]);
          if (v !== undefined && redirectedOutput(ctx, v)) out.add(v);
        }
      }
    }
    return out;
  });
}

const outputPath = rule({
  id: 'data-output-path',
  triggers: [...WRITE_CALL_NAMES, 'open'],
  library: 'data',
  title: 'output written into a directory that does not exist',
  old: "submission.to_csv('output/submission.csv')",
  new: "submission.to_csv('submission.csv')",
  errors: [err('OSError', /Cannot save file into a non-existent directory/), err('FileNotFoundError', /No such file or directory/)],
  link: 'https://www.kaggle.com/docs/notebooks',
  message: "the notebook writes into a directory of the author's machine that does not exist in the sandbox; the file goes to the working dir instead",
  fixtures: [{
    before: "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.to_csv('../output/submission.csv', index=False)\nprint(open('submission.csv').read().split(), pd.read_csv('../output/submission.csv').shape)",
    after: "import pandas as pd\ndf = pd.DataFrame({'a': [1]})\ndf.to_csv('submission.csv', index=False)\nprint(open('submission.csv').read().split(), pd.read_csv('submission.csv').shape)",
    expect: "['a', '1'] (1, 1)",
    beforeError: 'OSError',
  }, {
    before: "from pathlib import Path\nimport pandas as pd\nout_dir = 'results'\npd.DataFrame({'a': [1]}).to_csv(Path(out_dir, 'sub.csv'), index=False)\nprint(open('sub.csv').read().split())",
    after: "from pathlib import Path\nimport pandas as pd\nout_dir = 'results'\npd.DataFrame({'a': [1]}).to_csv('sub.csv', index=False)\nprint(open('sub.csv').read().split())",
    expect: "['a', '1']",
    beforeError: 'OSError',
  }],
  *find(ctx): Generator<RuleMatch> {
    const check = (arg: SyntaxNode | undefined) => {
      const v = constPath(ctx, arg);
      if (!arg || v === undefined) return undefined;
      const r = redirectedOutput(ctx, v);
      if (!r) return undefined;
      const q = arg.type === 'string' ? quoteOf(arg).replace(/^[a-zA-Z]*/, '') : "'";
      return { node: arg, text: `${q}${r.base}${q}`, dir: r.dir };
    };
    for (const { call, name } of ctx.methodCalls(WRITERS)) {
      const args = callArgs(call);
      const r = check(args?.positional[0] ?? kwValue(args?.keywords.get(name === 'savefig' ? 'fname' : 'path_or_buf')));
      if (r) yield { node: r.node, edits: [replaceNode(r.node, r.text)], message: `${r.dir}/ does not exist in the sandbox; the file is written to the working dir` };
    }
    for (const { call } of ctx.callsTo(['matplotlib.pyplot.savefig', 'numpy.save', 'numpy.savetxt'])) {
      const r = check(callArgs(call)?.positional[0]);
      if (r) yield { node: r.node, edits: [replaceNode(r.node, r.text)], message: `${r.dir}/ does not exist in the sandbox; the file is written to the working dir` };
    }
    for (const { call, fn } of ctx.callsNamed(['open'])) {
      if (fn.type !== 'identifier' || ctx.nb.isBound('open')) continue;
      const args = callArgs(call);
      const mode = stringValue(args?.positional[1] ?? kwValue(args?.keywords.get('mode'))) ?? 'r';
      if (!/[wa]/.test(mode)) continue;
      const r = check(args?.positional[0]);
      if (r) yield { node: r.node, edits: [replaceNode(r.node, r.text)], message: `${r.dir}/ does not exist in the sandbox; the file is written to the working dir` };
    }
  },
});

export const dataPathRules: Rule[] = [dataPath, outputPath];
