import { describe, expect, it } from 'vitest';
import { cellText, curlOf, fetchString, offsetOf, toCsv } from './fetch-text';

describe('FETCH text helpers', () => {
  it('doubles quotes in string literals', () => {
    expect(fetchString("it's")).toBe("'it''s'");
  });

  it('turns the server line and column (code points, from 1) into a text offset', () => {
    const text = 'FETCH a\n  (😀 name';
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 2, 3)).toBe(10);
    // The emoji is one column but two UTF-16 units.
    expect(offsetOf(text, 2, 6)).toBe(14);
    expect(text.slice(offsetOf(text, 2, 6))).toBe('name');
  });

  it('shows objects as JSON and null as nothing', () => {
    expect([cellText(null), cellText({ a: 1 }), cellText(false)]).toEqual(['', '{"a":1}', 'false']);
  });

  it('writes CSV with quotes only where a value needs them', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 'x, y', b: 'say "hi"' },
          { a: null, b: 2 },
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n,2');
  });

  it('writes curl with the query quoted for a shell', () => {
    expect(curlOf('http://h', "FETCH a (n) WHERE n = 'x'")).toBe(
      "curl -s http://h/rest/fetch -H 'X-API-Key: $ATRIUM_KEY' -H 'Content-Type: text/plain' " +
        "--data-binary 'FETCH a (n) WHERE n = '\\''x'\\'''",
    );
  });
});
