/**
 * Every rule, in application order. Order matters only for conflicting edits within one pass
 * (the earlier rule wins; the later one is re-matched on the rewritten code in the next pass):
 * syntax first (so the tree is clean), then module moves, then API renames, then data paths.
 */
import type { Rule } from './types.js';
import { py2Rules } from './py2.js';
import { py2FixerRules } from './py2-fixers.js';
import { stdlibRules } from './stdlib.js';
import { numpyRules } from './numpy.js';
import { pandasRules } from './pandas.js';
import { sklearnRules } from './sklearn.js';
import { sklearnPinRules } from './sklearn-pins.js';
import { matplotlibRules } from './matplotlib.js';
import { seabornRules } from './seaborn.js';
import { xgboostRules } from './xgboost.js';
import { xgboostPinRules } from './xgboost-pins.js';
import { scipyRules } from './scipy.js';
import { statsmodelsRules } from './statsmodels.js';
import { environmentRules } from './environment.js';
import { dataPathRules } from './data-paths.js';
import { pandasReadCsvNoneNa } from './pandas-na-defaults.js';
import { sklearnFeatureNamesByPosition } from './sklearn-feature-names.js';
import { sklearnObjectLabels } from './sklearn-object-labels.js';
import { sklearnLogisticL1 } from './sklearn-logistic-l1.js';
import { sklearnTrainScores } from './sklearn-train-scores.js';
import { sklearnMixedFeatureNames } from './sklearn-mixed-feature-names.js';
import { sklearnColumnLabelsFirst } from './sklearn-column-labels-first.js';
import { mplScatterCycled } from './matplotlib-scatter-cycled.js';
import { mplPieNormalize } from './matplotlib-pie-normalize.js';
import { pandasListAggNuisance } from './pandas-list-agg-nuisance.js';
import { pandasTransformNuisance } from './pandas-transform-nuisance.js';
import { pandasDropnaHowThresh } from './pandas-dropna-how-thresh.js';
import { pythonEditLeftoverRules } from './python-edit-leftovers.js';
import { sklearnFunctionTransformerValidate } from './sklearn-function-transformer-validate.js';
import { pandasToDictOrient } from './pandas-to-dict-orient.js';
import { sklearnNpMatrix } from './sklearn-np-matrix.js';
import { sklearnIntegralFloat } from './sklearn-integral-float.js';
import { sklearnNumericStrings } from './sklearn-numeric-strings.js';
import { numpyBoolArraylikeIndex } from './numpy-bool-arraylike-index.js';
import { sklearnTreeExportStringNames } from './sklearn-tree-export-names.js';
import { sklearnGradientBoostingLoss } from './sklearn-gradient-boosting-loss.js';
import { sklearnLinearRegressionRank } from './sklearn-linear-regression-rank.js';
import { sklearnStratifiedKFoldPre022 } from './sklearn-stratified-kfold.js';
import { sklearnSearchIid } from './sklearn-search-iid.js';
import { sklearnPinLarsNormalize } from './sklearn-lars-normalize.js';
import { pandasLocOneElement } from './pandas-loc-one-element.js';
import { pandasGroupbyApplyGroupKeys } from './pandas-groupby-apply-group-keys.js';
import { pandasToDatetimeIso } from './pandas-to-datetime-iso.js';
import { pandasSeriesPlotPositional } from './pandas-series-plot-positional.js';
import { pandasResampleImplicitMean } from './pandas-resample-implicit-mean.js';
import { pandasGroupbySumMinCount } from './pandas-groupby-sum-min-count.js';
import { mplSubplotArgument } from './matplotlib-subplot-argument.js';
import { pandasGetitemPositions } from './pandas-getitem-positions.js';
import { pandasDisplayMinRows } from './pandas-display-min-rows.js';
import { ipythonDisplayAll } from './ipython-display-all.js';
import { pandasPinStylerPrecision } from './pandas-styler-precision.js';
import { envMissingnoSubstitute } from './env-missingno.js';
import { envPlotlyOffline } from './env-plotly-offline.js';
import { sklearnBoolParameter } from './sklearn-bool-parameter.js';
import { pandasConcatSort } from './pandas-concat-sort.js';
import { dropUnusedFailingImport } from './unused-import.js';
import { colabOnly } from './colab.js';
import { scipyBoxcoxBracket } from './scipy-bracket.js';
import { mplTicklabelsCount } from './matplotlib-ticklabels.js';
import { mplArtistSublists } from './matplotlib-artist-sublists.js';
import { pandasInplaceRemoved } from './pandas-inplace.js';
import { pandasSetitemDuplicateKeys } from './pandas-setitem-duplicate-keys.js';
import { pandasReshapedCalls } from './pandas-reshaped-calls.js';
import { pandasRecordForms } from './pandas-record-forms.js';
import { pandasMissingLabelsReindex } from './pandas-missing-labels.js';
import { dataDropAbsentLabels } from './data-drop-absent-labels.js';
import { tableDrivenRules } from './tables/index.js';

export const ALL_RULES: readonly Rule[] = (() => {
  const all = [...py2Rules, ...py2FixerRules, ...stdlibRules, ...numpyRules, ...pandasRules, ...sklearnRules, ...sklearnPinRules, ...matplotlibRules, ...seabornRules, ...xgboostRules, ...xgboostPinRules, ...scipyRules, ...statsmodelsRules, ...environmentRules, colabOnly, scipyBoxcoxBracket, mplTicklabelsCount, mplArtistSublists, mplSubplotArgument, mplScatterCycled, mplPieNormalize, pandasListAggNuisance, pandasTransformNuisance, pandasDropnaHowThresh, ...pythonEditLeftoverRules, ...dataPathRules, pandasReadCsvNoneNa, sklearnFeatureNamesByPosition, sklearnObjectLabels, sklearnLogisticL1, sklearnTrainScores, sklearnMixedFeatureNames, sklearnColumnLabelsFirst, sklearnFunctionTransformerValidate, sklearnNumericStrings, numpyBoolArraylikeIndex, sklearnNpMatrix, sklearnIntegralFloat, sklearnTreeExportStringNames, sklearnGradientBoostingLoss, sklearnBoolParameter, sklearnLinearRegressionRank, sklearnStratifiedKFoldPre022, sklearnSearchIid, sklearnPinLarsNormalize, pandasConcatSort, pandasSeriesPlotPositional, pandasResampleImplicitMean, pandasGroupbySumMinCount, pandasGetitemPositions, pandasDisplayMinRows, pandasInplaceRemoved, pandasSetitemDuplicateKeys, pandasLocOneElement, pandasToDictOrient, pandasToDatetimeIso, pandasGroupbyApplyGroupKeys, ...pandasReshapedCalls, ...pandasRecordForms, dropUnusedFailingImport, envMissingnoSubstitute, envPlotlyOffline, ipythonDisplayAll, pandasPinStylerPrecision, pandasMissingLabelsReindex, dataDropAbsentLabels];
  all.push(...tableDrivenRules); // change-record tables (table-rules.ts), after the hand-written rules
  const seen = new Set<string>();
  for (const r of all) {
    if (seen.has(r.id)) throw new Error(`duplicate rule id ${r.id}`);
    seen.add(r.id);
  }
  return all;
})();

export function ruleById(id: string): Rule | undefined {
  return ALL_RULES.find((r) => r.id === id);
}
