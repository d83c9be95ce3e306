import { pgJson, pgJsonSafe } from './pg-json';

describe('pgJson', () => {
  it('is JSON.stringify for text that has neither escape', () => {
    const value = { name: 'Ana 😀', path: 'C:\\u0000dir', quote: '"', tab: '\t' };
    expect(pgJson(value)).toBe(JSON.stringify(value));
  });

  it('writes U+0000 and lone surrogates as U+FFFD, and keeps pairs and escaped backslashes', () => {
    const value = { user: 'a\ud800b', low: '\udfff', nul: 'x\u0000y', pair: '😀', raw: '\\ud800' };
    expect(JSON.parse(pgJson(value))).toEqual({
      user: 'a\ufffdb',
      low: '\ufffd',
      nul: 'x\ufffdy',
      pair: '😀',
      raw: '\\ud800',
    });
  });

  it('reads member names as it reads values', () => {
    expect(JSON.parse(pgJson({ ['k\ud83d']: 1 }))).toEqual({ ['k\ufffd']: 1 });
  });

  describe('pgJsonSafe', () => {
    it('is the value itself when its JSON is storable', () => {
      const value = { text: 'plain 😀' };
      expect(pgJsonSafe(value)).toBe(value);
    });

    it('is a copy with U+FFFD where its JSON is not', () => {
      expect(pgJsonSafe({ text: 'a\u0000b\ud800' })).toEqual({ text: 'a\ufffdb\ufffd' });
    });
  });
});
