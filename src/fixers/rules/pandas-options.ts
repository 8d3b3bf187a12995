/**
 * pandas options, resolved the way pandas resolves them, against the options the fixed environment
 * registers. Old notebooks set display options by short patterns (`pd.set_option('max_columns', 50)`)
 * that matched one option when they were written; pandas 1.4 added the `styler.*` options, so the
 * same pattern now matches several and raises OptionError. Other options were removed outright
 * (`display.height` 0.20?, `display.line_width`, `display.mpl_style`, `display.column_space` 2.0,
 * `io.excel.xls.writer` 2.0), and `mode.use_inf_as_null` was renamed `mode.use_inf_as_na` (1.0).
 * Instead of a list of known cases, each key is matched as pandas does (`re.search(pat, key, re.I)`
 * over the registered keys, an exact key first) so any option the environment lacks is recognised.
 */

/** pandas 2.2's registered options (`pd._config.config._registered_options`), read in the fixed environment. */
export const PANDAS_OPTIONS: readonly string[] = [
  'compute.use_bottleneck', 'compute.use_numba', 'compute.use_numexpr', 'display.chop_threshold', 'display.colheader_justify',
  'display.date_dayfirst', 'display.date_yearfirst', 'display.encoding', 'display.expand_frame_repr', 'display.float_format',
  'display.html.border', 'display.html.table_schema', 'display.html.use_mathjax', 'display.large_repr', 'display.max_categories',
  'display.max_columns', 'display.max_colwidth', 'display.max_dir_items', 'display.max_info_columns', 'display.max_info_rows',
  'display.max_rows', 'display.max_seq_items', 'display.memory_usage', 'display.min_rows', 'display.multi_sparse',
  'display.notebook_repr_html', 'display.pprint_nest_depth', 'display.precision', 'display.show_dimensions',
  'display.unicode.ambiguous_as_wide', 'display.unicode.east_asian_width', 'display.width', 'future.infer_string',
  'future.no_silent_downcasting', 'io.excel.ods.reader', 'io.excel.ods.writer', 'io.excel.xls.reader', 'io.excel.xlsb.reader',
  'io.excel.xlsm.reader', 'io.excel.xlsm.writer', 'io.excel.xlsx.reader', 'io.excel.xlsx.writer', 'io.hdf.default_format',
  'io.hdf.dropna_table', 'io.parquet.engine', 'io.sql.engine', 'mode.chained_assignment', 'mode.copy_on_write',
  'mode.data_manager', 'mode.sim_interactive', 'mode.string_storage', 'mode.use_inf_as_na', 'plotting.backend',
  'plotting.matplotlib.register_converters', 'styler.format.decimal', 'styler.format.escape', 'styler.format.formatter',
  'styler.format.na_rep', 'styler.format.precision', 'styler.format.thousands', 'styler.html.mathjax', 'styler.latex.environment',
  'styler.latex.hrules', 'styler.latex.multicol_align', 'styler.latex.multirow_align', 'styler.render.encoding',
  'styler.render.max_columns', 'styler.render.max_elements', 'styler.render.max_rows', 'styler.render.repr',
  'styler.sparse.columns', 'styler.sparse.index',
];

const REGISTERED = new Set(PANDAS_OPTIONS);

/** Renamed options (what the old name meant is the new one's meaning). */
const RENAMED: Record<string, string> = { 'mode.use_inf_as_null': 'mode.use_inf_as_na' };

/** Options that no longer take -1 for "no limit" (None since pandas 1.0). */
export const NONNEGATIVE_OPTIONS = new Set(['display.max_colwidth', 'display.max_rows', 'display.max_columns', 'display.max_seq_items', 'display.min_rows']);

export type OptionResolution =
  /** The key works as written; `key` is the option it names. */
  | { kind: 'ok'; key: string }
  /** The key must be written as `key` (renamed, or a pattern that now matches more than one option). */
  | { kind: 'rewrite'; key: string }
  /** No such option in the environment: setting it has no effect to keep. */
  | { kind: 'removed' }
  /** Several options match and none is the display option it meant: left to the user. */
  | { kind: 'ambiguous'; matches: string[] };

/** How pandas 2.2 resolves `pat`, and the key that keeps the old meaning. */
export function resolveOption(pat: string): OptionResolution {
  const renamed = RENAMED[pat] ?? Object.entries(RENAMED).find(([old]) => old.endsWith(`.${pat}`))?.[1];
  if (renamed) return { kind: 'rewrite', key: renamed };
  if (REGISTERED.has(pat)) return { kind: 'ok', key: pat };
  let re: RegExp;
  try {
    re = new RegExp(pat, 'i');
  } catch {
    return { kind: 'ambiguous', matches: [] };
  }
  const matches = PANDAS_OPTIONS.filter((k) => re.test(k));
  if (matches.length === 1) return { kind: 'ok', key: matches[0] };
  if (matches.length === 0) return { kind: 'removed' };
  // Before the styler options (1.4), a short pattern meant the display option it now shares with them.
  const display = matches.filter((k) => k.startsWith('display.'));
  if (display.length === 1) return { kind: 'rewrite', key: display[0] };
  return { kind: 'ambiguous', matches };
}

/** For `pd.options.a.b = v`: the attribute path must be an exact option. */
export function resolveOptionPath(path: string): OptionResolution {
  if (RENAMED[path]) return { kind: 'rewrite', key: RENAMED[path] };
  if (REGISTERED.has(path)) return { kind: 'ok', key: path };
  // `pd.options.display` itself, or a prefix of options: not an option assignment.
  if (PANDAS_OPTIONS.some((k) => k.startsWith(`${path}.`))) return { kind: 'ok', key: path };
  return { kind: 'removed' };
}
