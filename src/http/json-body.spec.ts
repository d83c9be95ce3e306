import { HttpException } from '@nestjs/common';
import { JSON_MAX_DEPTH, parseJsonBody } from './json-body';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

function refusalOf(text: string): { status: number; detail: string } {
  try {
    parseJsonBody(text);
  } catch (error) {
    const http = error as HttpException;
    return { status: http.getStatus(), detail: http.message };
  }
  throw new Error(`${text.slice(0, 40)} was accepted`);
}

describe('parseJsonBody', () => {
  it('reads any JSON value', () => {
    expect(parseJsonBody('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] });
    expect(parseJsonBody('"text"')).toBe('text');
    expect(parseJsonBody('\uFEFF{"bom":true}')).toEqual({ bom: true });
  });

  it(`reads ${JSON_MAX_DEPTH} levels of nesting and refuses one more`, () => {
    expect(parseJsonBody(nested(JSON_MAX_DEPTH))).toBeInstanceOf(Array);
    expect(parseJsonBody(`{"a":${nested(JSON_MAX_DEPTH - 1)}}`)).toHaveProperty('a');
    for (const text of [nested(JSON_MAX_DEPTH + 1), `{"a":${nested(JSON_MAX_DEPTH)}}`]) {
      expect(refusalOf(text)).toEqual({
        status: 400,
        detail: `The body nests deeper than ${JSON_MAX_DEPTH} levels of objects and arrays, the most this server reads`,
      });
    }
  });

  it('refuses 100,000 levels without running out of stack', () => {
    expect(refusalOf(nested(100_000)).detail).toMatch(/nests deeper than/);
    expect(refusalOf('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)).status).toBe(400);
  });

  it('refuses "__proto__" members, however spelled, and "constructor" holding "prototype"', () => {
    for (const text of [
      '{"name":"k","__proto__":{"isAdmin":true}}',
      '{"a":[{"\\u005f_proto__":{}}]}',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ]) {
      expect(refusalOf(text)).toEqual({
        status: 400,
        detail: expect.stringMatching(/^The body has a "__proto__" member/),
      });
    }
  });

  it('reads "constructor" and "prototype" as ordinary names elsewhere', () => {
    expect(parseJsonBody('{"constructor":"Ada","prototype":{"x":1}}')).toEqual({
      constructor: 'Ada',
      prototype: { x: 1 },
    });
  });

  it('reads UTF-8, named or not, and refuses another charset with 415', () => {
    for (const type of [
      'application/json',
      'application/json; charset=UTF-8',
      'application/json;charset="utf8"',
    ]) {
      expect(parseJsonBody('{"a":1}', type)).toEqual({ a: 1 });
    }
    expect(() => parseJsonBody('{"a":1}', 'application/json; charset=iso-8859-1')).toThrow(
      'A JSON body must be UTF-8',
    );
  });

  it('refuses an empty or malformed body with 400, quoting none of it', () => {
    expect(refusalOf('')).toEqual({ status: 400, detail: expect.stringMatching(/empty/) });
    // V8 quotes the text in some of its messages: `Unexpected token 's', "secret" is …`.
    for (const text of ['secret-value', '{"user":secret}', '{"user":']) {
      const { status, detail } = refusalOf(text);
      expect(status).toBe(400);
      expect(detail).toMatch(/^The body is not valid JSON( \(at character \d+\))?$/);
    }
  });
});
