import { Injectable, UnauthorizedException } from '@nestjs/common';
import { ClsService, ClsStore } from 'nestjs-cls';
import { Identity } from './identity';

interface RequestStore extends ClsStore {
  identity?: Identity;
}

/**
 * The current request's identity, readable by any service without passing it by hand.
 * Backed by nestjs-cls (AsyncLocalStorage), so it follows the request through awaits.
 */
@Injectable()
export class RequestContext {
  constructor(private readonly cls: ClsService<RequestStore>) {}

  get identity(): Identity | undefined {
    return this.cls.isActive() ? this.cls.get('identity') : undefined;
  }

  requireIdentity(): Identity {
    const identity = this.identity;
    if (!identity) throw new UnauthorizedException('Authentication required');
    return identity;
  }

  setIdentity(identity: Identity | undefined): void {
    this.cls.set('identity', identity);
  }

  /** Runs work outside any request (boot, CLI) as the given identity. */
  runAs<T>(identity: Identity, work: () => Promise<T>): Promise<T> {
    return this.cls.run(() => {
      this.setIdentity(identity);
      return work();
    });
  }
}
