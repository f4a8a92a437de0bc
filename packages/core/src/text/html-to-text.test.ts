import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities, htmlToText } from './html-to-text.ts';

describe('htmlToText', () => {
  it('puts blocks on their own lines and collapses whitespace', () => {
    expect(
      htmlToText(
        '<p><b>Title</b></p> <p> First   paragraph\n continues.</p><ul><li>one</li><li>two</li></ul>',
      ),
    ).toBe('Title\n\nFirst paragraph continues.\n\none\ntwo');
  });

  it('keeps the layout of preformatted documents', () => {
    expect(htmlToText('<pre>\nSEC. 1.   Short title.\n    (a) In general.\n</pre>')).toBe(
      'SEC. 1.   Short title.\n    (a) In general.',
    );
  });

  it('drops scripts, styles and comments, and never leaves markup behind', () => {
    expect(
      htmlToText(
        '<style>p{}</style><script>alert(1)</script><!-- note -->Text<img src=x onerror=alert(1)>',
      ),
    ).toBe('Text');
    expect(htmlToText('a < b and c > d')).toBe('a d');
    expect(htmlToText('unclosed <script')).toBe('unclosed <script');
  });

  it('decodes entities, refusing code points that do not exist', () => {
    expect(decodeHtmlEntities('&amp;&lt;&sect;&#167;&#xA7;&nbsp;&#0;&#xD800;&unknown;')).toBe(
      '&<§§§ \uFFFD\uFFFD&unknown;',
    );
  });

  // A quadratic pass over these inputs would run for hours: the generous timeout catches that,
  // without making a speed goal of a unit test (speed is measured in bench/).
  it('finishes on hostile input', { timeout: 60_000 }, () => {
    expect(htmlToText('<'.repeat(500_000))).toBe('<'.repeat(500_000));
    htmlToText('<script>'.repeat(100_000));
    expect(htmlToText(`<p>${' '.repeat(1_000_000)}x`)).toBe('x');
  });
});
