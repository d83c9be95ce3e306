/**
 * The demo data set, generated from a fixed seed so every fresh database holds the same
 * believable rows: about 20 accounts, 60 contacts, 30 products and 300 invoices with 1–10
 * lines, spread over the two years before `now`.
 */
export interface DemoData {
  accounts: Record<string, unknown>[];
  contacts: (Record<string, unknown> & { account: number })[];
  products: Record<string, unknown>[];
  invoices: DemoInvoice[];
}

export interface DemoInvoice {
  account: number;
  createdAt: string;
  properties: Record<string, unknown>;
  lines: (Record<string, unknown> & { product: number })[];
}

const COMPANIES = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Wonka',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Hooli',
  'Vandelay',
  'Pied Piper',
  'Dunder Mifflin',
  'Gringotts',
  'Monarch',
  'Oscorp',
  'Aperture',
  'Black Mesa',
  'Massive Dynamic',
];
const COUNTRIES = ['RO', 'DE', 'FR', 'IT', 'ES', 'NL', 'GB', 'US'];
const FIRST_NAMES = [
  'Ana',
  'Mihai',
  'Elena',
  'Andrei',
  'Ioana',
  'Radu',
  'Maria',
  'Dan',
  'Irina',
  'Paul',
];
const LAST_NAMES = ['Popescu', 'Ionescu', 'Stan', 'Dumitru', 'Marin', 'Georgescu', 'Tudor', 'Rusu'];
const PRODUCTS = [
  'Widget',
  'Gadget',
  'Sprocket',
  'Gizmo',
  'Doohickey',
  'Flange',
  'Valve',
  'Bracket',
  'Hinge',
  'Coupler',
];
const SIZES = ['S', 'M', 'L'];
const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;

export function generateDemoData(now: Date): DemoData {
  const random = mulberry32(20260101);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

  const accounts = COMPANIES.map((company, i) => ({
    name: `${company} ${i % 3 === 0 ? 'SRL' : i % 3 === 1 ? 'GmbH' : 'Ltd'}`,
    email: `office@${company.toLowerCase().replace(/\s+/g, '')}.example`,
    country: pick(COUNTRIES),
    credit_limit: `${between(5, 200) * 1000}.00`,
  }));
  const contacts = Array.from({ length: 60 }, (_, i) => {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    return {
      first_name: first,
      last_name: last,
      email: `${first}.${last}${i}@mail.example`.toLowerCase(),
      account: i % accounts.length,
    };
  });
  const products = Array.from({ length: 30 }, (_, i) => ({
    code: `P-${String(i + 1).padStart(3, '0')}`,
    name: `${PRODUCTS[i % PRODUCTS.length]} ${SIZES[Math.floor(i / PRODUCTS.length)]}`,
    price: `${between(2, 500)}.${String(between(0, 99)).padStart(2, '0')}`,
    active: i % 10 !== 9,
  }));
  const invoices = Array.from({ length: 300 }, (_, i): DemoInvoice => {
    const issued = new Date(now.getTime() - Math.floor(random() * TWO_YEARS_MS));
    const age = now.getTime() - issued.getTime();
    const status =
      age < 14 * 86400000
        ? pick(['draft', 'issued'])
        : pick(['issued', 'paid', 'paid', 'paid', 'cancelled']);
    return {
      account: between(0, accounts.length - 1),
      createdAt: issued.toISOString(),
      properties: {
        number:
          status === 'draft'
            ? null
            : `INV-${issued.getUTCFullYear()}-${String(i + 1).padStart(4, '0')}`,
        status,
        issue_date: status === 'draft' ? null : issued.toISOString(),
        currency: 'EUR',
      },
      lines: Array.from({ length: between(1, 10) }, () => {
        const product = between(0, products.length - 1);
        return {
          product,
          description: String(products[product].name),
          quantity: between(1, 20),
          unit_price: products[product].price,
        };
      }),
    };
  });
  return { accounts, contacts, products, invoices };
}

/** A small, well-known seeded PRNG: the same sequence on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
