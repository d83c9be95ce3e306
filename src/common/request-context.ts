import { Injectable, UnauthorizedException } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Identity } from './identity';

interface RequestStore {
  identity?: Identity;
  /** The workflow method (`name.method`) whose work is running. */
  workflow?: string;
  /** What is worked out once per request (RequestContext.once). */
  once?: Map<symbol, unknown>;
}

/** One store per request (or per `runAs`), following it through every await. */
const storage = new AsyncLocalStorage<RequestStore>();

/**
 * The current request's identity, readable by any service without passing it by hand.
 * Node's AsyncLocalStorage directly: nestjs-cls, which wraps the same thing, adds a
 * global guard and interceptor to every route even when they do nothing, and Nest's
 * interceptor chain costs each request more than the rest of this context.
 */
@Injectable()
export class RequestContext {
  get identity(): Identity | undefined {
    return storage.getStore()?.identity;
  }

  requireIdentity(): Identity {
    const identity = this.identity;
    if (!identity) throw new UnauthorizedException('Authentication required');
    return identity;
  }

  setIdentity(identity: Identity | undefined): void {
    const store = storage.getStore();
    if (!store) throw new Error('RequestContext.setIdentity outside a request or runAs');
    store.identity = identity;
  }

  /**
   * `load()`'s value, worked out once per request (each call inside the same request gets
   * the first one's); outside a request, every call loads.
   */
  once<T>(key: symbol, load: () => T): T {
    const store = storage.getStore();
    if (!store) return load();
    store.once ??= new Map();
    if (!store.once.has(key)) store.once.set(key, load());
    return store.once.get(key) as T;
  }

  /** The workflow method running now, if any: hooks can tell its writes from direct ones. */
  get workflow(): string | undefined {
    return storage.getStore()?.workflow;
  }

  /** Runs a workflow method's work, so that what it calls knows it runs inside it. */
  runWorkflow<T>(workflow: string, work: () => Promise<T>): Promise<T> {
    return storage.run({ ...storage.getStore(), workflow }, work);
  }

  /** Runs work outside any request (boot, CLI) as the given identity. */
  runAs<T>(identity: Identity, work: () => Promise<T>): Promise<T> {
    return storage.run({ identity }, work);
  }
}

/**
 * Opens the request's store before the request reaches Nest: a Fastify onRequest hook or
 * an Express middleware (src/http/), the same function for both.
 */
export function openRequestContext(_request: unknown, _reply: unknown, done: () => void): void {
  storage.run({}, done);
}
