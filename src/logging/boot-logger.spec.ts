import { Writable } from 'node:stream';
import pino from 'pino';
import { BootLogger, bootLogFormat, transportFor } from './boot-logger';

/** A pino logger at debug whose lines land in `lines`, parsed. */
function capturedPino() {
  const lines: { level: number; msg: string; context?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, pino: pino({ level: 'debug' }, sink) };
}

describe('bootLogFormat', () => {
  it('takes a valid LOG_FORMAT as given', () => {
    expect(bootLogFormat({ LOG_FORMAT: 'json' }, { isTTY: true })).toBe('json');
    expect(bootLogFormat({ LOG_FORMAT: 'pretty' }, { isTTY: false })).toBe('pretty');
  });

  it('falls back to the default for stdout when unset, empty or invalid', () => {
    expect(bootLogFormat({}, { isTTY: true })).toBe('pretty');
    expect(bootLogFormat({ LOG_FORMAT: '' }, { isTTY: true })).toBe('pretty');
    expect(bootLogFormat({ LOG_FORMAT: 'xml' }, { isTTY: false })).toBe('json');
    expect(bootLogFormat({}, {})).toBe('json');
  });
});

describe('transportFor', () => {
  it('writes JSON lines itself and leaves pretty lines to pino-pretty', () => {
    expect(transportFor('json')).toBeUndefined();
    expect(transportFor('pretty')).toMatchObject({ target: 'pino-pretty' });
  });
});

describe('BootLogger', () => {
  it("logs Nest's module and route lines at debug, its other lines at info", () => {
    const { lines, pino } = capturedPino();
    const logger = new BootLogger(pino);
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('HealthController {/health}:', 'RoutesResolver');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Starting Nest application...', 'NestFactory');
    expect(lines.map(({ level, context }) => [context, level])).toEqual([
      ['RouterExplorer', 20],
      ['RoutesResolver', 20],
      ['InstanceLoader', 20],
      ['NestFactory', 30],
    ]);
  });
});
