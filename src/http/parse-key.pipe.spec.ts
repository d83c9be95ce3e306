import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ParseKeyPipe } from './parse-key.pipe';

describe('ParseKeyPipe', () => {
  const pipe = new ParseKeyPipe();
  const parse = (value: string) => pipe.transform(value, { type: 'param', data: 'key' });

  it('reads a key as a number', () => {
    expect(parse('42')).toBe(42);
    expect(parse('0')).toBe(0);
    expect(parse('9007199254740991')).toBe(9007199254740991);
  });

  it('answers 400 for what is not a key at all', () => {
    for (const bad of ['abc', '-1', '1.5', '1e3', '', '01', '00', '007']) {
      expect(() => parse(bad)).toThrow(BadRequestException);
    }
  });

  it('answers 404 for a key no row can have', () => {
    expect(() => parse('99999999999999999999')).toThrow(NotFoundException);
  });
});
