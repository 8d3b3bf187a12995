/**
 * The environment's symbol index: every public module of its data-science packages (and of the
 * standard library) and the names each defines or exports, where each name is really defined, and
 * the keyword parameters of public functions and methods. Built once per environment
 * (executor/environment/symbol-index.ts), read by the repairs of moved and missing names.
 */
export interface SymbolIndex {
  /** Module -> public names it defines or re-exports from its own package. */
  modules: Record<string, string[]>;
  /** Name -> the modules that define it (`__module__`), possibly private. */
  origins: Record<string, string[]>;
  /**
   * `__qualname__` of a public function or method (`LinearRegression.__init__`, `kdeplot`) -> its
   * keyword parameter names now ("**" when it also takes **kwargs).
   */
  signatures: Record<string, string[]>;
}

export const EMPTY_SYMBOL_INDEX: SymbolIndex = { modules: {}, origins: {}, signatures: {} };

/**
 * Public modules that provide `name`, best first: a module that is a prefix of where the name is
 * defined (its public home), then the shallowest, then alphabetical. `top` restricts to one package.
 */
export function homesOf(index: SymbolIndex, name: string, opts: { top?: string; max?: number } = {}): string[] {
  const origins = index.origins[name] ?? [];
  const homes = Object.entries(index.modules)
    .filter(([mod, names]) => names.includes(name) && (!opts.top || mod === opts.top || mod.startsWith(`${opts.top}.`)))
    .map(([mod]) => mod);
  const own = (m: string) => (origins.some((o) => o === m || o.startsWith(`${m}.`)) ? 0 : 1);
  const depth = (m: string) => m.split('.').length;
  return homes.sort((a, b) => own(a) - own(b) || depth(a) - depth(b) || a.localeCompare(b)).slice(0, opts.max ?? 3);
}
