/**
 * matplotlib 3.3 deprecated subplot specifications that are not integers (API changes 3.3: "Passing
 * non-integers as three-element position specification is deprecated") and 3.5 removed them:
 * `SubplotSpec._from_subplot_args` now raises "Single argument to subplot must be a three-digit
 * integer, not '231'" where 3.2 ran `str(int(arg))`. Era notebooks built the specification as a
 * string (`plt.subplot('23' + str(i + 1))`) or wrote it as one (`add_subplot('111')`).
 *
 * The same message names an Axes when the notebook passed one to make it current
 * (`plt.subplot(ax)`, which pyplot accepted before `_from_subplot_args` took every call): that is
 * `plt.sca(ax)`.
 *
 * A string literal of three digits is certain from the source; anything else (a variable, a
 * concatenation) is repaired from the error, on the traced lines.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, methodCall, replaceNode, stringValue } from './tree.js';
import { atRuntimeError, isTracedCell } from './traceback.js';

const SINGLE_ARGUMENT = /Single argument to subplot must be a three-digit integer, not (.*)$/s;
const SUBPLOT_CALLS = new Set(['subplot', 'add_subplot']);

function subplotCall(call: SyntaxNode): { name: string; arg: SyntaxNode } | undefined {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'identifier' ? fn.text : fn?.type === 'attribute' ? methodCall(call)?.name : undefined;
  if (!name || !SUBPLOT_CALLS.has(name)) return undefined;
  const args = callArgs(call);
  if (!args || args.splat || args.positional.length !== 1) return undefined;
  return { name, arg: args.positional[0] };
}

export const mplSubplotArgument: Rule = rule({
  id: 'mpl-subplot-string-spec',
  triggers: ['subplot', 'add_subplot'],
  library: 'matplotlib',
  title: "subplot('231') (a three-digit string)",
  old: "plt.subplot('23' + str(i + 1))",
  new: "plt.subplot(int('23' + str(i + 1)))",
  removedIn: '3.5',
  deprecatedIn: '3.3',
  errors: [err('ValueError', SINGLE_ARGUMENT)],
  link: 'https://matplotlib.org/stable/api/prev_api_changes/api_changes_3.3.0/deprecations.html',
  message: "subplot specifications that are not integers were deprecated in matplotlib 3.3 and removed in 3.5 (a string such as '231' was read with int()); an Axes given to subplot() is made current with plt.sca()",
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig = plt.figure()\nfor i in range(2):\n    plt.subplot('12' + str(i + 1))\nax = fig.add_subplot('121')\nprint(len(fig.axes), ax.get_subplotspec().get_geometry())",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig = plt.figure()\nfor i in range(2):\n    plt.subplot(int('12' + str(i + 1)))\nax = fig.add_subplot(121)\nprint(len(fig.axes), ax.get_subplotspec().get_geometry())",
    expect: '3 (1, 2, 0, 0)',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: "Single argument to subplot must be a three-digit integer, not '121'", lines: [6] } },
  }, {
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, (a, b) = plt.subplots(1, 2)\nplt.subplot(a)\nplt.plot([1, 2])\nprint(len(a.lines), len(b.lines))",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, (a, b) = plt.subplots(1, 2)\nplt.sca(a)\nplt.plot([1, 2])\nprint(len(a.lines), len(b.lines))",
    expect: '1 0',
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'Single argument to subplot must be a three-digit integer, not <Axes: >', lines: [5] } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, SINGLE_ARGUMENT);
    const traced = !!at && isTracedCell(ctx);
    const given = at?.match[1].trim() ?? '';
    const axes = /^(<(matplotlib\.axes\.\S+ object|Axes\b)|AxesSubplot\()/.test(given);
    for (const call of ctx.nodes('call')) {
      const sub = subplotCall(call);
      if (!sub) continue;
      const literal = stringValue(sub.arg);
      if (literal !== undefined && /^\d{3}$/.test(literal)) {
        yield { node: sub.arg, edits: [replaceNode(sub.arg, literal)] };
        continue;
      }
      if (!traced || !at!.onLine(call)) continue;
      if (axes) {
        // Only pyplot's subplot made a given Axes current; its return value (the Axes) must not be used.
        const fn = call.childForFieldName('function')!;
        if (sub.name !== 'subplot' || call.parent?.type !== 'expression_statement') continue;
        const nameNode = fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn;
        yield { node: call, edits: [replaceNode(nameNode, 'sca')] };
      } else if (/^'.*'$|^".*"$/.test(given) && !(sub.arg.type === 'call' && sub.arg.childForFieldName('function')?.text === 'int')) {
        yield { node: sub.arg, edits: [{ start: sub.arg.startIndex, end: sub.arg.startIndex, text: 'int(' }, { start: sub.arg.endIndex, end: sub.arg.endIndex, text: ')' }] };
      }
    }
  },
});
