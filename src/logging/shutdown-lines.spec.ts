import { stoppedLine, stoppingLine } from './shutdown-lines';

describe('the lines of a shutdown', () => {
  it('say what the server lets finish, if anything', () => {
    expect(stoppingLine('SIGINT', { requests: 2, jobs: 1 })).toBe(
      'Stopping (SIGINT): letting 2 requests and 1 job finish…',
    );
    expect(stoppingLine('SIGTERM', { requests: 0, jobs: 3 })).toBe(
      'Stopping (SIGTERM): letting 3 jobs finish…',
    );
    expect(stoppingLine('SIGTERM', { requests: 0, jobs: 0 })).toBe('Stopping (SIGTERM)…');
  });

  it('say what finished, what was cut off and whether the embedded database stopped', () => {
    const stop = { ms: 230, cutOff: 0, limitSeconds: 10, databaseStopped: true };
    expect(stoppedLine({ ...stop, finished: { requests: 1, jobs: 0 } })).toBe(
      'Stopped in 230 ms: 1 request finished; the embedded database stopped',
    );
    expect(
      stoppedLine({
        ...stop,
        finished: { requests: 0, jobs: 0 },
        cutOff: 2,
        databaseStopped: false,
      }),
    ).toBe('Stopped in 230 ms: 2 requests cut off at the 10 s limit');
    expect(
      stoppedLine({ ...stop, finished: { requests: 0, jobs: 0 }, databaseStopped: false }),
    ).toBe('Stopped in 230 ms');
  });
});
