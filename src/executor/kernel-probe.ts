/**
 * Python that runs silently in the kernel (silent=True: no outputs, no history, no execution
 * count) to collect what the kernel's messages don't carry: per-cell peak RSS (VmHWM, reset via
 * /proc/self/clear_refs before each cell) and a bounded summary of the user namespace.
 * It lives in sys.modules, not in the user's namespace, so `dir()` and `whos` stay clean.
 *
 * It also records the fit errors scikit-learn's searches and cross-validation catch. Since 0.22 they
 * score a fit that raises as error_score (NaN) and at most warn (FitFailedWarning, which notebooks
 * often silence); before, the default re-raised. An API break inside a grid (a removed parameter
 * value) then changes which candidate wins with no error at all. An import hook wraps
 * `sklearn.model_selection._validation._warn_or_raise_about_fit_failures` as that module loads
 * (before `_search` imports it by name): the wrapper notes the errors, then calls the original, so
 * the notebook's behaviour is unchanged. The notes are cleared when a cell starts (pre_run_cell)
 * and returned with the cell's probe result.
 */
export const PROBE_MODULE = '__nbmodernize_probe__';

const PROBE_SOURCE = String.raw`
import json as _json, sys as _sys

MAX_VARS = 120
MAX_COLS = 60
MAX_BYTES = 24000
_SKIP = {'In', 'Out', 'exit', 'quit', 'get_ipython'}

def reset_peak():
    try:
        with open('/proc/self/clear_refs', 'w') as f:
            f.write('5')
        return True
    except Exception:
        return False

def peak_rss():
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1]) * 1024
    except Exception:
        pass
    try:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    except Exception:
        return None

def _short(v, n=80):
    try:
        r = repr(v)
    except Exception:
        return None
    return r if len(r) <= n else r[: n - 3] + '...'

def _describe(name, v):
    t = type(v)
    d = {'name': name, 'type': t.__qualname__}
    mod = getattr(t, '__module__', '')
    if mod and mod != 'builtins':
        d['module'] = mod
    # Only look at attributes of types we know: arbitrary properties can be slow or have side effects.
    if mod.startswith('pandas'):
        if hasattr(v, 'shape'):
            d['shape'] = [int(x) for x in v.shape]
        if t.__name__ == 'DataFrame':
            cols = [str(c) for c in list(v.columns[:MAX_COLS])]
            d['columns'] = cols
            d['dtypes'] = {str(c): str(dt) for c, dt in list(v.dtypes.items())[:MAX_COLS]}
        elif t.__name__ == 'Series':
            d['dtype'] = str(v.dtype)
        elif hasattr(v, 'dtype'):
            d['dtype'] = str(v.dtype)
    elif mod.startswith('numpy'):
        if hasattr(v, 'shape') and hasattr(v, 'dtype'):
            d['shape'] = [int(x) for x in v.shape]
            d['dtype'] = str(v.dtype)
            if v.shape == ():
                d['value'] = _short(v.item() if hasattr(v, 'item') else v)
    elif mod.startswith('scipy.sparse') and hasattr(v, 'shape'):
        d['shape'] = [int(x) for x in v.shape]
        d['dtype'] = str(getattr(v, 'dtype', ''))
    elif mod.startswith('sklearn.linear_model') and 'singular_' in getattr(v, '__dict__', {}):
        # A fitted least-squares model: how close its design is to singular (the fit of a nearly
        # singular design depends on which rounding-sized singular values the BLAS keeps).
        sv = v.__dict__['singular_']
        try:
            top, low = float(max(abs(sv))), float(min(abs(sv)))
            d['condition'] = top / low if low > 0 else 1e308  # JSON has no Infinity
        except Exception:
            pass
    elif t in (int, float, bool, complex) or v is None:
        d['value'] = _short(v)
    elif t in (str, bytes):
        d['length'] = len(v)
        d['value'] = _short(v, 60)
    elif t in (list, tuple, dict, set, frozenset):
        d['length'] = len(v)
    return d

def state():
    from IPython import get_ipython
    ip = get_ipython()
    ns = ip.user_ns
    hidden = getattr(ip, 'user_ns_hidden', {})
    out, truncated, size = [], False, 0
    import types
    for name in sorted(ns):
        if name.startswith('_') or name in _SKIP or (name in hidden and ns[name] is hidden[name]):
            continue
        v = ns[name]
        if isinstance(v, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)):
            continue
        if len(out) >= MAX_VARS:
            truncated = True
            break
        try:
            d = _describe(name, v)
        except Exception as e:
            d = {'name': name, 'type': type(v).__qualname__}
        s = len(_json.dumps(d, default=str))
        if size + s > MAX_BYTES:
            truncated = True
            break
        size += s
        out.append(d)
    return {'variables': out, 'truncated': truncated}

class _Json:
    def __init__(self, obj):
        self.obj = obj
    def __repr__(self):
        return _json.dumps(self.obj, default=str)

def inspect_value(name, max_chars=3000):
    # The model's inspect(name): a dotted name looked up (no call, no evaluation of code), described.
    from IPython import get_ipython
    ns = get_ipython().user_ns
    parts = name.split('.')
    if parts[0] not in ns:
        return _Json('not defined in the kernel: %s' % parts[0])
    v = ns[parts[0]]
    for p in parts[1:]:
        try:
            v = getattr(v, p)
        except Exception as e:
            return _Json('%s has no attribute %s (%s)' % ('.'.join(parts[:parts.index(p)]), p, type(e).__name__))
    try:
        d = _describe(name, v)
    except Exception:
        d = {'name': name, 'type': type(v).__qualname__}
    lines = ['%s: %s%s' % (name, (d['module'] + '.') if d.get('module') else '', d['type'])]
    for k in ('shape', 'dtype', 'length', 'value'):
        if k in d:
            lines.append('%s: %s' % (k, d[k]))
    if 'dtypes' in d:
        lines.append('dtypes: ' + ', '.join('%s:%s' % kv for kv in d['dtypes'].items()))
    mod = d.get('module', '')
    try:
        if mod.startswith('pandas') and hasattr(v, 'head'):
            head = v.head(5).to_string()
        elif mod.startswith('numpy'):
            import numpy
            head = numpy.array2string(v, threshold=20, edgeitems=3)
        else:
            head = repr(v)
    except Exception as e:
        head = '(no preview: %s)' % type(e).__name__
    lines.append('head:\n' + (head if len(head) <= max_chars else head[:max_chars] + '...'))
    return _Json('\n'.join(lines))

_swallowed = []

def _note_fit_failures(results):
    try:
        seen = {}
        for r in results:
            e = r.get('fit_error') if isinstance(r, dict) else None
            if e:
                lines = [l for l in str(e).strip().splitlines() if l.strip()]
                if lines:
                    seen[lines[-1]] = seen.get(lines[-1], 0) + 1
        for last, n in seen.items():
            _swallowed.append({'error': last[:1000], 'fits': n, 'of': len(results)})
    except Exception:
        pass

def _wrap_validation(mod):
    f = getattr(mod, '_warn_or_raise_about_fit_failures', None)
    if f is None or getattr(f, '_nbm_wrapped', False):
        return
    def _warn_or_raise_about_fit_failures(results, error_score):
        _note_fit_failures(results)
        return f(results, error_score)
    _warn_or_raise_about_fit_failures._nbm_wrapped = True
    mod._warn_or_raise_about_fit_failures = _warn_or_raise_about_fit_failures

class _FitFailureHook:
    NAME = 'sklearn.model_selection._validation'
    def find_spec(self, name, path=None, target=None):
        if name != self.NAME:
            return None
        for finder in _sys.meta_path:
            if finder is self or not hasattr(finder, 'find_spec'):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                # The loader is this module's own instance: wrapping its exec_module touches nothing else.
                run = spec.loader.exec_module
                def exec_module(module, run=run):
                    run(module)
                    _wrap_validation(module)
                spec.loader.exec_module = exec_module
                return spec
        return None

def install_fit_failure_hook():
    try:
        if _FitFailureHook.NAME in _sys.modules:
            _wrap_validation(_sys.modules[_FitFailureHook.NAME])
        elif not any(isinstance(f, _FitFailureHook) for f in _sys.meta_path):
            _sys.meta_path.insert(0, _FitFailureHook())
        from IPython import get_ipython
        ip = get_ipython()
        if ip is not None:
            ip.events.register('pre_run_cell', lambda *a: _swallowed.clear())
    except Exception:
        pass

def after_cell(collect_state=True):
    import time
    t0 = time.perf_counter()
    res = {'peak': peak_rss()}
    if _swallowed:
        res['swallowed'] = list(_swallowed)
        del _swallowed[:]
    if collect_state:
        try:
            res['state'] = state()
        except Exception as e:
            res['stateError'] = repr(e)
    reset_peak()
    # When evaluated as a user expression of the cell's own request, this time lands inside the
    # reply's timestamps; the executor subtracts it so cell durations stay the cell's own.
    res['probeMs'] = (time.perf_counter() - t0) * 1000
    return _Json(res)
`;

/** Silent code that installs the probe module and resets the peak-RSS counter for the first cell. */
export function probeInstallCode(): string {
  return [
    'def __nbm_install(src):',
    '    import sys, types',
    `    m = types.ModuleType(${JSON.stringify(PROBE_MODULE)})`,
    '    exec(compile(src, "<nbmodernize-probe>", "exec"), m.__dict__)',
    `    sys.modules[${JSON.stringify(PROBE_MODULE)}] = m`,
    '    m.reset_peak()',
    '    m.install_fit_failure_hook()',
    `__nbm_install(${JSON.stringify(PROBE_SOURCE)})`,
    'del __nbm_install',
  ].join('\n');
}

/** A user expression evaluated after each cell; its text/plain repr is JSON. */
export function afterCellExpression(collectState: boolean): string {
  return `__import__('sys').modules[${JSON.stringify(PROBE_MODULE)}].after_cell(${collectState ? 'True' : 'False'})`;
}

/** A user expression describing one live value (type, shape, dtypes, head); its text/plain repr is that text as JSON. */
export function inspectExpression(name: string): string {
  return `__import__('sys').modules[${JSON.stringify(PROBE_MODULE)}].inspect_value(${JSON.stringify(name)})`;
}
