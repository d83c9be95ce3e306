import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino, TransportSingleOptions } from 'pino';
import { defaultLogFormat, LOG_FORMATS, LOG_LEVELS, LogFormat } from '../config/environment';
import { contextOf, isWiringLine } from './nest-wiring';

/**
 * What pino-pretty shows of a line: its context before the message (a request's message is
 * its method, URL, status and time); not pid and host, the same on every line, nor the
 * request and response objects, a dozen lines each (LOG_FORMAT=json keeps them all).
 */
const PRETTY_OPTIONS = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,context,req,res,responseTime',
  messageFormat: '{if context}[{context}] {end}{msg}',
};

/** pino-pretty's coloured lines for LOG_FORMAT=pretty; JSON lines otherwise. */
export function transportFor(format: LogFormat): TransportSingleOptions | undefined {
  return format === 'pretty' ? { target: 'pino-pretty', options: PRETTY_OPTIONS } : undefined;
}

/** LOG_FORMAT as given when it is valid, the default otherwise (the validation says why). */
export function bootLogFormat(
  raw: NodeJS.ProcessEnv,
  stdout: { isTTY?: boolean } = process.stdout,
): LogFormat {
  return LOG_FORMATS.find((f) => f === raw.LOG_FORMAT) ?? defaultLogFormat(stdout);
}

/**
 * The log of a starting server, before the configuration is known to be valid: LOG_LEVEL
 * and LOG_FORMAT as given when they are valid, the defaults otherwise.
 */
export function bootLog(raw: NodeJS.ProcessEnv): Pino {
  const level = LOG_LEVELS.includes(raw.LOG_LEVEL ?? '') ? raw.LOG_LEVEL! : 'info';
  return pino({ level, transport: transportFor(bootLogFormat(raw)) });
}

/**
 * Text for people amid a logger's JSON lines, in their order: written to the same stream
 * as its lines (pino writes them asynchronously; another write to stdout could come first).
 */
export function writePlainLines(logger: Pino, lines: string[]): void {
  const stream = (logger as unknown as Record<symbol, NodeJS.WritableStream>)[
    pino.symbols.streamSym
  ];
  stream.write(`${lines.join('\n')}\n`);
}

/**
 * An error as one plain line: its message's first paragraph (Nest adds "Potential
 * solutions" after a blank line), whitespace collapsed.
 */
export function plainMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Nest's logger while the app is built: each line a pino line with its message only (a
 * stack at debug). The failure Nest's ExceptionHandler reports is left to main(), which
 * logs a failed start once, as one fatal line.
 */
export class BootLogger implements LoggerService {
  constructor(private readonly pino: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    const level = isWiringLine(params) ? 'debug' : 'info';
    this.pino[level]({ context: contextOf(params) }, String(message));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.pino.warn({ context: contextOf(params) }, String(message));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.pino.debug({ context: contextOf(params) }, String(message));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.pino.trace({ context: contextOf(params) }, String(message));
  }

  error(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    if (context === 'ExceptionHandler') return;
    const stack = params.find((p) => typeof p === 'string' && p.includes('\n    at '));
    if (stack) this.pino.debug({ context, stack }, plainMessage(message));
    this.pino.error({ context }, plainMessage(message));
  }
}
