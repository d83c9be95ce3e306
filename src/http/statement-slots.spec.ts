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

const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Named works run as given users' turns: the order they started in, each held until finished. */
function named(slots: StatementSlots) {
  const started: string[] = [];
  const works = new Map<string, ReturnType<typeof held>>();
  const run = (user: number, name: string) => {
    const w = held();
    works.set(name, w);
    return slots.run(user, () => {
      started.push(name);
      return w.work();
    });
  };
  return { started, works, run };
}

describe('StatementSlots', () => {
  const settings = {
    STATEMENTS_PER_USER: 2,
    DATABASE_POOL_SIZE: 4,
    DATABASE_POOL_RESERVED: 2,
    STATEMENT_WAIT_MS: 60_000,
    STATEMENTS_QUEUED_PER_USER: 8,
  };

  afterEach(() => jest.useRealTimers());

  it("holds a user's third turn until one of their two ends, then runs it", async () => {
    const slots = slotsOf({ ...settings, DATABASE_POOL_SIZE: 10 });
    const [a, b] = [held(), held()];
    const running = [slots.run(1, a.work), slots.run(1, b.work)];
    let third = false;
    const waiting = slots.run(1, async () => (third = true));
    await settled();
    expect(third).toBe(false);
    a.finish();
    await expect(waiting).resolves.toBe(true);
    b.finish();
    await Promise.all(running);
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
    await settled();
    expect(started).toEqual([0, 1]);
    works[1].finish();
    await runs[1];
    await settled();
    expect(started).toEqual([0, 1, 2]);
    works[0].finish();
    await runs[0];
    await settled();
    expect(started).toEqual([0, 1, 2, 3]);
    works[2].finish();
    works[3].finish();
    await Promise.all(runs);
  });

  it("hands free turns out in rotation: another user's first before one user's tenth", async () => {
    const slots = slotsOf({ ...settings, STATEMENTS_PER_USER: 10, STATEMENTS_QUEUED_PER_USER: 20 });
    const { started, works, run } = named(slots);
    // User 1 takes both turns and queues eight more; then user 2 and user 3 ask for one each.
    const runs = Array.from({ length: 10 }, (_, i) => run(1, `1.${i}`));
    runs.push(run(2, '2.0'), run(3, '3.0'), run(2, '2.1'));
    await settled();
    expect(started).toEqual(['1.0', '1.1']);
    for (const name of ['1.0', '1.1', '1.2', '2.0', '3.0']) {
      works.get(name)!.finish();
      await settled();
    }
    // With three users active, each has one of the two turns at a time: user 1's third
    // waits for the others' first, and its fourth for user 2's second.
    expect(started).toEqual(['1.0', '1.1', '2.0', '3.0', '1.2', '2.1', '1.3']);
    // The rest, each done as soon as it starts.
    for (const w of works.values()) w.finish();
    await Promise.all(runs);
  });

  it('shares the turns among the users active in the last second, not below one each', async () => {
    jest.useFakeTimers();
    // Three turns (the pool of 5 less 2), STATEMENTS_PER_USER 2.
    const slots = slotsOf({ ...settings, DATABASE_POOL_SIZE: 5, STATEMENTS_QUEUED_PER_USER: 20 });
    const { started, works, run } = named(slots);
    const step = async (finished?: string) => {
      if (finished) works.get(finished)!.finish();
      await jest.advanceTimersByTimeAsync(0);
    };
    // Alone, user 1 runs STATEMENTS_PER_USER of its five at once.
    const runs = ['1.0', '1.1', '1.2', '1.3', '1.4'].map((name) => run(1, name));
    await step();
    expect(started).toEqual(['1.0', '1.1']);
    // User 2 comes: its query starts at once, and user 1's share is now one of three.
    runs.push(run(2, '2.0'));
    await step();
    expect(started).toEqual(['1.0', '1.1', '2.0']);
    await step('2.0');
    await step('1.0');
    expect(started).toEqual(['1.0', '1.1', '2.0']); // user 2 active within the second
    await step('1.1');
    expect(started).toEqual(['1.0', '1.1', '2.0', '1.2']);
    // A second without user 2: user 1's share is two again.
    await jest.advanceTimersByTimeAsync(1000);
    await step('1.2');
    expect(started).toEqual(['1.0', '1.1', '2.0', '1.2', '1.3', '1.4']);
    for (const w of works.values()) w.finish();
    await Promise.all(runs);
  });

  it('answers 429 with Retry-After when no turn came within STATEMENT_WAIT_MS, and forgets the wait', async () => {
    jest.useFakeTimers();
    const slots = slotsOf({ ...settings, STATEMENT_WAIT_MS: 5000 });
    const [a, b] = [held(), held()];
    const running = [slots.run(1, a.work), slots.run(1, b.work)];
    let ran = false;
    let settledAt: number | undefined;
    const waiting = slots.run(1, async () => (ran = true));
    void waiting.catch(() => undefined).finally(() => (settledAt = Date.now()));
    const started = Date.now();
    await jest.advanceTimersByTimeAsync(4999);
    expect(settledAt).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    await expect(waiting).rejects.toMatchObject({
      status: 429,
      headers: { 'Retry-After': '1' },
      response: { detail: expect.stringMatching(/waited 5000 ms for a turn/) },
    });
    expect(settledAt! - started).toBe(5000);
    a.finish();
    b.finish();
    await Promise.all(running);
    expect(ran).toBe(false);
    // Every turn came back: two run at once again (the pool less the reserve), not fewer.
    const [c, d] = [held(), held()];
    let startedNow = 0;
    const again = [c, d].map((w, user) =>
      slots.run(10 + user, () => {
        startedNow++;
        return w.work();
      }),
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(startedNow).toBe(2);
    c.finish();
    d.finish();
    await Promise.all(again);
  });

  it("refuses at once when STATEMENTS_QUEUED_PER_USER of the user's are waiting", async () => {
    const slots = slotsOf({ ...settings, DATABASE_POOL_SIZE: 10, STATEMENTS_QUEUED_PER_USER: 1 });
    const works = [held(), held(), held()];
    const runs = works.map((w) => slots.run(1, w.work));
    await expect(slots.run(1, async () => 'fourth')).rejects.toMatchObject({
      status: 429,
      response: { detail: expect.stringMatching(/2 queries or workflows running and 1 waiting/) },
    });
    // Another user is not held to the first one's queue.
    await expect(slots.run(2, async () => 'other')).resolves.toBe('other');
    for (const w of works) w.finish();
    await Promise.all(runs);
  });

  it('gives the turn back when the work fails', async () => {
    const slots = slotsOf({ ...settings, DATABASE_POOL_SIZE: 1 });
    await expect(slots.run(1, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    await expect(slots.run(2, async () => 'next')).resolves.toBe('next');
  });
});
