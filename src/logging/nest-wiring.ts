import { LoggerService } from '@nestjs/common';

/**
 * Nest's account of wiring the app: a line per module (InstanceLoader) and per route
 * (RoutesResolver, RouterExplorer), some 65 on every start, which bury the few lines a
 * person needs. At debug they are there for when a route seems missing.
 */
const WIRING_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest passes the context last. */
export function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' && !last.includes('\n') ? last : undefined;
}

/** Whether a line Nest logs at info, given its parameters, is about wiring the app. */
export function isWiringLine(params: unknown[]): boolean {
  return WIRING_CONTEXTS.has(contextOf(params) ?? '');
}

type CompleteLogger = Required<Omit<LoggerService, 'setLogLevels'>>;

/** Nest's logger (nestjs-pino's) with Nest's wiring lines at debug instead of info. */
export class WiringAtDebugLogger implements LoggerService {
  constructor(private readonly logger: CompleteLogger) {}

  log(message: unknown, ...params: unknown[]): void {
    if (isWiringLine(params)) this.logger.debug(message, ...params);
    else this.logger.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.logger.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.logger.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.logger.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.logger.verbose(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.logger.fatal(message, ...params);
  }
}
