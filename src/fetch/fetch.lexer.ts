/**
 * FETCH tokens. Keywords are not reserved: they are identifiers that the parser matches
 * by their upper-cased text where the grammar expects one, so `count`, `month` or `from`
 * remain usable as property names.
 */
export type TokenKind = 'ident' | 'number' | 'string' | 'symbol' | 'end' | 'error';

export class Token {
  /** A string token's value, with `''` unescaped. */
  value = '';
  private upperText: string | undefined;

  constructor(
    readonly kind: TokenKind,
    /** The source text; an error token's reason. */
    readonly text: string,
    /** Offset of the first character in the source. */
    readonly start: number,
    upper?: string,
  ) {
    this.upperText = upper;
  }

  /**
   * Upper-cased identifier text for keyword checks ('' for other kinds), made on first
   * use: most identifiers are names that no keyword check ever reaches.
   */
  get upper(): string {
    return (this.upperText ??= this.kind === 'ident' ? this.text.toUpperCase() : '');
  }
}

/** Character codes of the one-character symbols `( ) { } , . * ; = < >`. */
const SYMBOLS = new Set([...'(){},.*;=<>'].map((c) => c.charCodeAt(0)));
const [LESS, GREATER, EQUALS, BANG] = ['<', '>', '=', '!'].map((c) => c.charCodeAt(0));

/** `<=`, `>=`, `<>` and `!=`, checked by code: the lexer runs once per character. */
function isTwoCharSymbol(c: number, next: number): boolean {
  if (next === EQUALS) return c === LESS || c === GREATER || c === BANG;
  return c === LESS && next === GREATER;
}

/**
 * The whole token list, ending in an `end` token, or in an `error` token at the first
 * character that starts no token: the parser reports it only if it gets that far, so
 * the error nearest the start of the query wins.
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const length = source.length;
  let i = skipBlanks(source, 0);
  while (i < length) {
    const start = i;
    const c = source.charCodeAt(i);
    if (isIdentStart(c)) {
      let lower = c >= 97;
      for (i++; i < length; i++) {
        const d = source.charCodeAt(i);
        if (!isIdentPart(d)) break;
        if (d >= 97) lower = true;
      }
      const text = source.slice(start, i);
      // Keywords are mostly written upper-case: such a token is its own upper case.
      tokens.push(new Token('ident', text, start, lower ? undefined : text));
    } else if (isDigit(c) || (c === MINUS && isDigit(source.charCodeAt(i + 1)))) {
      i = scanNumber(source, i + 1);
      tokens.push(token('number', source.slice(start, i), start));
    } else if (c === QUOTE) {
      const end = scanString(source, i + 1);
      if (end < 0) {
        tokens.push(token('error', 'unterminated string: a closing quote is missing', start));
        return tokens;
      }
      i = end;
      const text = source.slice(start, i);
      const nul = text.indexOf('\0');
      if (nul >= 0) {
        tokens.push(
          token(
            'error',
            'a string holds a NUL character (U+0000), which text cannot hold',
            start + nul,
          ),
        );
        return tokens;
      }
      const string = token('string', text, start);
      string.value = text.slice(1, -1).replaceAll("''", "'");
      tokens.push(string);
    } else if (isTwoCharSymbol(c, source.charCodeAt(i + 1))) {
      i += 2;
      tokens.push(token('symbol', source.slice(start, i), start));
    } else if (SYMBOLS.has(c)) {
      i++;
      tokens.push(token('symbol', source[start], start));
    } else {
      tokens.push(token('error', `unexpected character ${describeCharacter(source, i)}`, start));
      return tokens;
    }
    i = skipBlanks(source, i);
  }
  tokens.push(token('end', '', length));
  return tokens;
}

const MINUS = 45;
const QUOTE = 39;
const DOT = 46;
const NEWLINE = 10;
const RETURN = 13;

function token(kind: TokenKind, text: string, start: number): Token {
  return new Token(kind, text, start);
}

/** Skips whitespace and `-- line comments`. */
function skipBlanks(source: string, from: number): number {
  let i = from;
  for (;;) {
    const c = source.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(source[i]))) {
      i++;
    } else if (c === MINUS && source.charCodeAt(i + 1) === MINUS) {
      while (i < source.length && !isLineEnd(source.charCodeAt(i))) i++;
    } else {
      return i;
    }
  }
}

function scanNumber(source: string, from: number): number {
  let i = from;
  while (isDigit(source.charCodeAt(i))) i++;
  if (source.charCodeAt(i) === DOT && isDigit(source.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(source.charCodeAt(i))) i++;
  }
  return i;
}

/** The offset after the closing quote, or -1 when there is none. */
function scanString(source: string, from: number): number {
  let i = from;
  for (;;) {
    const quote = source.indexOf("'", i);
    if (quote < 0) return -1;
    if (source.charCodeAt(quote + 1) !== QUOTE) return quote + 1;
    i = quote + 2;
  }
}

function describeCharacter(source: string, at: number): string {
  const code = source.codePointAt(at)!;
  const char = String.fromCodePoint(code);
  if (/[\p{L}\p{N}\p{P}\p{S}]/u.test(char)) return JSON.stringify(char);
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isLineEnd(c: number): boolean {
  return c === NEWLINE || c === RETURN;
}
