import { Column, Index, PrimaryColumn } from 'typeorm';
import { BusinessEntity, Label, Secured } from '../model/entity.decorators';

/**
 * One entry of the change log: a record written (created, updated, deleted, given to
 * another owner), a file's new version, or a security event (a sign-in, a key created).
 * Written by the engine inside the write's own transaction, never through the API;
 * readable with FETCH by administrators and by roles granted read on `change_log`.
 *
 * Partitioned by month on `date_created` (the migration builds the table; TypeORM knows
 * only its columns), so retention drops whole partitions. No foreign keys: an entry
 * outlives the record, the user and the unit it names. Indexed for a record's history
 * and for the access predicates, nothing more: every write pays for each index.
 */
@BusinessEntity('change_log', {
  write: 'nobody',
  privileges: 'named',
  audit: false,
  assignable: false,
  label: 'Change log',
})
@Index('IDX_change_log_root', ['rootEntity', 'rootKey', 'key'])
@Index('IDX_change_log_unit', ['idOrganization', 'idBusinessUnit'])
@Index('IDX_change_log_user', ['idOrganization', 'idUser'])
// The events' dispatcher reads the log by transaction (src/changes/change-feed.repository.ts).
@Index('IDX_change_log_transaction', ['transactionId'])
export class ChangeLogEntry {
  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'PK_change_log' })
  key: number;

  /** When the change was written: the time of the statement that logged it. */
  @PrimaryColumn({
    type: 'timestamptz',
    default: () => 'statement_timestamp()',
    primaryKeyConstraintName: 'PK_change_log',
  })
  @Label('Occurred at')
  dateCreated: Date;

  // The changed record's owner at the time: access rules apply to entries of deleted
  // records too. Empty for a failed sign-in under an unknown name.
  @Column({ type: 'bigint', nullable: true })
  idOrganization: number | null;

  @Column({ type: 'bigint', nullable: true })
  idBusinessUnit: number | null;

  @Column({ type: 'bigint', nullable: true })
  @Label('Owner')
  idUser: number | null;

  @Column({ type: 'varchar', length: 40 })
  operation: string;

  /** The entity type of the row written (or the subject of a security event). */
  @Column({ type: 'varchar', length: 63 })
  entity: string;

  @Column({ type: 'bigint', nullable: true })
  recordKey: number | null;

  /** The top-level record the row belongs to: itself, or the parent of a child row. */
  @Column({ type: 'varchar', length: 63 })
  rootEntity: string;

  @Column({ type: 'bigint', nullable: true })
  rootKey: number | null;

  /** For a child row: the entry of its parent row in the same write. */
  @Column({ type: 'bigint', nullable: true })
  idParentEntry: number | null;

  /** `{property: {old, new}}`; values of secured properties, so secured itself. */
  @Secured()
  @Column({ type: 'jsonb', default: () => "'{}'" })
  changes: Record<string, unknown>;

  /** What a security event adds: the address, the sign-in strategy, the key's name. */
  @Column({ type: 'jsonb', nullable: true })
  detail: Record<string, unknown> | null;

  /** The user who made the change: a key, not a lookup (no index to keep up on every write). */
  @Column({ type: 'bigint', nullable: true })
  @Label('Changed by')
  idActor: number | null;

  /** The user name at the time (or the one tried, for a failed sign-in). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actorName: string | null;

  /** How: `session`, `api-key <id>`, `oidc <provider>`, `cli`, `system`. */
  @Column({ type: 'varchar', length: 300 })
  via: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  requestId: string | null;

  /** PostgreSQL's transaction id: shared by every entry of one request's write. */
  @Column({ type: 'bigint' })
  transactionId: number;
}
