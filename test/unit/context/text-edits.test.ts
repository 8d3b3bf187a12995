import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyTextEdits } from '../../../src/fixers/python/edits.js';

describe('applyTextEdits', () => {
  it('skips an edit overlapping one already applied instead of splicing into moved text; inserts at one point keep their order', () => {
    const src = 'a[:x[:n/2]/2]';
    const outer = { start: 3, end: 12, text: 'int(x[:n/2]/2)' };
    const inner = { start: 6, end: 9, text: 'int(n/2)' };
    assert.equal(applyTextEdits(src, [outer, inner]), 'a[:x[:int(n/2)]/2]');
    assert.equal(applyTextEdits('f(x)', [{ start: 2, end: 2, text: 'a, ' }, { start: 2, end: 2, text: 'b, ' }]), 'f(a, b, x)');
  });
});
