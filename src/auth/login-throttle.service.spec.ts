import type { ConfigService } from '@nestjs/config';
import type { Environment } from '../config/environment';
import type { LoginLimitRepository } from './login-limit.repository';
import { LoginThrottleService } from './login-throttle.service';

describe('LoginThrottleService sweep', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('drops counters expired an hour ago every five minutes, and no more once the app stops', () => {
    const sweep = jest.fn().mockResolvedValue(undefined);
    const limiter = jest.fn().mockReturnValue({});
    const limits = { sweep, limiter } as unknown as LoginLimitRepository;
    const config = { get: () => 1 } as unknown as ConfigService<Environment, true>;
    const service = new LoginThrottleService(config, limits);
    // The library's own sweep (a timer nothing stops) is never asked for.
    for (const [options] of limiter.mock.calls) {
      expect(options).not.toHaveProperty('clearExpiredByTimeout');
    }

    service.onApplicationBootstrap();
    jest.advanceTimersByTime(5 * 60_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    expect(sweep).toHaveBeenCalledWith(Date.now() - 3_600_000);

    service.onApplicationShutdown();
    jest.advanceTimersByTime(60 * 60_000);
    expect(sweep).toHaveBeenCalledTimes(1);
  });
});
