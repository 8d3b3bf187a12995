/**
 * Notebooks written in Google Colab (common from 2018 on) begin by mounting Google Drive or asking
 * the browser for a file: `from google.colab import drive; drive.mount('/content/drive')`. The
 * `google.colab` package exists only inside Colab, so outside it the import fails and nothing after
 * it runs. Mounting, unmounting, downloading a result to the browser and authenticating compute
 * nothing the notebook uses afterwards; here the data is mounted by the run itself (the data-path
 * rules point the author's Drive paths at it), so those statements and the import are removed.
 * `files.upload()` returns the uploaded files' bytes, keyed by file name: where the notebook reads them
 * by name (`uploaded['train.csv']`) and every name is a file of the mounted data, the call becomes
 * that dict, read from the data (the same bytes the author uploaded: the competition's file); where
 * the names are not written it is reported, not removed; where nothing reads the result it only put
 * the files in the working dir, and goes like the mount.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch } from './types.js';
import { deleteStatement, err, rule } from './helpers.js';
import { replaceNode, stringValue } from './tree.js';
import { DATA_ROOT } from './missing-path.js';

/** Colab calls with no result the notebook uses: removing the statement changes nothing it computes. */
const SIDE_EFFECT_ONLY = [
  'google.colab.drive.mount', 'google.colab.drive.flush_and_unmount', 'google.colab.files.download',
  'google.colab.auth.authenticate_user', 'google.colab.output.enable_custom_widget_manager',
  'google.colab.output.disable_custom_widget_manager', 'google.colab.output.clear',
];

const UPLOAD = 'google.colab.files.upload';

function importsColab(stmt: SyntaxNode): boolean {
  if (stmt.type === 'import_from_statement') {
    const mod = stmt.childForFieldName('module_name')?.text.replace(/\s/g, '') ?? '';
    return mod === 'google.colab' || mod.startsWith('google.colab.');
  }
  const items = stmt.childrenForFieldName('name').filter((n): n is SyntaxNode => !!n);
  return items.length > 0 && items.every((i) => {
    const dn = i.type === 'aliased_import' ? i.childForFieldName('name') : i;
    const mod = dn?.text.replace(/\s/g, '') ?? '';
    return mod === 'google.colab' || mod.startsWith('google.colab.');
  });
}

/**
 * The statement of an upload whose result nothing reads: `files.upload()` alone, or `uploaded =
 * files.upload()` with `uploaded` never used. It only put the competition's files in the working
 * dir, which the run mounts: the statement can go like a Drive mount.
 */
function unusedUpload(ctx: CellContext, call: SyntaxNode): SyntaxNode | undefined {
  const p = call.parent;
  if (p?.type === 'expression_statement' && p.namedChildren.length === 1) return p;
  if (p?.type !== 'assignment' || p.childForFieldName('right')?.id !== call.id || p.parent?.type !== 'expression_statement') return undefined;
  const left = p.childForFieldName('left');
  if (left?.type !== 'identifier') return undefined;
  const uses = ctx.nb.identifiers(left.text).filter(({ node }) => node.startIndex !== left.startIndex || node.endIndex !== left.endIndex);
  return uses.length ? undefined : p.parent;
}

/**
 * `name = files.upload()` whose result the notebook reads under literal file names that are all files
 * of the mounted data (matched by base name): the dict of those files' bytes, as source; else undefined.
 */
function uploadAsData(ctx: CellContext, call: SyntaxNode): string | undefined {
  const p = call.parent;
  if (p?.type !== 'assignment' || p.childForFieldName('right')?.id !== call.id) return undefined;
  const left = p.childForFieldName('left');
  if (left?.type !== 'identifier') return undefined;
  const keys = new Set<string>();
  for (const { node } of ctx.nb.identifiers(left.text)) {
    const sub = node.parent;
    if (sub?.type !== 'subscript' || sub.childForFieldName('value')?.id !== node.id) continue;
    const key = stringValue(sub.childForFieldName('subscript'));
    if (key !== undefined) keys.add(key);
  }
  if (!keys.size) return undefined;
  const files = ctx.nb.info.dataFiles;
  const entries: string[] = [];
  for (const key of [...keys].sort()) {
    const file = files.find((f) => f === key || f.endsWith(`/${key}`));
    if (!file) return undefined;
    entries.push(`${JSON.stringify(key)}: open(${JSON.stringify(`${DATA_ROOT}/${file}`)}, 'rb').read()`);
  }
  return `{${entries.join(', ')}}`;
}

