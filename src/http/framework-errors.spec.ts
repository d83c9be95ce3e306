import { parserRefusal } from './framework-errors';

/** An http-errors error as Express's body parsers pass it on. */
const parserError = (status: number, type: string, extra: object = {}) =>
  Object.assign(new Error('raw parser text'), { status, type, expose: status < 500, ...extra });

describe("Express's body parsers' refusals", () => {
  it.each([
    ['entity.too.large', 413, { limit: 1024 }, 413, /accepts 1024 bytes/],
    ['charset.unsupported', 415, {}, 415, /charset is not supported/],
    ['encoding.unsupported', 415, {}, 415, /encoding is not supported/],
    ['request.aborted', 400, {}, 400, /could not be read/],
  ])('%s becomes %s with a detail of its own', (type, status, extra, expected, detail) => {
    const refusal = parserRefusal(parserError(status, type, extra))!;
    expect(refusal.getStatus()).toBe(expected);
    expect(refusal.message).toMatch(detail);
    expect(refusal.message).not.toContain('raw parser text');
  });

  it('leaves other errors alone', () => {
    expect(parserRefusal(new Error('boom'))).toBeUndefined();
    expect(
      parserRefusal(parserError(500, 'stream.not.readable', { expose: false })),
    ).toBeUndefined();
  });
});
