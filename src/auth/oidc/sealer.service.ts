import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ServerSecrets } from '../../database/server-secrets.service';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Values the server hands out and must get back unread and unchanged (an OAuth state, a
 * refresh token kept in a cookie): AES-256-GCM under a secret per purpose, shared by the
 * instances through the database. `open` answers undefined for anything it did not seal.
 */
@Injectable()
export class Sealer {
  constructor(private readonly secrets: ServerSecrets) {}

  async seal(purpose: string, value: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.key(purpose), iv);
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  async open(purpose: string, sealed: string): Promise<string | undefined> {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64url') !== sealed) {
      return undefined;
    }
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        await this.key(purpose),
        bytes.subarray(0, IV_BYTES),
      );
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const body = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined; // tampered, or sealed with another key
    }
  }

  private key(purpose: string): Promise<Buffer> {
    return this.secrets.get(`seal:${purpose}`);
  }
}
