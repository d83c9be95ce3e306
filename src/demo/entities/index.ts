import { Account } from './account.entity';
import { Contact } from './contact.entity';
import { Invoice } from './invoice.entity';
import { InvoiceLine } from './invoice-line.entity';
import { Product } from './product.entity';

export { Account, Contact, Invoice, InvoiceLine, Product };
export const DEMO_ENTITIES = [Account, Contact, Product, Invoice, InvoiceLine];
