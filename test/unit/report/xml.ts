/**
 * A small strict XML 1.0 reader for tests: elements, attributes, text, the five predefined
 * entities and numeric references. It throws on anything not well-formed (unclosed or crossed
 * tags, a raw "<" or "&" in text, duplicate attributes), which is what a JUnit consumer would choke on.
 */
export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

const ENT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, where: number): string {
  return s.replace(/&([^;]*);|&/g, (m, name: string | undefined) => {
    if (name === undefined) throw new Error(`raw "&" near offset ${where}`);
    if (name in ENT) return ENT[name]!;
    const num = /^#(x[0-9a-fA-F]+|\d+)$/.exec(name);
    if (num) return String.fromCodePoint(num[1]!.startsWith('x') ? parseInt(num[1]!.slice(1), 16) : Number(num[1]));
    throw new Error(`unknown entity ${m} near offset ${where}`);
  });
}

export function parseXml(src: string): XmlElement {
  let i = 0;
  const ws = () => { while (/\s/.test(src[i] ?? '')) i++; };
  if (src.startsWith('<?xml')) {
    i = src.indexOf('?>') + 2;
    if (i < 2) throw new Error('unterminated XML declaration');
  }
  ws();
  const element = (): XmlElement => {
    if (src[i] !== '<') throw new Error(`expected "<" at ${i}`);
    i++;
    const name = /^[A-Za-z_][\w.-]*/.exec(src.slice(i))?.[0];
    if (!name) throw new Error(`bad tag name at ${i}`);
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      ws();
      if (src.startsWith('/>', i)) { i += 2; return el; }
      if (src[i] === '>') { i++; break; }
      const m = /^([A-Za-z_][\w.:-]*)\s*=\s*"([^"<]*)"/.exec(src.slice(i));
      if (!m) throw new Error(`bad attribute in <${name}> at ${i}: ${src.slice(i, i + 30)}`);
      if (m[1]! in el.attrs) throw new Error(`duplicate attribute ${m[1]} in <${name}>`);
      el.attrs[m[1]!] = decode(m[2]!, i);
      i += m[0].length;
    }
    for (;;) {
      const lt = src.indexOf('<', i);
      if (lt < 0) throw new Error(`unclosed <${name}>`);
      const text = src.slice(i, lt);
      if (text.includes('>') && /]]>/.test(text)) throw new Error('"]]>" in text');
      el.text += decode(text, i);
      i = lt;
      if (src.startsWith('</', i)) {
        const close = /^<\/([^>\s]+)\s*>/.exec(src.slice(i));
        if (!close || close[1] !== name) throw new Error(`</${close?.[1]}> closes <${name}> at ${i}`);
        i += close[0].length;
        return el;
      }
      el.children.push(element());
    }
  };
  const root = element();
  ws();
  if (i !== src.length) throw new Error(`content after the root element at ${i}`);
  return root;
}

export function all(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => all(c, name))];
}
