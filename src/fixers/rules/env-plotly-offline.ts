/**
 * plotly 4.0 moved the online plotting module `plotly.plotly` out of the package (into
 * `chart_studio.plotly`, a client of the Chart Studio web service); importing it now raises
 * `ImportError: The plotly.plotly module is deprecated, please install the chart-studio package`.
 * Notebooks of 2016-2019 used it mostly as `py.iplot(fig)` to draw a figure inline, which uploaded the
 * figure and embedded the hosted copy. The environment has no network and no chart-studio, and the
 * plotly 4 migration guide's offline replacement draws the same figure locally: `plotly.offline.iplot`
 * / `plotly.offline.plot` take the same figure (and `filename=`). So the import becomes
 * `plotly.offline` under the same local name, the upload-only keywords (`sharing`, `fileopt`,
 * `world_readable`, and `auto_open` for iplot) go, and the credential calls (`py.sign_in(...)`,
 * `plotly.tools.set_credentials_file(...)`, which moved to chart_studio.tools) are deleted: they only
 * logged in to the service. Only when every use of the module is one of those calls; anything else
 * (`py.get_figure`, `py.image.save_as`, the module passed around) is left to the report.
 *
 * Recognised from the ImportError, with its uses in every cell (errorScope 'notebook').
 */
import type { SyntaxNode } from '../python/parser.js';
import type { CellContext } from './context.js';
import type { Rule, RuleMatch, TextEdit } from './types.js';
import { deleteStatement, err, rule } from './helpers.js';
import { callArgs, removeArgument, replaceNode } from './tree.js';

const PLOTLY_ONLINE = /plotly\.plotly module is deprecated|No module named 'plotly\.plotly'/;
/** What plotly 5.20 raises on `import plotly.plotly`. */
const PLOTLY_4_MESSAGE = 'The plotly.plotly module is deprecated,\nplease install the chart-studio package and use the\nchart_studio.plotly module instead.';
const DRAWS = new Set(['iplot', 'plot']);
const SIGN_IN = 'sign_in';
/** Keywords of the online calls that only steer the upload (chart_studio.plotly.plot's plot_options). */
const UPLOAD_ONLY: Record<string, ReadonlySet<string>> = {
  iplot: new Set(['sharing', 'fileopt', 'world_readable', 'auto_open']),
  plot: new Set(['sharing', 'fileopt', 'world_readable']),
};

interface Uses {
  /** Local names of the module (`py`). */
  modules: string[];
  /** Local names of functions imported from it (`iplot` -> 'iplot'). */
  functions: Map<string, string>;
}

/** How the notebook reaches plotly.plotly, when every use is a draw call or a sign-in; else undefined. */
function onlineUses(ctx: CellContext): Uses | undefined {
  return ctx.nb.memo('plotly-online-uses', () => {
    const modules: string[] = [];
    const functions = new Map<string, string>();
    for (const [local, list] of ctx.nb.bindings) {
      const online = list.filter((b) => b.qname === 'plotly.plotly' || b.qname.startsWith('plotly.plotly.'));
      if (!online.length) continue;
      if (online.length !== list.length) return undefined; // the name means something else too
      const q = online[0]!.qname;
      if (online.some((b) => b.qname !== q)) return undefined;
      if (q === 'plotly.plotly') modules.push(local);
      else if (DRAWS.has(q.slice('plotly.plotly.'.length))) functions.set(local, q.slice('plotly.plotly.'.length));
      else return undefined;
    }
    if (!modules.length && !functions.size) return undefined;
    for (const name of [...modules, ...functions.keys()]) {
      for (const { node } of ctx.nb.identifiers(name)) {
        const p = node.parent;
        if (p?.type === 'aliased_import' || p?.type === 'dotted_name' || p?.type === 'import_statement' || p?.type === 'import_from_statement') continue;
        if (functions.has(name)) {
          if (p?.type !== 'call' || p.childForFieldName('function')?.id !== node.id) return undefined;
          continue;
        }
        const method = p?.type === 'attribute' && p.childForFieldName('object')?.id === node.id ? p.childForFieldName('attribute')?.text : undefined;
        const call = p?.parent;
        if (!method || call?.type !== 'call' || call.childForFieldName('function')?.id !== p!.id) return undefined;
        if (!DRAWS.has(method) && method !== SIGN_IN) return undefined;
        if (method === SIGN_IN && call.parent?.type !== 'expression_statement') return undefined;
      }
    }
    return { modules, functions };
  });
}

