/**
 * Standard-library removals of Python 3.8-3.13 (the "Removed" sections of What's New) that a
 * 2015-2020 notebook can reach and that have a drop-in replacement, beyond the hand-written rules of
 * stdlib.ts (time.clock, collections ABCs, base64.encodestring, imp, inspect.getargspec,
 * fractions.gcd, Thread.isAlive, random.sample on a set). Probed in the fixed environment's Python
 * 3.13. Left out, no drop-in: `platform.linux_distribution` (3.8: the `distro` package),
 * `cgi.escape` (3.8: `html.escape` quotes by default), `inspect.formatargspec` (3.11),
 * `HTMLParser.unescape` (3.9: an instance method; `html.unescape`), `imghdr` (3.13),
 * `Element.getchildren` (3.9: `list(elem)`, a different expression).
 */
import type { TableEntry } from '../table-rules.js';

const WHATSNEW = (v: string, anchor: string) => `https://docs.python.org/3/whatsnew/${v}.html#${anchor}`;

export const pythonTable: TableEntry[] = [
  {
    kind: 'rename-function', id: 'py-locale-format', library: 'python', removedIn: '3.12', deprecatedIn: '3.7',
    from: 'locale.format', to: 'locale.format_string',
    link: WHATSNEW('3.12', 'removed'),
    message: 'locale.format() was removed in Python 3.12: locale.format_string() takes the same arguments',
    fixtures: [{
      before: "import locale\nprint(locale.format('%d', 1234))",
      after: "import locale\nprint(locale.format_string('%d', 1234))",
      expect: '1234', beforeError: 'AttributeError',
    }],
  },
  {
    kind: 'move-symbol', id: 'py-pipes-quote', library: 'python', removedIn: '3.13', deprecatedIn: '3.11',
    from: 'pipes.quote', to: 'shlex.quote',
    link: WHATSNEW('3.13', 'pep-594-remove-dead-batteries-from-the-standard-library'),
    message: 'the pipes module was removed in Python 3.13 (PEP 594); its quote() is shlex.quote()',
    fixtures: [{
      before: "from pipes import quote\nprint(quote('a b'))",
      after: "from shlex import quote\nprint(quote('a b'))",
      expect: "'a b'", beforeError: 'ModuleNotFoundError',
    }],
  },
  ...([
    ['tostring', 'tobytes', { before: "import array\na = array.array('b', [1, 2])\nprint(a.tostring())", after: "import array\na = array.array('b', [1, 2])\nprint(a.tobytes())", expect: "b'\\x01\\x02'", beforeError: 'AttributeError' }],
    ['fromstring', 'frombytes', { before: "import array\na = array.array('b')\na.fromstring(b'\\x03')\nprint(a[0])", after: "import array\na = array.array('b')\na.frombytes(b'\\x03')\nprint(a[0])", expect: '3', beforeError: 'AttributeError' }],
  ] as const).map(([from, to, fixture]): TableEntry => ({
    kind: 'rename-method', id: `py-array-${from}`, library: 'python', removedIn: '3.9', deprecatedIn: '3.2',
    receiver: 'any', from, to,
    link: WHATSNEW('3.9', 'removed'),
    message: `array.array.${from}() was removed in Python 3.9: use ${to}() (the same bytes)`,
    fixtures: [fixture],
  })),
  {
    kind: 'rename-method', id: 'py-etree-getiterator', library: 'python', removedIn: '3.9', deprecatedIn: '3.2',
    receiver: 'any', from: 'getiterator', to: 'iter',
    link: WHATSNEW('3.9', 'removed'),
    message: 'Element.getiterator() / ElementTree.getiterator() were removed in Python 3.9: use iter() (the same elements)',
    fixtures: [{
      before: "import xml.etree.ElementTree as ET\nroot = ET.fromstring('<a><b/><b/></a>')\nprint(len(list(root.getiterator('b'))))",
      after: "import xml.etree.ElementTree as ET\nroot = ET.fromstring('<a><b/><b/></a>')\nprint(len(list(root.iter('b'))))",
      expect: '2', beforeError: 'AttributeError',
    }],
  },
];
