import { parseFetch } from './fetch.parser';
import { printFetch } from './fetch.printer';
import { EntityQuery } from './fetch.tree';

/** The canonical text of a query text. */
const canonical = (text: string) => printFetch(parseFetch(text));

describe('printFetch', () => {
  it('writes FETCH.md’s example on one line, ASC and INNER left out', () => {
    expect(
      canonical(`fetch account (name, key as id)
        { contact inner from id_account to key (first_name) }
        where name like 'A%' order by name asc limit 10;`),
    ).toBe(
      "FETCH account (name, key AS id) { contact FROM id_account TO key (first_name) } WHERE name LIKE 'A%' ORDER BY name LIMIT 10",
    );
  });

  it('writes aggregates, date groups and GROUP BY by alias or property', () => {
    expect(
      canonical(
        'FETCH invoice (month(issue_date) as m, status, count(*), count(distinct id_account) as n, ' +
          'sum(total), avg(total) as a, min(total) as lo, max(total) as hi) group by status, m',
      ),
    ).toBe(
      'FETCH invoice (MONTH(issue_date) AS m, status, COUNT(*), COUNT(DISTINCT id_account) AS n, ' +
        'SUM(total), AVG(total) AS a, MIN(total) AS lo, MAX(total) AS hi) GROUP BY m, status',
    );
  });

  it('writes links with alias, type, FROM, TO and their own clauses, nested', () => {
    expect(
      canonical(
        'FETCH account (name) { invoice AS i OUTER FROM id_account TO key (number) ' +
          '{ invoice_line EXISTS FROM id_invoice TO key WHERE quantity > 1 } ' +
          "WHERE status = 'paid' ORDER BY number DESC LIMIT 3 OFFSET 1 } " +
          '{ contact NOT EXISTS FROM id_account TO key }',
      ),
    ).toBe(
      'FETCH account (name) { invoice AS i OUTER FROM id_account TO key (number) ' +
        '{ invoice_line EXISTS FROM id_invoice TO key WHERE quantity > 1 } ' +
        "WHERE status = 'paid' ORDER BY number DESC OFFSET 1 LIMIT 3 } " +
        '{ contact NOT EXISTS FROM id_account TO key }',
    );
  });

  it('writes every condition form', () => {
    const conditions = [
      'a = 1',
      'a <> -2.5',
      'a < TRUE',
      'a <= FALSE',
      'a > NULL',
      "a >= 'x'",
      "a LIKE 'it''s%'",
      "a NOT LIKE ''",
      "a IN (1, 'b', NULL)",
      'a NOT IN (2)',
      'a BETWEEN 1 AND 2',
      "a NOT BETWEEN 'a' AND 'b'",
      'a IS NULL',
      'a IS NOT NULL',
      "a BEGINS WITH 'x'",
      "a ENDS WITH 'x'",
      "a CONTAINS 'x'",
      "a ON '2026-01-31'",
      "a ON OR AFTER '2026-01-31'",
      "a ON OR BEFORE '2026-01-31'",
      'a IS TODAY',
      'a IS YESTERDAY',
      'a IS TOMORROW',
      'a IS THIS WEEK',
      'a IS LAST MONTH',
      'a IS NEXT YEAR',
      'a IS LAST 7 DAYS',
      'a IS NEXT 2 HOURS',
      'a IS OLDER THAN 3 MONTHS',
      'a = CURRENT_USER',
      'a = CURRENT_BUSINESS_UNIT',
      'a <> CURRENT_ORGANIZATION',
      'c.a = 1',
    ];
    const text = `FETCH e (x) { c TO t } WHERE ${conditions.join(' AND ')}`;
    expect(canonical(text)).toBe(text);
  });

  it('normalises the spellings that mean the same', () => {
    expect(canonical("FETCH e (x) WHERE a != 1 AND b BEGINS 'x' AND c CONTAINS WITH 'y'")).toBe(
      "FETCH e (x) WHERE a <> 1 AND b BEGINS WITH 'x' AND c CONTAINS 'y'",
    );
    expect(canonical('FETCH e (x) WHERE d IS LAST 1 DAY AND v = 2.50')).toBe(
      'FETCH e (x) WHERE d IS LAST 1 DAYS AND v = 2.5',
    );
  });

  it('parenthesises nested groups only', () => {
    expect(canonical('FETCH e (x) WHERE ((a = 1) OR (b = 2 AND (c = 3 OR d = 4)))')).toBe(
      'FETCH e (x) WHERE a = 1 OR (b = 2 AND (c = 3 OR d = 4))',
    );
  });

  it('writes several top-level groups of a JSON tree as an AND', () => {
    const tree: EntityQuery = {
      entity: 'e',
      properties: [{ property: 'x' }],
      filter: [
        { type: 'Or', conditions: [{ property: 'a', operator: 'null' }] },
        { type: 'And', conditions: [{ property: 'b', operator: 'not-null' }] },
      ],
    };
    expect(printFetch(tree)).toBe('FETCH e (x) WHERE (a IS NULL) AND (b IS NOT NULL)');
  });

  it('writes numbers without exponents, and big integers so they read back as numbers', () => {
    const tree = (value: number): EntityQuery => ({
      entity: 'e',
      properties: [{ property: 'x' }],
      filter: [{ type: 'And', conditions: [{ property: 'a', operator: 'eq', value }] }],
    });
    expect(printFetch(tree(1e-7))).toBe('FETCH e (x) WHERE a = 0.0000001');
    expect(printFetch(tree(-0))).toBe('FETCH e (x) WHERE a = 0');
    expect(printFetch(tree(1e21))).toBe('FETCH e (x) WHERE a = 1000000000000000000000.0');
    for (const value of [1e-7, 1e21, 123.456, -1.5e300, 2 ** 53]) {
      expect(parseFetch(printFetch(tree(value)))).toEqual(tree(value));
    }
  });

  it('writes `asc` left out as DESC', () => {
    const tree: EntityQuery = {
      entity: 'e',
      properties: [{ property: 'x' }],
      orderBy: [{ name: 'x', asc: false }, { name: 'y' }, { name: 'z', asc: true }],
    };
    expect(printFetch(tree)).toBe('FETCH e (x) ORDER BY x DESC, y DESC, z');
  });
});
