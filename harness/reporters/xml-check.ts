/**
 * A small, strict XML 1.0 well-formedness parser, so the JUnit reporter's output is checked by
 * reading it back rather than by string matching, without a new dependency. It covers what the
 * reporter can write (declaration, comments, elements, attributes, text, character and the five
 * predefined entity references, CDATA) and rejects everything else with an offset and line.
 *
 * @see https://www.w3.org/TR/xml/#sec-well-formed
 */
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string };

export class XmlSyntaxError extends Error {
  override name = 'XmlSyntaxError';
}

// XML 1.0 `Char`: tab, LF, CR and everything from U+0020 except surrogates, U+FFFE and U+FFFF.
const badChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const nameRe = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function parseXml(text: string): XmlElement {
  let pos = 0;
  const fail = (message: string): never => {
    const line = text.slice(0, pos).split('\n').length;
    throw new XmlSyntaxError(`${message} at offset ${pos} (line ${line})`);
  };
  const bad = badChar.exec(text);
  if (bad) { pos = bad.index; fail(`character U+${(bad[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} is not allowed in XML`); }

  const skipSpace = () => { while (/\s/.test(text[pos] ?? '')) pos++; };
  const name = (): string => {
    nameRe.lastIndex = pos;
    const m = nameRe.exec(text);
    if (!m) return fail('expected a name');
    pos += m[0].length;
    return m[0];
  };
  const decode = (raw: string, where: string): string => raw.replace(/&([^;&<]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail(`unterminated reference '${whole}' in ${where}`);
    if (ref.startsWith('#x') && /^#x[0-9A-Fa-f]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#') && /^#[0-9]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    const value = entities[ref];
    if (value === undefined) fail(`unknown entity '&${ref};' in ${where}`);
    return value ?? '';
  });
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos + 4);
        if (end < 0) fail('unterminated comment');
        if (text.slice(pos + 4, end).includes('--')) fail("'--' inside a comment");
        pos = end + 3;
      } else if (text.startsWith('<?', pos) && !text.startsWith('<?xml ', pos)) {
        const end = text.indexOf('?>', pos);
        if (end < 0) fail('unterminated processing instruction');
        pos = end + 2;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (text[pos] !== '<') fail("expected '<'");
    pos++;
    const el: XmlElement = { name: name(), attributes: {}, children: [], text: '' };
    for (;;) {
      const before = pos;
      skipSpace();
      if (text.startsWith('/>', pos)) { pos += 2; return el; }
      if (text[pos] === '>') { pos++; break; }
      if (pos === before) fail(`expected whitespace, '>' or '/>' in <${el.name}>`);
      const attr = name();
      skipSpace();
      if (text[pos] !== '=') fail(`expected '=' after attribute ${attr}`);
      pos++;
      skipSpace();
      const quote = text[pos];
      if (quote !== '"' && quote !== "'") fail(`attribute ${attr} value is not quoted`);
      const end = text.indexOf(quote ?? '"', pos + 1);
      if (end < 0) fail(`unterminated value of attribute ${attr}`);
      const raw = text.slice(pos + 1, end);
      if (raw.includes('<')) fail(`'<' in the value of attribute ${attr}`);
      if (attr in el.attributes) fail(`duplicate attribute ${attr} on <${el.name}>`);
      // Attribute-value normalisation: literal whitespace becomes a space, references survive.
      el.attributes[attr] = decode(raw.replace(/[\t\n\r]/g, ' '), `attribute ${attr}`);
      pos = end + 1;
    }
    for (;;) {
      if (pos >= text.length) fail(`<${el.name}> is never closed`);
      if (text.startsWith('</', pos)) {
        pos += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        if (text[pos] !== '>') fail(`expected '>' after </${closing}`);
        pos++;
        return el;
      }
      if (text.startsWith('<!--', pos)) { skipMisc(); continue; }
      if (text.startsWith('<![CDATA[', pos)) {
        const end = text.indexOf(']]>', pos);
        if (end < 0) fail('unterminated CDATA section');
        el.text += text.slice(pos + 9, end);
        pos = end + 3;
        continue;
      }
      if (text[pos] === '<') { el.children.push(element()); continue; }
      let end = text.indexOf('<', pos);
      if (end < 0) end = text.length;
      const raw = text.slice(pos, end);
      if (raw.includes(']]>')) fail("']]>' in text");
      el.text += decode(raw.replace(/\r\n?/g, '\n'), `<${el.name}>`);
      pos = end;
    }
  };

  if (text.startsWith('<?xml', pos)) {
    const end = text.indexOf('?>', pos);
    if (end < 0) fail('unterminated XML declaration');
    pos = end + 2;
  }
  skipMisc();
  const root = element();
  skipMisc();
  if (pos < text.length) fail('content after the root element');
  return root;
}

/** Every element named `name` in document order. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (el: XmlElement) => {
    if (el.name === name) found.push(el);
    el.children.forEach(walk);
  };
  walk(root);
  return found;
}
