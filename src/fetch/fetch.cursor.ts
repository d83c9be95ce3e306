import { nearestName } from '../common/nearest-name';
import { FetchSyntaxError } from './fetch.errors';
import { Token, tokenize } from './fetch.lexer';

/**
 * The parser's view of the token list. Every check that fails on the current token
 * notes what would have been accepted there, so a syntax error can name all of it:
 * `expected "AS", "," or ")" but found "FROM"`. Consuming a token forgets the notes.
 */
export class TokenCursor {
  token: Token;
  private readonly tokens: Token[];
  private index = 0;
  /**
   * What was expected at the current token, kept unformatted and reset by a count: a
   * parse makes hundreds of failed checks and needs their text only when it fails.
   */
  private readonly expected: string[] = [];
  private readonly quoted: boolean[] = [];
  private expectedCount = 0;

  constructor(readonly source: string) {
    this.tokens = tokenize(source);
    this.token = this.tokens[0];
  }

  /** The token `ahead` places after the current one (the last token past the end). */
  peek(ahead = 1): Token {
    return this.tokens[Math.min(this.index + ahead, this.tokens.length - 1)];
  }

  advance(): Token {
    const current = this.token;
    if (this.index < this.tokens.length - 1) this.token = this.tokens[++this.index];
    this.expectedCount = 0;
    return current;
  }

  /** Notes something the grammar accepts here that no check names by itself. */
  expect(what: string, quoted = false): void {
    this.expected[this.expectedCount] = what;
    this.quoted[this.expectedCount++] = quoted;
  }

  isKeyword(word: string, shown = word): boolean {
    const { token } = this;
    if (token.kind === 'ident' && token.text.length === word.length && token.upper === word) {
      return true;
    }
    this.expect(shown, true);
    return false;
  }

  acceptKeyword(word: string, shown = word): boolean {
    if (!this.isKeyword(word, shown)) return false;
    this.advance();
    return true;
  }

  keyword(word: string): void {
    if (!this.acceptKeyword(word)) this.fail();
  }

  isSymbol(symbol: string): boolean {
    if (this.token.kind === 'symbol' && this.token.text === symbol) return true;
    this.expect(symbol, true);
    return false;
  }

  acceptSymbol(symbol: string): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.advance();
    return true;
  }

  symbol(symbol: string): void {
    if (!this.acceptSymbol(symbol)) this.fail();
  }

  /** An identifier's text; `what` names it in the error ("an entity name"). */
  identifier(what: string): string {
    if (this.token.kind === 'ident') return this.advance().text;
    this.expect(what);
    return this.fail();
  }

  /** `ident` or `alias.property`. */
  column(what = 'a column'): string {
    const name = this.identifier(what);
    if (this.token.kind !== 'symbol' || this.token.text !== '.') return name;
    this.advance();
    return `${name}.${this.identifier('a property name')}`;
  }

  /** LIMIT, OFFSET and the `n` of `IS LAST n DAYS`. */
  integer(): number {
    const { kind, text, start } = this.token;
    if (kind !== 'number') {
      this.expect('a non-negative integer');
      return this.fail();
    }
    if (!/^\d+$/.test(text)) {
      throw this.error(start, `expected a non-negative integer but found "${text}"`);
    }
    if (!Number.isSafeInteger(Number(text))) {
      throw this.error(start, `expected an integer below 2^53 but found "${text}"`);
    }
    this.advance();
    return Number(text);
  }

  end(): void {
    if (this.token.kind === 'end') return;
    this.expect('end of query');
    this.fail();
  }

  /** Throws "expected … but found …" for the current token. */
  fail(): never {
    const { token } = this;
    if (token.kind === 'error') throw this.error(token.start, token.text);
    const shown = this.expected
      .slice(0, this.expectedCount)
      .map((what, i) => (this.quoted[i] ? `"${what}"` : what));
    const expected = [...new Set(shown)];
    throw this.error(
      token.start,
      `expected ${listOf(expected)} but found ${describe(token)}${suggestion(token, expected)}`,
    );
  }

  error(offset: number, reason: string): FetchSyntaxError {
    return FetchSyntaxError.at(this.source, offset, reason);
  }
}

function listOf(items: string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const SHOWN_LENGTH = 40;

function describe(token: Token): string {
  if (token.kind === 'end') return 'end of query';
  const text =
    token.text.length > SHOWN_LENGTH ? `${token.text.slice(0, SHOWN_LENGTH)}…` : token.text;
  return token.kind === 'string' ? text : `"${text}"`;
}

/** A misspelt keyword (`LIMT`) gets the keyword it is closest to. */
function suggestion(token: Token, expected: string[]): string {
  if (token.kind !== 'ident') return '';
  const shownByWord = new Map(
    expected
      .filter((e) => /^"[A-Z_]+( [A-Z]+)?"$/.test(e))
      .map((shown) => [shown.slice(1, -1).split(' ')[0], shown]),
  );
  const word = nearestName(token.upper, shownByWord.keys(), token.upper.length <= 4 ? 1 : 2);
  return word ? ` (did you mean ${shownByWord.get(word)}?)` : '';
}
