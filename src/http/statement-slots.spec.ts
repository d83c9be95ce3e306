import { ConfigService } from '@nestjs/config';
import { StatementSlots } from './statement-slots';

const slotsOf = (settings: Record<string, number>) =>
  new StatementSlots({ get: (name: string) => settings[name] } as unknown as ConfigService<
    never,
    true
  >);

/** Work that runs until the test lets it finish. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('StatementSlots', () => {
  const settings = { STATEMENTS_PER_USER: 2, DATABASE_POOL_SIZE: 4, DATABASE_POOL_RESERVED: 2 };

  it('refuses a third turn of one user at once with 429, and gives turns back', async () => {
    const slots = slotsOf(settings);
    const [a, b] = [held(), held()];
    const running = [slots.run(1, a.work), slots.run(1, b.work)];
    await expect(slots.run(1, async () => 'third')).rejects.toMatchObject({ status: 429 });
    a.finish();
    b.finish();
    await Promise.all(running);
    await expect(slots.run(1, async () => 'again')).resolves.toBe('again');
  });

  it('runs at most the pool less the reserve at once; the others wait in order', async () => {
    const slots = slotsOf(settings);
    const started: number[] = [];
    const works = [1, 2, 3, 4].map(() => held());
    const runs = works.map((w, user) =>
      slots.run(user, () => {
        started.push(user);
        return w.work();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    works[1].finish();
    await runs[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2, 3]);
    works[2].finish();
    works[3].finish();
    await Promise.all(runs);
  });

  it('gives the turn back when the work fails', async () => {
    const slots = slotsOf({ ...settings, DATABASE_POOL_SIZE: 1 });
    await expect(slots.run(1, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(slots.run(2, async () => 'next')).resolves.toBe('next');
  });
});
