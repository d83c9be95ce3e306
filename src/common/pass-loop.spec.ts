import { PassLoop } from './pass-loop';

/** Lets the loop's promises settle (its work here resolves or rejects at once). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** Turns of the event loop until `condition` holds (the gap's timer of 0 ms among them). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !condition(); turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

describe('PassLoop', () => {
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000_000;
  });

  it('runs once more after the run under way, for every wake that came meanwhile', async () => {
    let runs = 0;
    let finish!: () => void;
    const loop = new PassLoop(
      () => {
        runs++;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      { gapMs: 0, firstBackoffMs: 1000, maxBackoffMs: 60_000, onFailure: () => {}, now },
    );
    loop.wake();
    loop.wake();
    loop.wake();
    expect(runs).toBe(1);
    finish();
    await until(() => runs === 2);
    expect(runs).toBe(2);
    finish();
    await loop.stop();
    expect(runs).toBe(2);
  });

  it('reports a persistent failure once per backoff step, the waits doubling up to the most', async () => {
    let runs = 0;
    const reports: number[] = [];
    const loop = new PassLoop(
      () => {
        runs++;
        return Promise.reject(new Error('the database is gone'));
      },
      {
        gapMs: 0,
        firstBackoffMs: 1000,
        maxBackoffMs: 4000,
        onFailure: (_error, waitMs) => reports.push(waitMs),
        now,
      },
    );
    // Polls every 100 ms for 20 s of the clock: each step's wait passes before a run.
    for (let t = 0; t < 200; t++) {
      loop.wake();
      await settled();
      clock += 100;
    }
    expect(reports.slice(0, 5)).toEqual([1000, 2000, 4000, 4000, 4000]);
    expect(runs).toBe(reports.length);
    // 20 s: 1 + 2 + 4 + 4 + 4 + 4 = 19 s of waits, each ended by the next poll.
    expect(runs).toBe(7);
  });

  it('starts the backoff afresh after a run that succeeds', async () => {
    let failing = true;
    const reports: number[] = [];
    const loop = new PassLoop(
      () => (failing ? Promise.reject(new Error('down')) : Promise.resolve()),
      {
        gapMs: 0,
        firstBackoffMs: 1000,
        maxBackoffMs: 60_000,
        onFailure: (_error, waitMs) => reports.push(waitMs),
        now,
      },
    );
    loop.wake();
    await settled();
    clock += 1000;
    loop.wake();
    await settled();
    expect(reports).toEqual([1000, 2000]);
    clock += 2000;
    failing = false;
    loop.wake();
    await settled();
    failing = true;
    loop.wake();
    await settled();
    expect(reports).toEqual([1000, 2000, 1000]);
  });
});
