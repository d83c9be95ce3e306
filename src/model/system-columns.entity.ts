import {
  Column,
  CreateDateColumn,
  Generated,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * The system columns every business table carries (spec 2.2, DESIGN.md "Data model").
 * The owner references are deferred so an organization, its first business unit and its
 * first user can be created in one transaction, each owned by the others. The owner
 * columns are indexed in the order the access predicates name them (access.scope.ts).
 */
@Index(['idOrganization', 'idBusinessUnit'])
@Index(['idOrganization', 'idUser'])
export abstract class SystemColumns {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  key: number;

  @Column({ type: 'bigint' })
  idOrganization: number;

  @ManyToOne('Organization', { deferrable: 'INITIALLY DEFERRED', onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_organization' })
  organization?: unknown;

  @Column({ type: 'bigint' })
  idBusinessUnit: number;

  @ManyToOne('BusinessUnit', { deferrable: 'INITIALLY DEFERRED' })
  @JoinColumn({ name: 'id_business_unit' })
  businessUnit?: unknown;

  @Column({ type: 'bigint' })
  idUser: number;

  @ManyToOne('User', { deferrable: 'INITIALLY DEFERRED' })
  @JoinColumn({ name: 'id_user' })
  user?: unknown;

  // Generated, not `default: () => 'gen_random_uuid()'`: TypeORM reads that default back
  // as a generated uuid, and every migration it generated dropped and set it again.
  @Column({ type: 'uuid' })
  @Generated('uuid')
  uuid: string;

  @CreateDateColumn({ type: 'timestamptz' })
  dateCreated: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  dateUpdated: Date;

  @Column({ type: 'integer', default: 0 })
  extended: number;
}
