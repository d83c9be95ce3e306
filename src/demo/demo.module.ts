import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataModule } from '../data/data.module';
import { DirectoryModule } from '../directory/directory.module';
import { DemoSeedRepository } from './demo-seed.repository';
import { DemoSeedService } from './demo-seed.service';
import { DEMO_ENTITIES } from './entities';
import { AccountHooks } from './hooks/account.hooks';
import { InvoiceLineHooks } from './hooks/invoice-line.hooks';
import { InvoiceHooks } from './hooks/invoice.hooks';
import { InvoiceNumberRepository } from './invoice-number.repository';
import { InvoicingWorkflow } from './invoicing.workflow';

/** The demo domain of DESIGN.md: its entity types, rules, workflow and data set. */
@Module({
  imports: [TypeOrmModule.forFeature(DEMO_ENTITIES), DataModule, DirectoryModule],
  providers: [
    AccountHooks,
    InvoiceHooks,
    InvoiceLineHooks,
    InvoicingWorkflow,
    InvoiceNumberRepository,
    DemoSeedService,
    DemoSeedRepository,
  ],
})
export class DemoModule {}
