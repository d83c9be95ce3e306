/**
 * The one error the FETCH lexer, parser and validation throw: 400 with `detail`, `line`
 * and `column` at the HTTP edge. Lines and columns count from 1; a column counts
 * characters (code points), so an emoji before the error moves it by one.
 */
export class FetchSyntaxError extends Error {
  override readonly name = 'FetchSyntaxError';

  constructor(
    readonly line: number,
    readonly column: number,
    /** What went wrong, without the position. */
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }

  /** The error at a character offset of the query text. */
  static at(text: string, offset: number, reason: string): FetchSyntaxError {
    const { line, column } = positionOf(text, offset);
    return new FetchSyntaxError(line, column, reason);
  }

  get detail(): string {
    return this.message;
  }
}

/** Computed only when an error is thrown, so lexing keeps plain offsets. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  const last = lines[lines.length - 1];
  return { line: lines.length, column: [...last].length + 1 };
}
