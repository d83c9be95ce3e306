import { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { AbstractHttpAdapter } from '@nestjs/core';
import helmet from 'helmet';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { BYTE_SIZE, Environment } from '../config/environment';

/**
 * What differs between Express and Fastify, and nothing else: the adapter with its
 * options, and what runs before Nest's routing (request ids, security headers, body
 * parsers and their limits). Everything after is the same app.
 */
export interface HttpPlatform {
  createAdapter(env: Environment): AbstractHttpAdapter;
  /** What NestFactory.create needs besides (Express: the parsers are configure's). */
  readonly appOptions: NestApplicationOptions;
  configure(app: INestApplication, env: Environment): void;
  /** Resolves once the routes answer, for an app initialised without `listen`. */
  ready?(app: INestApplication): Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Echoes a sane incoming X-Request-Id, else makes one; logs and 500 bodies carry it. */
export function requestId(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
  // pino-http's middleware sees Node's request: it reads the same id from it.
  (request as IncomingMessage & { id?: string }).id = id;
  return id;
}

/**
 * helmet's headers, taken once at boot: with its defaults they depend on nothing in the
 * request. Per request, @fastify/helmet built a new helmet and then set each header on
 * the raw response, a sixth of a small request's cost (docs/decisions.md).
 */
export function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name] = value),
    removeHeader: (name: string) => delete headers[name],
  };
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  });
  return headers;
}

const BYTES_PER_UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 * 1024 };

/** BODY_LIMIT in bytes (its format checked by the environment). */
export function bytesOf(limit: string): number {
  const [, amount, unit] = BYTE_SIZE.exec(limit)!;
  return Math.floor(Number(amount) * BYTES_PER_UNIT[unit.toLowerCase()]);
}

/** TRUST_PROXY as both platforms take it (proxy-addr's: true, or addresses/subnets). */
export function trustProxyOf(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  return value === 'true' ? true : value;
}
