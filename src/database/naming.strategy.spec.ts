import { AtriumNamingStrategy, toSnakeCase } from './naming.strategy';

describe('AtriumNamingStrategy', () => {
  const naming = new AtriumNamingStrategy();

  it('turns camelCase properties into snake_case columns', () => {
    expect(naming.columnName('creditLimit', '', [])).toBe('credit_limit');
    expect(naming.columnName('key', '', [])).toBe('key');
    expect(naming.columnName('anything', 'explicit_name', [])).toBe('explicit_name');
  });

  it('names a lookup relation id_<entity>', () => {
    expect(naming.joinColumnName('account')).toBe('id_account');
    expect(naming.joinColumnName('businessUnit')).toBe('id_business_unit');
  });

  it('keeps acronyms together', () => {
    expect(toSnakeCase('HTMLParser')).toBe('html_parser');
    expect(toSnakeCase('invoiceLine')).toBe('invoice_line');
  });
});
