import { generateDemoData } from './demo-data';

describe('generateDemoData', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const data = generateDemoData(now);

  it('has the sizes DESIGN.md asks for', () => {
    expect(data.accounts).toHaveLength(20);
    expect(data.contacts).toHaveLength(60);
    expect(data.products).toHaveLength(30);
    expect(data.invoices).toHaveLength(300);
    for (const invoice of data.invoices) {
      expect(invoice.lines.length).toBeGreaterThanOrEqual(1);
      expect(invoice.lines.length).toBeLessThanOrEqual(10);
    }
  });

  it('spreads invoices over the two years before now', () => {
    const ages = data.invoices.map((i) => now.getTime() - Date.parse(i.createdAt));
    const year = 365 * 86400000;
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThanOrEqual(2 * year);
    expect(ages.filter((age) => age > year).length).toBeGreaterThan(100);
  });

  it('is the same on every run, with unique product codes and invoice numbers', () => {
    expect(generateDemoData(now)).toEqual(data);
    expect(new Set(data.products.map((p) => p.code)).size).toBe(30);
    const numbers = data.invoices.map((i) => i.properties.number).filter(Boolean);
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
