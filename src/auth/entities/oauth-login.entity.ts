import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An authorization-code login under way: what the callback needs and must not trust the
 * browser with (the PKCE verifier, the nonce). The callback consumes the row, so a
 * `state` works once.
 */
@Entity('oauth_login')
export class OauthLogin {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  provider: string;

  @Column({ type: 'varchar', length: 128 })
  codeVerifier: string;

  @Column({ type: 'varchar', length: 128 })
  nonce: string;

  @Column({ type: 'varchar', length: 2000 })
  redirectUrl: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
