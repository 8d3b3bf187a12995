/**
 * Module name lists for import diagnosis, measured in a debian13 rootfs built from
 * sandboxes/debian13/environment.json (Python 3.13: sys.stdlib_module_names; site: top-level
 * modules under dist-packages). Used only to report imports that cannot resolve; regenerate when the
 * environment's package list changes.
 */
export const STDLIB_MODULES: readonly string[] = [
  '__future__', '_thread', 'abc', 'antigravity', 'argparse', 'array', 'ast', 'asyncio', 'atexit', 'base64',
  'bdb', 'binascii', 'bisect', 'builtins', 'bz2', 'cProfile', 'calendar', 'cmath', 'cmd', 'code', 'codecs',
  'codeop', 'collections', 'colorsys', 'compileall', 'concurrent', 'configparser', 'contextlib',
  'contextvars', 'copy', 'copyreg', 'csv', 'ctypes', 'curses', 'dataclasses', 'datetime', 'dbm', 'decimal',
  'difflib', 'dis', 'doctest', 'email', 'encodings', 'ensurepip', 'enum', 'errno', 'faulthandler', 'fcntl',
  'filecmp', 'fileinput', 'fnmatch', 'fractions', 'ftplib', 'functools', 'gc', 'genericpath', 'getopt',
  'getpass', 'gettext', 'glob', 'graphlib', 'grp', 'gzip', 'hashlib', 'heapq', 'hmac', 'html', 'http',
  'idlelib', 'imaplib', 'importlib', 'inspect', 'io', 'ipaddress', 'itertools', 'json', 'keyword',
  'linecache', 'locale', 'logging', 'lzma', 'mailbox', 'marshal', 'math', 'mimetypes', 'mmap',
  'modulefinder', 'msvcrt', 'multiprocessing', 'netrc', 'nt', 'ntpath', 'nturl2path', 'numbers', 'opcode',
  'operator', 'optparse', 'os', 'pathlib', 'pdb', 'pickle', 'pickletools', 'pkgutil', 'platform', 'plistlib',
  'poplib', 'posix', 'posixpath', 'pprint', 'profile', 'pstats', 'pty', 'pwd', 'py_compile', 'pyclbr',
  'pydoc', 'pydoc_data', 'pyexpat', 'queue', 'quopri', 'random', 're', 'readline', 'reprlib', 'resource',
  'rlcompleter', 'runpy', 'sched', 'secrets', 'select', 'selectors', 'shelve', 'shlex', 'shutil', 'signal',
  'site', 'smtplib', 'socket', 'socketserver', 'sqlite3', 'sre_compile', 'sre_constants', 'sre_parse', 'ssl',
  'stat', 'statistics', 'string', 'stringprep', 'struct', 'subprocess', 'symtable', 'sys', 'sysconfig',
  'syslog', 'tabnanny', 'tarfile', 'tempfile', 'termios', 'textwrap', 'this', 'threading', 'time', 'timeit',
  'tkinter', 'token', 'tokenize', 'tomllib', 'trace', 'traceback', 'tracemalloc', 'tty', 'turtle',
  'turtledemo', 'types', 'typing', 'unicodedata', 'unittest', 'urllib', 'uuid', 'venv', 'warnings', 'wave',
  'weakref', 'webbrowser', 'winreg', 'winsound', 'wsgiref', 'xml', 'xmlrpc', 'zipapp', 'zipfile',
  'zipimport', 'zlib', 'zoneinfo',
];

export const DEBIAN13_SITE_MODULES: readonly string[] = [
  'IPython', 'PIL', 'anyio', 'argon2', 'arrow', 'asttokens', 'attr', 'attrs', 'autocommand', 'bleach',
  'brotli', 'bs4', 'cached_property', 'certifi', 'chardet', 'charset_normalizer', 'click', 'comm',
  'contourpy', 'coverage', 'cycler', 'dateutil', 'debugpy', 'decorator', 'defusedxml', 'et_xmlfile',
  'exceptiongroup', 'executing', 'fastjsonschema', 'fontTools', 'fqdn', 'fs', 'html5lib', 'idna', 'imageio',
  'imblearn', 'importlib_metadata', 'importlib_resources', 'inflect', 'ipykernel', 'ipykernel_launcher',
  'isoduration', 'isympy', 'jedi', 'jinja2', 'joblib', 'jsonpointer', 'jsonschema',
  'jsonschema_specifications', 'jupyter', 'jupyter_client', 'jupyter_core', 'jupyter_events',
  'jupyter_server', 'jupyter_server_terminals', 'jupyterlab_pygments', 'kiwisolver', 'lazy_loader',
  'linkify_it', 'lxml', 'lz4', 'markdown_it', 'markupsafe', 'matplotlib', 'matplotlib_inline', 'mdurl',
  'mistune', 'more_itertools', 'mpmath', 'nbclient', 'nbconvert', 'nbformat', 'nest_asyncio', 'networkx',
  'nltk', 'numpy', 'openpyxl', 'overrides', 'packaging', 'pandas', 'pandocfilters', 'parso', 'patsy',
  'pexpect', 'pkg_resources', 'platformdirs', 'plotly', 'prometheus_client', 'prompt_toolkit', 'psutil',
  'ptyprocess', 'pure_eval', 'pygments', 'pylab', 'pyparsing', 'pythonjsonlogger', 'pytz', 'referencing',
  'regex', 'requests', 'rfc3339_validator', 'rfc3986_validator', 'rich', 'rpds', 'scipy', 'seaborn',
  'send2trash', 'setuptools', 'six', 'skimage', 'sklearn', 'sniffio', 'soupsieve', 'stack_data',
  'statsmodels', 'sympy', 'tabulate', 'tenacity', 'terminado', 'threadpoolctl', 'tifffile', 'tinycss2',
  'tornado', 'tqdm', 'traitlets', 'typeguard', 'typing_extensions', 'uc_micro', 'ufoLib2', 'unicodedata2',
  'uritemplate', 'urllib3', 'wcwidth', 'webcolors', 'webencodings', 'websocket', 'wordcloud', 'xgboost',
  'xlrd', 'yaml', 'zipp', 'zmq', 'zopfli',
];
