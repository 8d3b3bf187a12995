/**
 * Every shim rule recognised from a runtime error inserts its shim at the notebook's first qualifying
 * import, which is usually not in the failing cell: the rule must be run on the import's cell too
 * (its triggers must name what that cell holds). Each such rule's fixture is split into an import
 * cell and the failing cell, and the repair must still reach the import cell.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RULES, rulesForError } from '../../../src/fixers/rules/index.js';
import { notebookOf } from './support.js';

describe('shim rules across cells', () => {
  for (const rule of ALL_RULES.filter((r) => r.shim && r.trigger === 'error')) {
    for (const [k, f] of rule.fixtures.entries()) {
      const rt = f.context?.runtime;
      if (!rt) continue;
      it(`${rule.id} #${k + 1}: the shim reaches the import cell from the failing cell`, async () => {
        const lines = f.before.split('\n');
        const cut = lines.findIndex((l) => !/^(import |from \S+ import )/.test(l));
        assert.ok(cut > 0, 'the fixture starts with its imports');
        const nb = notebookOf([lines.slice(0, cut).join('\n'), lines.slice(cut).join('\n')]);
        const error = { ename: rt.ename, evalue: rt.evalue, traceback: rt.traceback ?? [] };
        const patches = await rulesForError(nb, 1, error, { runtime: { failingCell: 1, ...error, frames: [{ cell: 1, line: 1 }], types: {} } });
        const mine = patches.find((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(rule.id));
        assert.ok(mine, `no patch from ${rule.id}: ${JSON.stringify(patches.map((p) => p.summary))}`);
        assert.ok(mine.edits.some((e) => e.cell === 0), JSON.stringify(mine.edits));
      });
    }
  }
});
