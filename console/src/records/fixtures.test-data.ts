import type { EntityTypeInfo } from '../api/entities';
import type { TypeIndex } from './record-values';

const system = (name: string, extra = {}) => ({
  name,
  label: name,
  type: 'bigint',
  system: true,
  ...extra,
});

/** The demo's invoice and its lines, as GET /rest/metadata/entity describes them. */
export const INVOICE: EntityTypeInfo = {
  name: 'invoice',
  label: 'Invoice',
  childGroups: [{ name: 'invoice_invoice_line', entity: 'invoice_line' }],
  properties: [
    system('key'),
    system('id_organization', { lookup: { entity: 'organization' } }),
    { name: 'number', label: 'Number', type: 'string', system: false, maxLength: 50 },
    {
      name: 'id_account',
      label: 'Account',
      type: 'bigint',
      system: false,
      required: true,
      lookup: { entity: 'account' },
    },
    {
      name: 'status',
      label: 'Status',
      type: 'string',
      system: false,
      enum: ['draft', 'issued'],
      default: 'draft',
    },
    { name: 'issue_date', label: 'Issued on', type: 'datetime', system: false },
    { name: 'total', label: 'Total', type: 'decimal', system: false, computed: true, scale: 2 },
  ],
};

export const LINE: EntityTypeInfo = {
  name: 'invoice_line',
  label: 'Invoice line',
  parent: 'invoice',
  properties: [
    system('key'),
    system('id_invoice', { lookup: { entity: 'invoice' } }),
    {
      name: 'id_product',
      label: 'Product',
      type: 'bigint',
      system: false,
      lookup: { entity: 'product' },
    },
    { name: 'description', label: 'Description', type: 'string', system: false, maxLength: 500 },
    { name: 'quantity', label: 'Quantity', type: 'integer', system: false, required: true },
    { name: 'unit_price', label: 'Unit price', type: 'decimal', system: false, scale: 2 },
    { name: 'amount', label: 'Amount', type: 'decimal', system: false, computed: true, scale: 2 },
  ],
};

export const TYPES: TypeIndex = new Map([
  [INVOICE.name, INVOICE],
  [LINE.name, LINE],
]);
