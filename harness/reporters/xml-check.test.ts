import { describe, expect, it } from 'vitest';
import { findAll, parseXml } from './xml-check.ts';

describe('XML well-formedness check', () => {
  it('parses elements, attributes, references, comments and CDATA', () => {
    const root = parseXml('<?xml version="1.0"?>\n<!-- c --><a x="1 &amp; 2" y=\'&#10;\'><b>t &lt; u&#x41;</b><b/><![CDATA[<raw>]]></a>\n');
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1 & 2', y: '\n' });
    expect(findAll(root, 'b').map((b) => b.text)).toEqual(['t < uA', '']);
    expect(root.text).toBe('<raw>');
  });

  it.each([
    ['a mismatched end tag', '<a><b></a></b>', /<\/a> closes <b>/],
    ['an unclosed element', '<a><b></b>', /never closed/],
    ['a raw ampersand', '<a>x & y</a>', /unterminated reference/],
    ['an unknown entity', '<a>&nbsp;</a>', /unknown entity/],
    ['a < in an attribute', '<a x="<"/>', /'<' in the value/],
    ['a duplicate attribute', '<a x="1" x="2"/>', /duplicate attribute/],
    ['an unquoted attribute', '<a x=1/>', /not quoted/],
    ['a control character', '<a>\u0007</a>', /U\+0007/],
    ['two roots', '<a/><b/>', /after the root/],
    ['-- in a comment', '<a><!-- x -- y --></a>', /'--' inside a comment/],
    [']]> in text', '<a>]]></a>', /']]>' in text/],
  ])('rejects %s', (_name, xml, message) => {
    expect(() => parseXml(xml)).toThrow(message);
  });
});
