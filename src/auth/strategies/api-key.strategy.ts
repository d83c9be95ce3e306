import { Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { Identity } from '../../common/identity';
import { ApiKeyService } from '../api-key.service';

export const API_KEY_HEADER = 'X-API-Key';
export const API_KEY_QUERY = 'apiKey';

const INVALID_KEY = 'The API key is not valid (unknown, expired or revoked)';

type AuthenticatedRequest = Parameters<HeaderAPIKeyStrategy['authenticate']>[0];

/** Spec 5.2: the key in header `X-API-Key` or query parameter `apiKey`. */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly apiKeys: ApiKeyService) {
    super({ header: API_KEY_HEADER, prefix: '' }, false);
  }

  /**
   * passport-headerapikey reads headers only; a query key is handed to it as one.
   * Passport types the request as Express's; Fastify's has the same headers and query.
   */
  override authenticate(request: AuthenticatedRequest, options?: object): void {
    if (request.headers[API_KEY_HEADER.toLowerCase()]) return super.authenticate(request, options);
    // Only then the query: Express parses it anew at every read of request.query.
    const fromQuery = request.query?.[API_KEY_QUERY];
    if (typeof fromQuery === 'string') {
      const headers = { ...request.headers, [API_KEY_HEADER.toLowerCase()]: fromQuery };
      return super.authenticate({ ...request, headers } as AuthenticatedRequest, options);
    }
    return super.authenticate(request, options);
  }

  /** A key that is sent and refused says so, if no later strategy matches (the guard). */
  async validate(apiKey: string): Promise<Identity | [false, UnauthorizedException]> {
    return (await this.apiKeys.resolve(apiKey)) ?? [false, new UnauthorizedException(INVALID_KEY)];
  }
}
