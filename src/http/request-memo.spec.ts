import { execFileSync } from 'node:child_process';
import { RequestMemo } from './request-memo';

/**
 * Bytes that young-generation collections move to the old generation when 20,000
 * objects each get a value that refers back to them, kept in a WeakMap or in a slot, and
 * then nothing holds them.
 */
function promotedBytes(kind: 'weakmap' | 'slot'): number {
  const script = `
    const v8 = require('node:v8');
    const oldSpace = () =>
      v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
    const memo = new WeakMap();
    const slot = Symbol('memo');
    gc();
    const before = oldSpace();
    for (let i = 0; i < 20000; i++) {
      const key = { i };
      const value = { key, payload: [i, i + 1, i + 2, i + 3] };
      if ('${kind}' === 'weakmap') memo.set(key, value);
      else Object.defineProperty(key, slot, { value });
    }
    for (let i = 0; i < 3; i++) gc({ type: 'minor' });
    process.stdout.write(String(oldSpace() - before));
  `;
  // One GC thread: parallel scavenging moves a varying few objects more.
  const flags = ['--expose-gc', '--single-threaded-gc'];
  return Number(execFileSync(process.execPath, [...flags, '-e', script]).toString());
}

describe('RequestMemo', () => {
  it('keeps a value per object', () => {
    const memo = new RequestMemo<number>('test');
    const [a, b] = [{}, {}];
    expect(memo.set(a, 1)).toBe(1);
    expect(memo.get(a)).toBe(1);
    expect(memo.get(b)).toBeUndefined();
  });

  it('is not carried by a spread copy of the object', () => {
    const memo = new RequestMemo<string>('test');
    const original = { user: 1 };
    memo.set(original, 'kept');
    const copy = { ...original };
    expect(memo.get(copy)).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['user']);
  });

  it("is needed: V8's young-generation collections promote what a WeakMap holds", () => {
    const [weakMap, slot] = [promotedBytes('weakmap'), promotedBytes('slot')];
    expect(weakMap).toBeGreaterThan(1_000_000);
    expect(slot).toBeLessThan(weakMap / 4);
  });
});
