import { Workflow, WorkflowContext, WorkflowError, WorkflowMethod } from '../../src/atrium';

@Workflow('shop')
export class ShopWorkflow {
  // TypeScript erases parameter names: the declaration names the arguments, in order.
  @WorkflowMethod({
    arguments: [{ name: 'orderKey', type: 'integer' }],
    requires: { purchase_order: 'write' }, // 403 unless the caller's roles grant it
  })
  async close(orderKey: number, { data }: WorkflowContext) {
    // As the caller, in the method's transaction: 404 when it may not read the order.
    const order = await data.read('purchase_order', orderKey);
    if (order.properties.closed) throw new WorkflowError(409, `order ${orderKey} is closed`);
    // Through the entity engine: hooks run, and a failing one is the 424 record.
    await data.update('purchase_order', orderKey, { properties: { closed: true } });
    const { rows } = await data.fetch(
      `FETCH purchase_order (COUNT(*) AS open) WHERE closed = false`,
    );
    return { closed: orderKey, stillOpen: rows[0].open };
  }
}
