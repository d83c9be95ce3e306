import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { User } from '../../directory/entities/user.entity';

/**
 * A cookie session. Only hashes of the tokens are stored, so a database leak does not
 * hand out live sessions. `previousTokenHash` keeps the token before the last rotation
 * valid for a short grace period, for requests already in flight.
 */
@Entity('session')
export class Session {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  key: number;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash: string;

  @Index({ where: 'previous_token_hash IS NOT NULL' })
  @Column({ type: 'varchar', length: 64, nullable: true })
  previousTokenHash: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  previousValidUntil: Date | null;

  @Column({ type: 'varchar', length: 64 })
  csrfToken: string;

  @Index()
  @Column({ type: 'bigint' })
  idUser: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_user' })
  user?: User;

  @Column({ type: 'varchar', length: 20 })
  authMethod: string;

  @Column({ type: 'varchar', length: 10 })
  locale: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  rotatedAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;

  /** Absolute expiry; the idle expiry is `lastSeenAt` + the configured idle time. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** An OpenID sign-in: the provider whose access token the session stands on. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  oidcProvider: string | null;

  /** When that access token expires: refreshed then with the refresh token, else the end. */
  @Column({ type: 'timestamptz', nullable: true })
  accessExpiresAt: Date | null;

  /** The provider's refresh token, sealed (AES-GCM with a server secret). */
  @Column({ type: 'text', nullable: true })
  refreshToken: string | null;
}
