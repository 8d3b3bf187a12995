/**
 * Every change-record table, in the order the rules are applied (libraries as in registry.ts). The
 * tables are JSON data (`<library>.json` beside this file, in the source tree): one entry per removal,
 * rename, move or default change, each with its version, link and a before/after fixture, read and
 * checked (table-schema.ts) once when the rules load and interpreted by table-rules.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../../core/paths.js';
import { tableRules, type TableEntry } from '../table-rules.js';
import { parseTable } from '../table-schema.js';

/** The table files, in application order. */
export const TABLE_FILES = ['python', 'numpy', 'pandas', 'scikit-learn', 'matplotlib', 'scipy', 'statsmodels', 'xgboost'] as const;

/** Where the table files live: the source tree (they are not compiled, so dist/ reads them from here). */
export function tablesDir(): string {
  return path.join(packageRoot(), 'src', 'fixers', 'rules', 'tables');
}

function loadTable(name: string): TableEntry[] {
  const file = path.join(tablesDir(), `${name}.json`);
  return parseTable(fs.readFileSync(file, 'utf8'), path.relative(packageRoot(), file));
}

export const TABLES: readonly (readonly TableEntry[])[] = TABLE_FILES.map(loadTable);
export const tableDrivenRules = tableRules(TABLES);
