import { Module } from '@nestjs/common';
import request from 'supertest';
import { EntityService, FetchService, Workflow, WorkflowMethod } from '../src/atrium';
import { apiKeyUser, createTestApp } from './helpers/test-app';

// Mistakes in workflow declarations fail the boot with a message that names them. The
// classes are declared inside each test, so that one test's mistake is not the next's.

describe('workflow discovery at boot', () => {
  it('fails for two workflows with one name', async () => {
    @Workflow('billing')
    class Billing {}
    @Workflow('billing')
    class Invoicing2 {}
    @Module({ providers: [Billing, Invoicing2] })
    class Twice {}
    await expect(createTestApp({}, [Twice])).rejects.toThrow(
      'Two workflows are named "billing": Billing and Invoicing2',
    );
  });

  it('fails for two methods with one name', async () => {
    @Workflow('shipping')
    class Shipping {
      @WorkflowMethod({ name: 'send' })
      sendNow() {}
      @WorkflowMethod({ name: 'send' })
      sendLater() {}
    }
    @Module({ providers: [Shipping] })
    class Twice {}
    await expect(createTestApp({}, [Twice])).rejects.toThrow(
      'Workflow "shipping" has two methods named "send"',
    );
  });

  it('fails for an argument of an unknown type', async () => {
    @Workflow('pricing')
    class Pricing {
      @WorkflowMethod({ arguments: [{ name: 'price', type: 'money' as 'decimal' }] })
      quote() {}
    }
    @Module({ providers: [Pricing] })
    class Bad {}
    await expect(createTestApp({}, [Bad])).rejects.toThrow(
      'pricing.quote: argument "price" has type "money", not one of string, integer, decimal, datetime, boolean',
    );
  });

  it('fails for a requirement on an unknown entity type or action', async () => {
    @Workflow('audit')
    class Audit {
      @WorkflowMethod({ requires: { invoices: 'read' } })
      check() {}
    }
    @Module({ providers: [Audit] })
    class Typo {}
    await expect(createTestApp({}, [Typo])).rejects.toThrow(
      'audit.check requires invoices: no entity type has that name',
    );

    @Workflow('audit2')
    class Audit2 {
      @WorkflowMethod({ requires: { invoice: 'update' as 'write' } })
      check() {}
    }
    @Module({ providers: [Audit2] })
    class BadAction {}
    await expect(createTestApp({}, [BadAction])).rejects.toThrow(
      'audit2.check requires "update" on invoice, not one of create, read, write, delete',
    );
  });

  it('boots a workflow that injects the engine’s services, its module importing none', async () => {
    @Workflow('reports')
    class Reports {
      constructor(
        readonly entities: EntityService,
        readonly fetch: FetchService,
      ) {}

      @WorkflowMethod()
      wired() {
        return {
          entities: this.entities instanceof EntityService,
          fetch: this.fetch instanceof FetchService,
        };
      }
    }
    @Module({ providers: [Reports] })
    class ReportsModule {}
    const t = await createTestApp({}, [ReportsModule]);
    try {
      const { key } = await apiKeyUser(t);
      const { body } = await request(t.http)
        .post('/rest/workflow/reports/wired')
        .set('X-API-Key', key)
        .send({})
        .expect(200);
      expect(body).toEqual({ entities: true, fetch: true });
    } finally {
      await t.close();
    }
  });
});
