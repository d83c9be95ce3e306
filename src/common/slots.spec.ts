import { Slots } from './slots';

describe('Slots', () => {
  it('runs at most its size at once, the others in the order they came', async () => {
    const slots = new Slots(2);
    const started: number[] = [];
    const ends: (() => void)[] = [];
    const tasks = [0, 1, 2, 3].map((n) =>
      slots.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => ends.push(resolve));
        return n;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    ends[1]();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    ends[0]();
    ends[2]();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    ends[3]();
    await expect(Promise.all(tasks)).resolves.toEqual([0, 1, 2, 3]);
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
