import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { absentPictureExcuse, missingPicture, onlyShowsPictures } from '../../../src/agent/absent-picture.js';
import { stuckMove } from '../../../src/agent/decisions.js';
import type { FixDiagnosis } from '../../../src/agent/fixers.js';
import { makeNotebook } from '../context/fixtures.js';

const pictureOut = { output_type: 'execute_result', execution_count: 3, data: { 'text/plain': '<IPython.core.display.Image object>', 'image/png': 'iVBOR' }, metadata: {} };
const textOnlyOut = { output_type: 'execute_result', execution_count: 3, data: { 'text/plain': '<IPython.core.display.Image object>' }, metadata: {} };
const printed = { output_type: 'stream', name: 'stdout', text: '0.812\n' };
const notFound = { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: 'img/2018-07-10_165923.png'" };

describe('absent-picture: a cell that only shows a picture file the repository held', () => {
  it('reads the missing path of a FileNotFoundError, and only a picture counts', () => {
    assert.equal(missingPicture('FileNotFoundError', notFound.evalue), 'img/2018-07-10_165923.png');
    assert.equal(missingPicture('FileNotFoundError', "[Errno 2] No such file or directory: 'train.csv'"), undefined);
    assert.equal(missingPicture('OSError', notFound.evalue), undefined);
  });

  it('recognises display-only cells in their common spellings, and nothing that computes', () => {
    const nb = makeNotebook([
      { code: "from IPython.display import Image\nImage(filename='img/2018-07-10_165923.png')", outputs: [pictureOut] },
      { code: "# the leaderboard\nfrom IPython.display import display, Image\ndisplay(Image('a.png', width=400))\ndisplay(Image(\n    filename='b.jpg'))", outputs: [textOnlyOut] },
      { code: "import IPython\nIPython.display.Image('a.png')", outputs: [] },
      { code: "from IPython.display import Image\nImage('a.png')\nprint(score)", outputs: [pictureOut, printed] },
      { code: "img = plt.imread('a.png')\nplt.imshow(img)", outputs: [pictureOut] },
      { code: "from IPython.display import Image\nImage('a.png')", outputs: [printed] },
      { code: "x = Image('a.png')", outputs: [pictureOut] },
    ]);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((c) => onlyShowsPictures(nb, c)), [true, true, true, false, false, false, false]);
  });

  it('excuses the cell as skipped, naming the file; stuckMove skips it instead of stopping', () => {
    const nb = makeNotebook(['import pandas as pd', { code: "from IPython.display import Image\nImage(filename='img/2018-07-10_165923.png')", outputs: [pictureOut] }]);
    const excuse = absentPictureExcuse(nb, 1, notFound);
    assert.ok(excuse?.skipped && /img\/2018-07-10_165923\.png/.test(excuse.reason));
    assert.equal(absentPictureExcuse(nb, 1, { ename: 'FileNotFoundError', evalue: "[Errno 2] No such file or directory: 'train.csv'" }), undefined);
    const d = { kind: 'fix', fixType: 'error-repair', cell: 1, why: 'FileNotFoundError', signature: 's', error: { ...notFound, traceback: [] } } as unknown as FixDiagnosis;
    const move = stuckMove({ diagnosis: d, stop: { reason: 'unfixable', detail: 'an input this run does not have' }, notebook: nb, skipped: new Set(), canSkip: true });
    assert.equal(move.kind, 'excuse');
    assert.equal(stuckMove({ diagnosis: d, stop: { reason: 'unfixable', detail: '' }, notebook: nb, skipped: new Set() }).kind, 'stop', 'an environment that cannot skip a cell stops');
    assert.equal(stuckMove({ diagnosis: d, stop: { reason: 'max-wall-time', detail: '' } as any, notebook: nb, skipped: new Set(), canSkip: true }).kind, 'stop', 'a budget stop is not a missing picture');
  });
});
