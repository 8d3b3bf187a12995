import { it } from 'node:test';
import assert from 'node:assert/strict';
import { parseNotebook, notebookKernel, sourceText } from '../../../src/core/notebook.js';
import { upgradeToV45, validateNotebook } from '../../../src/core/notebook-schema.js';
import { NotebookInputError } from '../../../src/core/errors.js';

const v3 = {
  nbformat: 3,
  nbformat_minor: 0,
  metadata: { name: 'old' },
  worksheets: [{
    cells: [
      { cell_type: 'heading', level: 2, source: 'Title', metadata: {} },
      { cell_type: 'code', language: 'python', input: 'print "hi"\n1+1', prompt_number: 3, collapsed: false, metadata: {},
        outputs: [{ output_type: 'stream', stream: 'stdout', text: 'hi\n' }, { output_type: 'pyout', prompt_number: 3, text: '2', metadata: {} },
          { output_type: 'pyerr', ename: 'E', evalue: 'v', traceback: ['t'] }, { output_type: 'display_data', png: 'AAA', metadata: {} }] },
      { cell_type: 'markdown', source: 'text', metadata: {} },
    ],
  }],
};

it('upgrades nbformat 3 to a valid nbformat 4.5 notebook and says so', () => {
  const loaded = parseNotebook(JSON.stringify(v3), 'old.ipynb');
  assert.equal(loaded.originalFormat, 3);
  assert.match(loaded.notes[0], /converted old.ipynb from nbformat 3/);
  const nb = loaded.notebook;
  assert.deepEqual(nb.cells.map((c) => c.cell_type), ['markdown', 'code', 'markdown']);
  assert.equal(sourceText(nb.cells[0].source), '## Title');
  const code: any = nb.cells[1];
  assert.equal(code.execution_count, 3);
  assert.deepEqual(code.outputs.map((o: any) => o.output_type), ['stream', 'execute_result', 'error', 'display_data']);
  assert.equal(code.outputs[1].data['text/plain'], '2');
  assert.equal(code.outputs[3].data['image/png'], 'AAA');
  assert.deepEqual(validateNotebook(upgradeToV45(nb)), []);
});

it('gives old notebooks stable, unique cell ids', () => {
  const nb = parseNotebook(JSON.stringify(v3)).notebook;
  const a = upgradeToV45(nb).cells.map((c) => c.id);
  const b = upgradeToV45(nb).cells.map((c) => c.id);
  assert.deepEqual(a, b);
  assert.equal(new Set(a).size, a.length);
});

it('validation catches a broken notebook', () => {
  const nb: any = upgradeToV45(parseNotebook(JSON.stringify(v3)).notebook);
  nb.cells[1].outputs.push({ output_type: 'nonsense' });
  assert.notDeepEqual(validateNotebook(nb), []);
});

it('knows Python 2 notebooks and refuses other languages', () => {
  const py2 = parseNotebook(JSON.stringify({ nbformat: 4, nbformat_minor: 0, metadata: { kernelspec: { name: 'python2', language: 'python' }, language_info: { version: '2.7.12' } }, cells: [] })).notebook;
  assert.equal(notebookKernel(py2).pythonMajor, 2);
  const jl = parseNotebook(JSON.stringify({ nbformat: 4, nbformat_minor: 0, metadata: { kernelspec: { name: 'julia-1.0', language: 'julia' } }, cells: [] })).notebook;
  assert.throws(() => notebookKernel(jl), (e: unknown) => e instanceof NotebookInputError && e.kind === 'unsupported-kernel');
});
