import { PromiseCache } from './promise-cache';

describe('PromiseCache', () => {
  it('loads a name once and gives every caller the same promise', async () => {
    const cache = new PromiseCache<number>();
    const load = jest.fn(async () => 42);
    const [first, second] = [cache.get('a', load), cache.get('a', load)];
    expect(first).toBe(second);
    await expect(first).resolves.toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps names apart', async () => {
    const cache = new PromiseCache<string>();
    await expect(cache.get('a', async () => 'A')).resolves.toBe('A');
    await expect(cache.get('b', async () => 'B')).resolves.toBe('B');
  });

  it('forgets a rejected load, so the next call tries again', async () => {
    const cache = new PromiseCache<string>();
    await expect(cache.get('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(cache.get('a', async () => 'up')).resolves.toBe('up');
  });
});
