/**
 * A name the notebook uses but never binds: the import lived in a cell the author deleted, or ran in
 * another notebook of the same session (`NameError: name 'GridSearchCV' is not defined`). When the
 * name is a community-standard alias (`np`, `pd`, `plt`, `sns`) or a standard-library module, or a
 * public name that exactly one module of the environment's packages exports (the symbol index), the
 * import is the repair. Several homes -> several candidates; generate-and-verify keeps the one the
 * stored outputs agree with.
 */
import { sourceText, type Notebook } from '../../core/notebook.js';
import type { Patch } from '../../core/patch.js';
import { parseNotebookCells, disposeCells, notebookInfo } from './engine.js';
import { NotebookContext } from './context.js';
import { afterCellMagic } from '../python/ipython.js';

/** Aliases the libraries' own documentation uses (import conventions), and stdlib modules notebooks use bare. */
export const CONVENTIONAL_IMPORTS: Record<string, string[]> = {
  np: ['import numpy as np'],
  pd: ['import pandas as pd'],
  plt: ['import matplotlib.pyplot as plt'],
  mpl: ['import matplotlib as mpl'],
  sns: ['import seaborn as sns'],
  // A second alias seaborn had in notebooks of the era; candidates are verified, so an `sn` that is not seaborn is rejected.
  sn: ['import seaborn as sn'],
  sm: ['import statsmodels.api as sm'],
  smf: ['import statsmodels.formula.api as smf'],
  xgb: ['import xgboost as xgb'],
  stats: ['from scipy import stats'],
  sp: ['import scipy as sp'],
  os: ['import os'], re: ['import re'], sys: ['import sys'], math: ['import math'], time: ['import time'],
  random: ['import random'], warnings: ['import warnings'], itertools: ['import itertools'], json: ['import json'],
  collections: ['import collections'], pickle: ['import pickle'], glob: ['import glob'], csv: ['import csv'],
  string: ['import string'], operator: ['import operator'], functools: ['import functools'], gc: ['import gc'],
  datetime: ['import datetime', 'from datetime import datetime'],
  Counter: ['from collections import Counter'], defaultdict: ['from collections import defaultdict'],
  OrderedDict: ['from collections import OrderedDict'], reduce: ['from functools import reduce'],
  display: ['from IPython.display import display'],
};

/** Where a public name lives (module paths), e.g. from the environment's symbol index. */
export type NameLocator = (name: string) => string[];

/** The public names of a module of the environment (packages and the standard library), if it has one by that name. */
export type ModuleMembers = (module: string) => readonly string[] | undefined;

export function undefinedName(evalue: string): string | undefined {
  return /name '(\w+)' is not defined/.exec(evalue)?.[1];
}

/**
 * Candidate imports for a NameError: conventional first, then each module the locator names
 * (shallowest first). Empty when the notebook binds the name anywhere (that is an order problem, not
 * a missing import) or nothing is known about it.
 */
export async function missingImportPatches(nb: Notebook, cell: number, evalue: string, locate?: NameLocator, members?: ModuleMembers): Promise<Patch[]> {
  const name = undefinedName(evalue);
  if (!name) return [];
  const cells = await parseNotebookCells(nb);
  let asModule = false;
  let own: string | undefined;
  let homes: string[] = [];
  try {
    const ctx = new NotebookContext(cells, notebookInfo(nb, cells, {}));
    if (ctx.isBound(name)) {
      own = laterOwnImport(ctx, name, cell);
      if (!own) return [];
    } else {
      asModule = usedAsModule(ctx, name, members?.(name));
      homes = plausibleHomes(ctx, name, locate?.(name) ?? [], members);
    }
  } finally {
    disposeCells(cells);
  }
  if (own) {
    const src = sourceText(nb.cells[cell].source);
    const at = afterCellMagic(src);
    return [{
      fixType: 'error-repair' as const,
      source: { kind: 'rule' as const, ruleIds: ['missing-import'] },
      edits: [{ cell, op: 'replace' as const, newSource: `${src.slice(0, at)}${own}\n${src.slice(at)}` }],
      summary: `cell ${cell}: ${own} (the notebook imports ${name} only in a later cell, which the author had run before this one)`,
    }];
  }
  const lines = [...(CONVENTIONAL_IMPORTS[name] ?? [])];
  if (asModule && !lines.includes(`import ${name}`)) lines.push(`import ${name}`);
  for (const mod of homes) {
    const line = `from ${mod} import ${name}`;
    if (!lines.includes(line)) lines.push(line);
  }
  const src = sourceText(nb.cells[cell].source);
  const at = afterCellMagic(src);
  return lines.map((line) => ({
    fixType: 'error-repair' as const,
    source: { kind: 'rule' as const, ruleIds: ['missing-import'] },
    edits: [{ cell, op: 'replace' as const, newSource: `${src.slice(0, at)}${line}\n${src.slice(at)}` }],
    summary: `cell ${cell}: ${line} (the notebook uses ${name} but never imports it)`,
  }));
}

/**
 * The notebook's own import of `name`, when imports are its only bindings and all sit in cells after
 * `cell`: the author's kernel had run one of them before (an earlier pass over the notebook), and the
 * cell holding it often cannot move up (it uses what the failing cell makes). Copying the import
 * line alone is the smallest repair, and it names exactly what the author imported.
 */
