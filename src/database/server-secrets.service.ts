import { Injectable } from '@nestjs/common';
import { PromiseCache } from '../common/promise-cache';
import { newSecret } from '../common/secrets';
import { ServerSecretRepository } from './server-secret.repository';

/**
 * Named secrets kept in the database, made on first use, so that every instance on one
 * database signs and checks with the same key (a FETCH cursor made by one instance is
 * read by another) and a restart keeps them.
 */
@Injectable()
export class ServerSecrets {
  private readonly cache = new PromiseCache<Buffer>();

  constructor(private readonly secrets: ServerSecretRepository) {}

  get(name: string): Promise<Buffer> {
    return this.cache.get(name, async () =>
      Buffer.from(await this.secrets.claim(name, newSecret()), 'base64url'),
    );
  }
}
