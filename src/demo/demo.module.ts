import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { DemoSeedService } from './demo-seed.service';
import { DEMO_ENTITIES } from './entities';
import { AccountHooks } from './hooks/account.hooks';
import { InvoiceLineHooks } from './hooks/invoice-line.hooks';
import { InvoiceHooks } from './hooks/invoice.hooks';
import { InvoicingWorkflow } from './invoicing.workflow';

/** The demo domain of DESIGN.md: its entity types, rules, workflow and data set. */
@Module({
  imports: [TypeOrmModule.forFeature(DEMO_ENTITIES), AuthModule],
  providers: [AccountHooks, InvoiceHooks, InvoiceLineHooks, DemoSeedService, InvoicingWorkflow],
})
export class DemoModule {}
