"""Public names of the environment's data-science packages: module -> names it defines or exports.

Run inside the fixed environment's rootfs (no network). Prints JSON on stdout. Private modules
(a path component starting with "_"), tests and modules that fail to import are skipped; a global
time budget keeps the build bounded. Used to repair imports of names that moved between releases.
Also the keyword parameters of every public function and method, keyed by `__qualname__` (what
Python 3.10+ names in "X.__init__() got an unexpected keyword argument 'k'").
"""
import importlib
import inspect
import json
import pkgutil
import sys
import time
import warnings

PACKAGES = ["numpy", "pandas", "sklearn", "scipy", "matplotlib", "seaborn", "statsmodels", "xgboost", "joblib"]
BUDGET_S = float(sys.argv[1]) if len(sys.argv) > 1 else 150.0
SKIP_PARTS = {"tests", "test", "testing", "conftest", "setup", "benchmarks", "sandbox", "examples"}


ORIGINS = {}
VERSION = 3
# __qualname__ -> keyword parameter names (union over objects sharing the qualname); "**" marks **kwargs.
SIGNATURES = {}
# Standard-library modules with side effects on import (print, open a browser, need a display).
STDLIB_SKIP = {"this", "antigravity", "idlelib", "turtle", "turtledemo", "tkinter", "test", "lib2to3", "ensurepip", "venv", "pydoc_data"}


def keyword_names(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    out = []
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self":
            out.append(p.name)
        elif p.kind == p.VAR_KEYWORD:
            out.append("**")
    return out


def record_signature(obj):
    qual = getattr(obj, "__qualname__", None)
    if not isinstance(qual, str) or "<" in qual:
        return
    names = keyword_names(obj)
    if names is None:
        return
    have = SIGNATURES.setdefault(qual, [])
    have.extend(n for n in names if n not in have)


def record_signatures(obj, top):
    """Functions, and classes' __init__ and public methods, that the package itself defines."""
    origin = getattr(obj, "__module__", None)
    if not isinstance(origin, str) or not (origin == top or origin.startswith(top + ".")):
        return
    if inspect.isclass(obj):
        for name, member in vars(obj).items():
            if name.startswith("_") and name != "__init__":
                continue
            fn = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
            if inspect.isfunction(fn):
                record_signature(fn)
    elif inspect.isfunction(obj):
        record_signature(obj)


def public(mod, top):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n in dir(mod) if not n.startswith("_")]
    out = []
    for n in names:
        try:
            obj = getattr(mod, n)
        except Exception:
            continue
        origin = getattr(obj, "__module__", None) or getattr(obj, "__name__", "")
        # Keep what the package itself defines (re-exports of numpy from scipy are noise).
        if isinstance(origin, str) and (origin == top or origin.startswith(top + ".")):
            out.append(n)
            try:
                record_signatures(obj, top)
            except Exception:
                pass
            if getattr(obj, "__module__", None):
                ORIGINS.setdefault(n, set()).add(obj.__module__)
    return sorted(set(out))


def main():
    warnings.simplefilter("ignore")
    start = time.time()
    index = {}
    skipped = []
    for top in PACKAGES:
        try:
            pkg = importlib.import_module(top)
        except Exception as e:
            skipped.append([top, type(e).__name__])
            continue
        index[top] = public(pkg, top)
        for info in pkgutil.walk_packages(pkg.__path__, top + ".", onerror=lambda n: None):
            parts = info.name.split(".")
            if any(p.startswith("_") or p in SKIP_PARTS for p in parts[1:]):
                continue
            if time.time() - start > BUDGET_S:
                skipped.append([info.name, "time budget"])
                continue
            try:
                mod = importlib.import_module(info.name)
            except BaseException as e:  # SystemExit / import-time errors of optional backends
                skipped.append([info.name, type(e).__name__])
                continue
            index[info.name] = public(mod, top)
    # The standard library's top-level modules and their public names (a notebook that uses
    # `calendar.month_name` without importing it lost the import with a deleted cell).
    for top in sorted(getattr(sys, "stdlib_module_names", ())):
        if top.startswith("_") or top in STDLIB_SKIP or top in index:
            continue
        try:
            mod = importlib.import_module(top)
        except BaseException as e:
            skipped.append([top, type(e).__name__])
            continue
        index[top] = sorted(n for n in dir(mod) if not n.startswith("_"))
    json.dump({"version": VERSION, "signatures": SIGNATURES, "modules": index, "origins": {k: sorted(v) for k, v in ORIGINS.items()}, "skipped": skipped, "seconds": round(time.time() - start, 1)}, sys.stdout, separators=(",", ":"))


main()
