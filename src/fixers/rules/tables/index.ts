/** Every change-record table, in the order the rules are applied (libraries as in registry.ts). */
import { tableRules } from '../table-rules.js';
import { numpyTable } from './numpy.js';
import { pandasTable } from './pandas.js';
import { sklearnTable } from './scikit-learn.js';
import { matplotlibTable } from './matplotlib.js';
import { scipyTable } from './scipy.js';
import { statsmodelsTable } from './statsmodels.js';
import { xgboostTable } from './xgboost.js';
import { pythonTable } from './python.js';

export const TABLES = [pythonTable, numpyTable, pandasTable, sklearnTable, matplotlibTable, scipyTable, statsmodelsTable, xgboostTable] as const;
export const tableDrivenRules = tableRules(TABLES);
