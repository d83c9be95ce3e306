import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PurchaseOrder, PurchaseOrderItem } from './purchase-order.entity';
import { PurchaseOrderHooks } from './purchase-order.hooks';
import { ShopWorkflow } from './shop.workflow';

// Add ShopModule to AppModule's imports (src/app.module.ts), then generate its migration:
// the entity API, FETCH and the migration tool find its types, hooks and workflows.
@Module({
  imports: [TypeOrmModule.forFeature([PurchaseOrder, PurchaseOrderItem])],
  providers: [PurchaseOrderHooks, ShopWorkflow],
})
export class ShopModule {}
