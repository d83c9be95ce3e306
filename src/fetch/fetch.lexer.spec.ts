import { tokenize } from './fetch.lexer';

const kinds = (source: string) => tokenize(source).map(({ kind, text }) => [kind, text]);

describe('tokenize', () => {
  it('reads identifiers, upper-casing them only for keyword checks', () => {
    const [token] = tokenize('first_Name2');
    expect(token).toMatchObject({ kind: 'ident', text: 'first_Name2', upper: 'FIRST_NAME2' });
  });

  it('reads numbers with a sign and a fraction, and stops before a dangling dot', () => {
    expect(kinds('-12.50 7 1.x')).toEqual([
      ['number', '-12.50'],
      ['number', '7'],
      ['number', '1'],
      ['symbol', '.'],
      ['ident', 'x'],
      ['end', ''],
    ]);
  });

  it("reads strings, unescaping '' and keeping newlines", () => {
    const [token] = tokenize("'it''s\nfine'");
    expect(token).toMatchObject({ kind: 'string', text: "'it''s\nfine'", value: "it's\nfine" });
    expect(tokenize("''")[0]).toMatchObject({ kind: 'string', value: '' });
  });

  it('refuses a NUL character inside a string where it stands (PostgreSQL text cannot hold it)', () => {
    expect(tokenize("name = 'a\u0000b'")).toContainEqual(
      expect.objectContaining({
        kind: 'error',
        text: 'a string holds a NUL character (U+0000), which text cannot hold',
        start: 9,
      }),
    );
  });

  it('reads one- and two-character symbols', () => {
    expect(kinds('( ) { } , . * ; = <> != < <= > >=').map(([, text]) => text)).toEqual([
      '(',
      ')',
      '{',
      '}',
      ',',
      '.',
      '*',
      ';',
      '=',
      '<>',
      '!=',
      '<',
      '<=',
      '>',
      '>=',
      '',
    ]);
  });

  it('skips whitespace and -- comments, and records offsets', () => {
    const tokens = tokenize('  a -- comment ( \r\n\tb--x\n');
    expect(tokens.map(({ kind, text, start }) => [kind, text, start])).toEqual([
      ['ident', 'a', 2],
      ['ident', 'b', 20],
      ['end', '', 25],
    ]);
  });

  it('ends with an error token at an unexpected character', () => {
    expect(tokenize('a # b').at(-1)).toMatchObject({
      kind: 'error',
      text: 'unexpected character "#"',
      start: 2,
    });
    expect(tokenize('a - b').at(-1)).toMatchObject({ text: 'unexpected character "-"' });
    expect(tokenize('a ! b').at(-1)).toMatchObject({ text: 'unexpected character "!"' });
    expect(tokenize('"x"').at(-1)).toMatchObject({ text: 'unexpected character "\\""' });
    expect(tokenize('a\u0000').at(-1)).toMatchObject({ text: 'unexpected character U+0000' });
  });

  it('ends with an error token at an unterminated string', () => {
    expect(tokenize("a 'b''").at(-1)).toMatchObject({
      kind: 'error',
      text: 'unterminated string: a closing quote is missing',
      start: 2,
    });
  });
});
