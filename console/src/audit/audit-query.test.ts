import { describe, expect, it } from 'vitest';
import { auditQuery } from './audit-query';

describe('auditQuery', () => {
  it('lists every entry, newest first, without a filter', () => {
    expect(auditQuery({})).toBe(
      'FETCH change_log (key, date_created, operation, entity, record_key, root_entity, root_key, actor_name, via, detail) ORDER BY key DESC LIMIT 50',
    );
  });

  it('filters by type, operation, user and days, the text quoted', () => {
    expect(
      auditQuery({
        entity: 'invoice',
        operation: 'sign_in_failed',
        user: " o'brien ",
        from: '2026-11-01',
        to: '2026-11-26',
      }),
    ).toContain(
      "WHERE entity = 'invoice' AND operation = 'sign_in_failed' AND actor_name = 'o''brien'" +
        " AND date_created >= '2026-11-01T00:00:00Z' AND date_created <= '2026-11-26T23:59:59.999Z'",
    );
  });

  it('leaves out a day that is not one', () => {
    expect(auditQuery({ from: 'yesterday' })).not.toContain('WHERE');
  });
});
