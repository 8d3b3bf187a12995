/**
 * matplotlib 3.3 made `set_ticklabels` check the labels against fixed tick positions: with a
 * FixedLocator (after `set_xticks`, `plt.xticks(ticks, labels)`, or a categorical axis such as
 * seaborn's bar and count plots draw) a different number of labels raises ValueError ("The number
 * of FixedLocator locations (3), usually from a call to set_ticks, does not match the number of
 * labels (4)"). Before, a FixedFormatter labelled tick i with label i: labels past the last tick
 * were never shown, ticks past the last label had none. The repair passes exactly that list: the
 * labels cut or padded with '' to the number of ticks. Pictures are reported, not judged; what
 * matters is that the notebook runs on the way it did.
 *
 * Recognised from the runtime error only (tick counts are runtime state), on the traceback's line.
 */
import type { SyntaxNode } from '../python/parser.js';
import type { Rule, RuleMatch } from './types.js';
import { err, rule } from './helpers.js';
import { callArgs, isPure, replaceNode } from './tree.js';
import { atRuntimeError } from './traceback.js';

const MISMATCH = /The number of FixedLocator locations \(\d+\), usually from a call to set_ticks, does not match the number of (tick)?labels \(\d+\)/;

/** Tick positions safe to evaluate twice: pure, or range/arange/linspace over pure (or len(pure)) arguments. */
function repeatable(n: SyntaxNode): boolean {
  if (isPure(n)) return true;
  if (n.type !== 'call') return false;
  const fn = n.childForFieldName('function')?.text ?? '';
  if (!/^(range|(\w+\.)?(arange|linspace))$/.test(fn)) return false;
  return (callArgs(n)?.all ?? []).every((a) => repeatable(a) || (a.type === 'call' && a.childForFieldName('function')?.text === 'len' && (callArgs(a)?.all ?? []).every(isPure)) || a.type === 'binary_operator' && a.namedChildren.every((c) => !!c && repeatable(c)));
}

/** `labels` cut or padded to `n` (an expression evaluated once per use: `n` must be pure). */
const fitted = (labels: string, n: string) => `(list(${labels}) + [''] * ${n})[:${n}]`;

/** Already cut to the ticks (this rule's own rewrite): the mismatch is elsewhere on the line. */
const isFitted = (labels: SyntaxNode) => labels.type === 'subscript' && /^\(list\(/.test(labels.text) && /\+ \[''\] \*/.test(labels.text);

export const mplTicklabelsCount: Rule = rule({
  id: 'mpl-ticklabels-count',
  library: 'matplotlib',
  title: 'more or fewer tick labels than fixed ticks',
  old: "ax.set_xticks([0, 1, 2]); ax.set_xticklabels(['a', 'b', 'c', 'd'])",
  new: "ax.set_xticks([0, 1, 2]); ax.set_xticklabels((list(['a', 'b', 'c', 'd']) + [''] * len(ax.get_xticks()))[:len(ax.get_xticks())])",
  removedIn: '3.3',
  trigger: 'error',
  errors: [err('ValueError', MISMATCH)],
  link: 'https://matplotlib.org/stable/api/prev_api_changes/api_changes_3.3.0/behaviour.html',
  message: 'since matplotlib 3.3 the number of tick labels must match the fixed ticks; before, extra labels were not shown and ticks without one had none: pass the labels cut or padded to the ticks',
  triggers: ['set_xticklabels', 'set_yticklabels', 'xticks', 'yticks'],
  fixtures: [{
    before: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.bar([0, 1, 2], [3, 1, 2])\nax.set_xticks([0, 1, 2])\nax.set_xticklabels(['a', 'b', 'c', 'd'])\nplt.yticks(range(3), ['lo', 'hi'])\nprint([x.get_text() for x in ax.get_xticklabels()], [y.get_text() for y in ax.get_yticklabels()])",
    after: "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.bar([0, 1, 2], [3, 1, 2])\nax.set_xticks([0, 1, 2])\nax.set_xticklabels((list(['a', 'b', 'c', 'd']) + [''] * len(ax.get_xticks()))[:len(ax.get_xticks())])\nplt.yticks(range(3), (list(['lo', 'hi']) + [''] * len(range(3)))[:len(range(3))])\nprint([x.get_text() for x in ax.get_xticklabels()], [y.get_text() for y in ax.get_yticklabels()])",
    expect: "['a', 'b', 'c'] ['lo', 'hi', '']",
    beforeError: 'ValueError',
    context: { runtime: { ename: 'ValueError', evalue: 'The number of FixedLocator locations (3), usually from a call to set_ticks, does not match the number of labels (4).' } },
  }],
  *find(ctx): Generator<RuleMatch> {
    const at = atRuntimeError(ctx, MISMATCH);
    if (!at) return;
    const { onLine } = at;
    // ax.set_xticklabels(labels): the axes' own tick count.
    for (const { call, recv, name } of ctx.methodCalls(['set_xticklabels', 'set_yticklabels'])) {
      const args = callArgs(call);
      const labels = args?.positional[0];
      if (!args || !labels || args.splat || args.keywords.has('minor') || !onLine(call) || !isPure(recv) || isFitted(labels)) continue;
      yield { node: call, edits: [replaceNode(labels, fitted(labels.text, `len(${recv.text}.get_${name[4]}ticks())`))] };
    }
    // plt.xticks(ticks, labels): the ticks given.
    for (const { call } of ctx.callsTo(['matplotlib.pyplot.xticks', 'matplotlib.pyplot.yticks'])) {
      const args = callArgs(call);
      const ticks: SyntaxNode | undefined = args?.keywords.get('ticks')?.childForFieldName('value') ?? args?.positional[0];
      const labels: SyntaxNode | undefined = args?.keywords.get('labels')?.childForFieldName('value') ?? args?.positional[1];
      if (!args || !ticks || !labels || args.splat || !onLine(call) || !repeatable(ticks) || isFitted(labels)) continue;
      yield { node: call, edits: [replaceNode(labels, fitted(labels.text, `len(${ticks.text})`))] };
    }
  },
});
