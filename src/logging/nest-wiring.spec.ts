import { LoggerService } from '@nestjs/common';
import { WiringAtDebugLogger } from './nest-wiring';

/** A logger recording which of its methods each line went to. */
function recordingLogger() {
  const calls: [string, ...unknown[]][] = [];
  const record =
    (method: string) =>
    (...args: unknown[]) =>
      calls.push([method, ...args]);
  const logger = {
    log: record('log'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  } satisfies LoggerService;
  return { calls, logger };
}

describe('WiringAtDebugLogger', () => {
  it("passes Nest's route and module lines on at debug", () => {
    const { calls, logger } = recordingLogger();
    const wrapped = new WiringAtDebugLogger(logger);
    wrapped.log('Mapped {/health, GET} route', 'RouterExplorer');
    wrapped.log('HealthController {/health}:', 'RoutesResolver');
    wrapped.log('AppModule dependencies initialized', 'InstanceLoader');
    expect(calls).toEqual([
      ['debug', 'Mapped {/health, GET} route', 'RouterExplorer'],
      ['debug', 'HealthController {/health}:', 'RoutesResolver'],
      ['debug', 'AppModule dependencies initialized', 'InstanceLoader'],
    ]);
  });

  it('passes every other line on as it came', () => {
    const { calls, logger } = recordingLogger();
    const wrapped = new WiringAtDebugLogger(logger);
    wrapped.log('Seeded demo data', 'DemoSeedService');
    wrapped.log('Atrium listening');
    wrapped.warn('Cannot listen', 'PostgresListener');
    wrapped.error('Failed', 'trace', 'TypeORM');
    wrapped.debug('Mapped', 'RouterExplorer');
    expect(calls).toEqual([
      ['log', 'Seeded demo data', 'DemoSeedService'],
      ['log', 'Atrium listening'],
      ['warn', 'Cannot listen', 'PostgresListener'],
      ['error', 'Failed', 'trace', 'TypeORM'],
      ['debug', 'Mapped', 'RouterExplorer'],
    ]);
  });
});