/** `import plotly.plotly as py` -> `import plotly.offline as py`; `from plotly.plotly import iplot` -> `from plotly.offline import iplot`. */
function importEdits(ctx: CellContext): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const stmt of ctx.nodes('import_statement')) {
    for (const item of stmt.childrenForFieldName('name')) {
      if (item?.type !== 'aliased_import') continue;
      const name = item.childForFieldName('name');
      if (name && name.text.replace(/\s+/g, '') === 'plotly.plotly') edits.push(replaceNode(name, 'plotly.offline'));
    }
  }
  for (const stmt of ctx.nodes('import_from_statement')) {
    const mod = stmt.childForFieldName('module_name');
    if (mod && mod.text.replace(/\s+/g, '') === 'plotly.plotly') edits.push(replaceNode(mod, 'plotly.offline'));
  }
  return edits;
}

/** The upload-only keywords of a draw call, removed. */
function uploadKeywordEdits(ctx: CellContext, call: SyntaxNode, fn: string): TextEdit[] {
  const args = callArgs(call);
  if (!args) return [];
  const drop = [...args.keywords].filter(([k]) => UPLOAD_ONLY[fn]!.has(k)).map(([, node]) => node);
  // One edit per removed keyword would overlap on shared commas; several are rare: remove the first, the rest on the next pass.
  return drop.length ? [removeArgument(args, drop[0]!, ctx.source)] : [];
}

export const envPlotlyOffline: Rule = rule({
  id: 'env-plotly-online-to-offline',
  library: 'environment',
  title: 'plotly.plotly (moved out of plotly in 4.0, an online service) drawn with plotly.offline',
  old: 'import plotly.plotly as py\npy.iplot(fig)',
  new: 'import plotly.offline as py\npy.iplot(fig)',
  trigger: 'error',
  errorScope: 'notebook',
  errors: [err('ImportError', PLOTLY_ONLINE), err('ModuleNotFoundError', PLOTLY_ONLINE)],
  link: 'https://plotly.com/python/v4-migration/#online-features-plotlyplotly-moved-to-chartstudio-package',
  message: 'plotly 4.0 moved plotly.plotly (the Chart Studio upload client) into the chart-studio package, which the environment lacks and which needs the network; plotly.offline draws the same figure in the notebook, so the import points there, upload-only keywords and sign-in calls go',
  fixtures: [{
    before: "import plotly.plotly as py\nimport plotly.graph_objs as go\nimport plotly.tools as tls\ntls.set_credentials_file(username='me', api_key='k')\npy.sign_in('me', 'k')\nfig = go.Figure(data=[go.Bar(x=['a', 'b'], y=[1, 3])])\npy.iplot(fig, filename='bars', sharing='public')\nprint(sum(fig.data[0].y))",
    after: "import plotly.offline as py\nimport plotly.graph_objs as go\nimport plotly.tools as tls\nfig = go.Figure(data=[go.Bar(x=['a', 'b'], y=[1, 3])])\npy.iplot(fig, filename='bars')\nprint(sum(fig.data[0].y))",
    expect: '4',
    beforeError: 'ImportError',
    context: { runtime: { ename: 'ImportError', evalue: PLOTLY_4_MESSAGE } },
  }, {
    before: "from plotly.plotly import iplot\nimport plotly.graph_objs as go\niplot([go.Scatter(x=[1, 2], y=[2, 5])], filename='line')\nprint('drawn')",
    after: "from plotly.offline import iplot\nimport plotly.graph_objs as go\niplot([go.Scatter(x=[1, 2], y=[2, 5])], filename='line')\nprint('drawn')",
    expect: 'drawn',
    beforeError: 'ImportError',
    context: { runtime: { ename: 'ImportError', evalue: PLOTLY_4_MESSAGE } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const rt = ctx.nb.info.runtime;
    if (!rt || !PLOTLY_ONLINE.test(rt.evalue)) return;
    const uses = onlineUses(ctx);
    if (!uses) return;
    const edits: TextEdit[] = importEdits(ctx);
    for (const call of ctx.nodes('call')) {
      const fnNode = call.childForFieldName('function');
      if (!fnNode) continue;
      let fn: string | undefined;
      if (fnNode.type === 'identifier') fn = uses.functions.get(fnNode.text);
      else if (fnNode.type === 'attribute') {
        const obj = fnNode.childForFieldName('object');
        const attr = fnNode.childForFieldName('attribute')?.text ?? '';
        const q = ctx.qname(fnNode);
        if (obj?.type === 'identifier' && uses.modules.includes(obj.text)) fn = attr;
        else if (q === 'plotly.tools.set_credentials_file' && call.parent?.type === 'expression_statement') fn = SIGN_IN;
      }
      if (!fn) continue;
      if (fn === SIGN_IN) edits.push(deleteStatement(ctx, call.parent!));
      else edits.push(...uploadKeywordEdits(ctx, call, fn));
    }
    if (edits.length) yield { node: ctx.root, edits };
  },
});