function laterOwnImport(ctx: NotebookContext, name: string, cell: number): string | undefined {
  const list = ctx.bindings.get(name);
  if (!list?.length || ctx.assigned.has(name) || list.some((b) => b.cell <= cell)) return undefined;
  const q = list[0].qname;
  const dot = q.lastIndexOf('.');
  if (dot < 0) return q === name ? `import ${name}` : `import ${q} as ${name}`;
  const last = q.slice(dot + 1);
  return `from ${q.slice(0, dot)} import ${last}${last === name ? '' : ` as ${name}`}`;
}

/**
 * `name` is a module of the environment (a package or a standard-library module such as `calendar`)
 * and every `name.attr` the notebook writes is one of its public names: `import name` is a candidate.
 * The member check keeps a lost variable that shares a module's name (`test.shape`, `time.sleep` is
 * fine, `string.lower()` on a lost str is not) from being "repaired" by an import.
 */
function usedAsModule(ctx: NotebookContext, name: string, known: readonly string[] | undefined): boolean {
  if (!known?.length) return false;
  const attrs = ctx.identifiers(name).map((u) => {
    const p = u.node.parent;
    return p?.type === 'attribute' && p.childForFieldName('object')?.startIndex === u.node.startIndex ? p.childForFieldName('attribute')?.text : undefined;
  });
  return attrs.length > 0 && attrs.every((a) => a !== undefined && known.includes(a));
}

/**
 * The homes the symbol index found, less those that cannot be what the notebook meant:
 * - `name` is itself a top-level module of the environment (`pandas`): any home only re-exports it
 *   (`from pandas.core.frame import pandas`); `import name` above is the candidate, when uses fit.
 * - `home.name` is a submodule (`seaborn.distributions`) but the notebook does not use the name as
 *   that module (iterates it, indexes it, or reads attributes the module lacks): a lost variable.
 */
function plausibleHomes(ctx: NotebookContext, name: string, homes: string[], members?: ModuleMembers): string[] {
  if (members?.(name)?.length) return [];
  const lostData = usedAsData(ctx, name);
  return homes.filter((mod) => {
    const sub = members?.(`${mod}.${name}`);
    return sub ? usedAsModule(ctx, name, sub) : !lostData;
  });
}

/**
 * The notebook never calls `name` but indexes it or reads its attributes (`train.index`,
 * `train['count']`): a lost frame or array, not the function or class a module exports under that
 * name (`xgboost.train`). Importing it would only trade the NameError for a stranger error.
 */
function usedAsData(ctx: NotebookContext, name: string): boolean {
  let called = false;
  let data = false;
  for (const u of ctx.identifiers(name)) {
    const p = u.node.parent;
    if (p?.type === 'call' && p.childForFieldName('function')?.startIndex === u.node.startIndex) called = true;
    else if ((p?.type === 'subscript' || p?.type === 'attribute') && p.childForFieldName(p.type === 'subscript' ? 'value' : 'object')?.startIndex === u.node.startIndex) data = true;
  }
  return data && !called;
}

/**
 * Python's own hint as a last candidate: `NameError: name 'svc' is not defined. Did you mean: 'svr'?`
 * for a name the notebook never binds, where the suggestion is a name the notebook does bind (a typo
 * the author's kernel hid, because an older cell had once defined the misspelt name). The free uses of
 * the name in the failing cell are renamed; generate-and-verify keeps it only if the cell then runs.
 */
export async function didYouMeanPatch(nb: Notebook, cell: number, evalue: string): Promise<Patch | undefined> {
  const name = undefinedName(evalue);
  const hint = /Did you mean: '(\w+)'\?/.exec(evalue)?.[1];
  if (!name || !hint || hint === name) return undefined;
  const cells = await parseNotebookCells(nb);
  try {
    const ctx = new NotebookContext(cells, notebookInfo(nb, cells, {}));
    if (ctx.isBound(name) || !ctx.isBound(hint)) return undefined;
    const parsed = cells.find((c) => c.index === cell);
    if (!parsed) return undefined;
    const uses = ctx.identifiers(name).filter((u) => u.cell === cell).map((u) => u.node).filter((n) => {
      const p = n.parent;
      if (p?.type === 'attribute' && p.childForFieldName('attribute')?.startIndex === n.startIndex) return false;
      if (p?.type === 'keyword_argument' && p.childForFieldName('name')?.startIndex === n.startIndex) return false;
      return true;
    });
    if (!uses.length) return undefined;
    let src = sourceText(nb.cells[cell].source);
    for (const u of uses.sort((a, b) => b.startIndex - a.startIndex)) src = src.slice(0, u.startIndex) + hint + src.slice(u.endIndex);
    return {
      fixType: 'error-repair',
      source: { kind: 'rule', ruleIds: ['python-did-you-mean'] },
      edits: [{ cell, op: 'replace', newSource: src }],
      summary: `cell ${cell}: ${name} -> ${hint} (Python's hint; the notebook never defines ${name})`,
    };
  } finally {
    disposeCells(cells);
  }
}
