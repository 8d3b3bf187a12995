import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rulesForError } from '../../../src/fixers/rules/index.js';
import { absentLabels } from '../../../src/fixers/rules/data-drop-absent-labels.js';
import { notebookOf } from './support.js';

const ID = 'data-drop-absent-labels';
const evidence = (cell: number, evalue: string, line?: number) => ({ failingCell: cell, ename: 'KeyError', evalue, traceback: [], frames: line ? [{ cell, line }] : [], types: {} });
const mine = async (cells: string[], cell: number, evalue: string, line?: number) =>
  (await rulesForError(notebookOf(cells), cell, { ename: 'KeyError', evalue }, { runtime: evidence(cell, evalue, line) }))
    .find((p) => p.source.kind === 'rule' && p.source.ruleIds.includes(ID));

describe(ID, () => {
  it("reads pandas' message in both spellings (a list, and an Index's array)", () => {
    assert.deepEqual(absentLabels(`"['Pclass_Fare_Category'] not found in axis"`), ['Pclass_Fare_Category']);
    assert.deepEqual(absentLabels(`"['SibSp' 'Parch' 'Family size'] not found in axis"`), ['SibSp', 'Parch', 'Family size']);
    assert.deepEqual(absentLabels('"[1, 2] not in index"'), []);
  });

  it("a label only ever dropped: errors='ignore' on the failing line's drop, not on other drops", async () => {
    const cells = ['df = load()', "df.drop(['Name', 'Old_Cat'], axis=1, inplace=True)\nother = df.drop('Name', axis=1)"];
    const p = await mine(cells, 1, `"['Old_Cat'] not found in axis"`, 1);
    assert.equal((p!.edits[0] as any).newSource, "df.drop(['Name', 'Old_Cat'], axis=1, inplace=True, errors='ignore')\nother = df.drop('Name', axis=1)");
  });

  it('nothing when a cell makes or reads the label: then the drop failing is a real difference, not lost state', async () => {
    const made = ["df['Old_Cat'] = df['Fare'] // 10", "df.drop(['Old_Cat'], axis=1, inplace=True)"];
    assert.equal(await mine(made, 1, `"['Old_Cat'] not found in axis"`, 1), undefined);
    const rows = ["df = df.drop(['SibSp', 'Parch'])", "print(df['SibSp'].mean())"];
    assert.equal(await mine(rows, 0, `"['SibSp' 'Parch'] not found in axis"`, 1), undefined);
    // A drop that already says what to do about absent labels is left alone.
    assert.equal(await mine(["df.drop(['Old_Cat'], axis=1, errors='raise')"], 0, `"['Old_Cat'] not found in axis"`, 1), undefined);
  });
});
