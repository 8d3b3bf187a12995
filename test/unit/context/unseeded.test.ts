/** Cells fed by unseeded randomness, read from the code (fixers/python/unseeded.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { makeNotebook } from '../../support/notebooks.js';
import { unseededCells } from '../../../src/fixers/python/unseeded.js';

const cells = (srcs: string[]) => [...unseededCells(makeNotebook(srcs)).keys()];

describe('unseededCells', () => {
  it('follows a draw from the statement that makes it to the cells that read what it binds', () => {
    assert.deepEqual(cells([
      "df = pd.read_csv('train.csv')\nrf = RandomForestClassifier(n_estimators=100)",
      'print(df.describe())',
      'rf.fit(X, y)\npred = rf.predict(T)',
      'sub = pd.DataFrame({"Survived": pred})\nsub.head()',
      'print(len(df))',
    ]), [0, 2, 3], 'the frame read next to the draw does not carry it');
  });

  it('a name rebound from elsewhere stops carrying the draw', () => {
    assert.deepEqual(cells(['pred = DecisionTreeClassifier().fit(X, y).predict(T)', 'pred = LogisticRegression().fit(X, y).predict(T)', 'print(pred[:5])']), [0]);
  });

  it('seeded calls, unshuffled splitters and a global np.random.seed draw nothing', () => {
    assert.deepEqual(cells(['rf = RandomForestClassifier(random_state=1)', 'kf = KFold(5)', 'Xa, Xb = train_test_split(X, random_state=0)', 'print(rf, kf, Xa)']), []);
    assert.deepEqual(cells(['import numpy as np\nnp.random.seed(0)', 'rf = RandomForestClassifier()', 'print(rf.fit(X, y).score(X, y))']), []);
  });

  it('knows the common draws: train_test_split, shuffled KFold, sample(), np.random', () => {
    assert.deepEqual(cells(['a, b = train_test_split(X)', 'k = KFold(5, shuffle=True)', 's = df.sample(10)', 'r = np.random.rand(3)', 'print(1)']), [0, 1, 2, 3]);
  });

  it('a draw inside a function the notebook calls later feeds the calling cell', () => {
    assert.deepEqual(cells(['def model():\n    return RandomForestClassifier()', 'm = model()\nprint(m.fit(X, y).score(X, y))']), [0, 1]);
  });
});
