import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DemoSeedService } from './demo-seed.service';
import { DEMO_ENTITIES } from './entities';
import { AccountHooks } from './hooks/account.hooks';
import { InvoiceLineHooks } from './hooks/invoice-line.hooks';
import { InvoiceHooks } from './hooks/invoice.hooks';

/** The demo domain of DESIGN.md: its entity types, their rules and its data set. */
@Module({
  imports: [TypeOrmModule.forFeature(DEMO_ENTITIES)],
  providers: [AccountHooks, InvoiceHooks, InvoiceLineHooks, DemoSeedService],
})
export class DemoModule {}
