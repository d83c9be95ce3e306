import { Column } from 'typeorm';
import { BusinessEntity, Computed, Label } from '../../model/entity.decorators';
import { SystemColumns } from '../../model/system-columns.entity';

/**
 * A webhook: the events of the organization sent to a URL, signed with a secret the server
 * keeps (it must sign with it, so it is stored as is, and never read through any API).
 * Administrators make and change them; roles granted read on `webhook` by name may read
 * them. Its owner is whose access the payloads are cut to.
 */
@BusinessEntity('webhook', {
  write: 'admin',
  privileges: 'named',
  assignable: false,
  createdBy: 'POST /rest/webhooks',
})
export class Webhook extends SystemColumns {
  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** http(s) only; refused when it resolves to a private address (webhook-addresses.ts). */
  @Column({ type: 'varchar', length: 2000 })
  @Label('URL')
  url: string;

  /** `invoice.created, invoice.updated`: entity types and operations, written canonically. */
  @Column({ type: 'varchar', length: 2000 })
  events: string;

  /** A FETCH condition the record must meet after the change, `status = 'paid'`. */
  @Column({ type: 'varchar', length: 2000, nullable: true })
  condition: string | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** Why the server turned it off (a run of failed attempts); cleared when it is turned on. */
  @Computed()
  @Column({ type: 'varchar', length: 1000, nullable: true })
  @Label('Disabled because')
  disabledReason: string | null;

  /** `whsec_…` (Standard Webhooks): shown once, by POST /rest/webhooks and …/secret. */
  @Computed()
  @Column({ type: 'varchar', length: 100, select: false })
  secret: string;

  /** Attempts failed in a row, across deliveries: reaching WEBHOOK_DISABLE_AFTER turns it off. */
  @Computed()
  @Column({ type: 'integer', default: 0, select: false })
  failuresInRow: number;
}