/** Does any cell of the notebook keep what `files.upload` returned (the import must then stay, and the finding explains)? */
function uploadsAnywhere(ctx: CellContext): boolean {
  return ctx.nb.identifiers('upload').some(({ node, cell }) => {
    if (node.parent?.type !== 'attribute' || ctx.nb.qname(node.parent, cell) !== UPLOAD) return false;
    const call = node.parent.parent;
    return call?.type !== 'call' || (!unusedUpload(ctx, call) && uploadAsData(ctx, call) === undefined);
  });
}

export const colabOnly: Rule = rule({
  id: 'env-colab-only',
  library: 'environment',
  title: 'Google Colab-only calls (Drive mount, browser download)',
  old: "from google.colab import drive\ndrive.mount('/content/drive')",
  new: '(removed: the run mounts the data)',
  // The import's cell names `colab`; the calls' cells name the function (the module may be imported elsewhere).
  triggers: ['colab', 'mount', 'flush_and_unmount', 'download', 'upload', 'authenticate_user', 'enable_custom_widget_manager', 'disable_custom_widget_manager', 'clear'],
  errors: [err('ModuleNotFoundError', /No module named 'google(\.colab)?'/)],
  link: 'https://colab.research.google.com/notebooks/io.ipynb',
  message: 'google.colab exists only inside Google Colab: the Drive mount and browser downloads are removed (the data is mounted by the run)',
  fixtures: [
    {
      before: "from google.colab import drive\ndrive.mount('/content/drive')\nprint('ok')",
      after: "print('ok')",
      expect: 'ok',
      beforeError: 'ModuleNotFoundError',
    },
    {
      before: "import pandas as pd\nfrom google.colab import files, drive\nif True:\n    drive.mount('/content/gdrive', force_remount=True)\ndf = pd.DataFrame({'a': [1, 2]})\ndf.to_csv('out.csv'); files.download('out.csv')\nprint(len(df))",
      after: "import pandas as pd\nif True:\n    pass\ndf = pd.DataFrame({'a': [1, 2]})\ndf.to_csv('out.csv'); pass\nprint(len(df))",
      expect: '2',
      beforeError: 'ModuleNotFoundError',
    },
    {
      // An upload nothing reads only put the competition's files in the working dir: removed.
      before: "from google.colab import files\nuploaded = files.upload()\nprint('ok')",
      after: "print('ok')",
      expect: 'ok',
      beforeError: 'ModuleNotFoundError',
    },
    {
      // The uploaded bytes are read by name, a file of the mounted data: the same bytes, read from it.
      before: "import io\nimport pandas as pd\nfrom google.colab import files\nuploaded = files.upload()\nfor fn in uploaded.keys():\n    print(fn)\ndf = pd.read_csv(io.BytesIO(uploaded['train.csv']))\nprint(df.shape)",
      after: "import io\nimport pandas as pd\nuploaded = {\"train.csv\": open(\"../input/train.csv\", 'rb').read()}\nfor fn in uploaded.keys():\n    print(fn)\ndf = pd.read_csv(io.BytesIO(uploaded['train.csv']))\nprint(df.shape)",
      expect: 'train.csv\n(2, 2)',
      beforeError: 'ModuleNotFoundError',
      context: { dataFiles: ['train.csv', 'test.csv'] },
    },
    {
      // The uploaded bytes are read afterwards: reported only.
      before: "from google.colab import files\nuploaded = files.upload()\nprint(len(uploaded))",
      expect: '0',
      manual: "uploaded = {}\nprint(len(uploaded))",
      beforeError: 'ModuleNotFoundError',
    },
  ],
  *find(ctx): Generator<RuleMatch> {
    const uploads = [...ctx.callsTo([UPLOAD])];
    for (const { call } of uploads) {
      const unused = unusedUpload(ctx, call);
      const asData = unused ? undefined : uploadAsData(ctx, call);
      if (unused) yield { node: call, edits: [deleteStatement(ctx, unused)] };
      else if (asData) yield { node: call, edits: [replaceNode(call, asData)] };
      else yield { node: call, message: 'files.upload() asks the browser for a file, which only Colab can do: read the mounted data files instead' };
    }
    for (const { call } of ctx.callsTo(SIDE_EFFECT_ONLY)) {
      const stmt = call.parent;
      // Only a call that is a statement of its own: a result that is kept is used.
      if (stmt?.type !== 'expression_statement' || stmt.namedChildren.length !== 1) continue;
      yield { node: call, edits: [deleteStatement(ctx, stmt)] };
    }
    // The import goes too, unless an upload still needs it (then the finding above explains).
    if (uploadsAnywhere(ctx)) return;
    for (const stmt of [...ctx.nodes('import_from_statement'), ...ctx.nodes('import_statement')]) {
      if (importsColab(stmt)) yield { node: stmt, edits: [deleteStatement(ctx, stmt)] };
    }
  },
});
