import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../../database/generate-sql';
import { Sql } from '../../database/sql.service';

/** What the callback of an authorization-code login needs and the browser must not hold. */
export interface OauthLoginSecrets {
  codeVerifier: string;
  nonce: string;
}

/** The SQL of `oauth_login`: a login under way, consumed by its callback. */
@Injectable()
export class OauthLoginRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({
    params: [
      '00000000-0000-4000-8000-000000000000',
      'idp',
      { codeVerifier: 'verifier', nonce: 'nonce' },
      'https://app.example/signed-in',
      10,
    ],
  })
  async insert(
    id: string,
    provider: string,
    secrets: OauthLoginSecrets,
    redirectUrl: string,
    minutes: number,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_login (id, provider, code_verifier, nonce, redirect_url, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6))`,
      [id, provider, secrets.codeVerifier, secrets.nonce, redirectUrl, minutes],
    );
  }

  /** The login's secrets, once: the row goes with them. Undefined when used or expired. */
  @GenerateSql({ params: ['00000000-0000-4000-8000-000000000000'] })
  async consume(id: string): Promise<OauthLoginSecrets | undefined> {
    const { rows } = await this.sql.changed<OauthLoginSecrets>(
      `DELETE FROM oauth_login WHERE id = $1 AND expires_at > now()
       RETURNING code_verifier AS "codeVerifier", nonce`,
      [id],
    );
    return rows[0];
  }
}
