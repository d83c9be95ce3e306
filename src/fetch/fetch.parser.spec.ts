import { parseFetch } from './fetch.parser';
import { Condition, EntityQuery } from './fetch.tree';

/** The filter of `FETCH e (x) WHERE <where>`. */
const where = (text: string) => parseFetch(`FETCH e (x) WHERE ${text}`).filter;
/** The single condition of `WHERE <text>`. */
const condition = (text: string): Condition => where(text)![0].conditions![0];
const select = (text: string) => parseFetch(`FETCH e ${text}`).properties;

describe('parseFetch', () => {
  describe('the seed’s forms (spec 4.3)', () => {
    it('reads a select list with an alias, ORDER BY … ASC and LIMIT', () => {
      expect(parseFetch('FETCH account (name, key AS id) ORDER BY name ASC LIMIT 10')).toEqual({
        entity: 'account',
        properties: [{ property: 'name' }, { property: 'key', alias: 'id' }],
        orderBy: [{ name: 'name', asc: true }],
        limit: 10,
      });
    });

    it('reads a link block with TO and its own select list', () => {
      expect(parseFetch('FETCH account (name) { contact TO id_account (first_name) }')).toEqual({
        entity: 'account',
        properties: [{ property: 'name' }],
        links: [{ entity: 'contact', to: 'id_account', properties: [{ property: 'first_name' }] }],
      });
    });

    it('gives exactly the tree of FETCH.md’s example', () => {
      const text = `FETCH account (name, key AS id) { contact FROM id_account TO key (first_name) }
WHERE name LIKE 'A%' ORDER BY name LIMIT 10`;
      expect(JSON.stringify({ fetch: [parseFetch(text)] })).toBe(
        JSON.stringify({
          fetch: [
            {
              entity: 'account',
              properties: [{ property: 'name' }, { property: 'key', alias: 'id' }],
              links: [
                {
                  entity: 'contact',
                  from: 'id_account',
                  to: 'key',
                  properties: [{ property: 'first_name' }],
                },
              ],
              filter: [
                {
                  type: 'And',
                  conditions: [{ property: 'name', operator: 'like', value: 'A%' }],
                },
              ],
              orderBy: [{ name: 'name', asc: true }],
              limit: 10,
            },
          ],
        }),
      );
    });
  });

  describe('query', () => {
    it('takes keywords in any case, comments and a trailing ;', () => {
      const text = `-- accounts first
        fetch account (name) -- the name only
        Where name = 'x' order BY name desc lImIt 5;  -- done`;
      expect(parseFetch(text)).toEqual({
        entity: 'account',
        properties: [{ property: 'name' }],
        filter: [{ type: 'And', conditions: [{ property: 'name', operator: 'eq', value: 'x' }] }],
        orderBy: [{ name: 'name' }],
        limit: 5,
      });
    });

    it('keeps identifiers’ case', () => {
      expect(parseFetch('FETCH Account (Name AS N)')).toEqual({
        entity: 'Account',
        properties: [{ property: 'Name', alias: 'N' }],
      });
    });

    it('lets keywords be names where the grammar expects a name', () => {
      expect(
        parseFetch(
          'FETCH order (count, month AS from, year) { to AS limit FROM from TO to (where) } ' +
            'WHERE count = 1 AND select IS NULL ORDER BY limit DESC',
        ),
      ).toEqual({
        entity: 'order',
        properties: [
          { property: 'count' },
          { property: 'month', alias: 'from' },
          { property: 'year' },
        ],
        links: [
          {
            entity: 'to',
            alias: 'limit',
            from: 'from',
            to: 'to',
            properties: [{ property: 'where' }],
          },
        ],
        filter: [
          {
            type: 'And',
            conditions: [
              { property: 'count', operator: 'eq', value: 1 },
              { property: 'select', operator: 'null' },
            ],
          },
        ],
        orderBy: [{ name: 'limit' }],
      });
    });

    it('reads OFFSET and LIMIT, in either order, and zero', () => {
      expect(parseFetch('FETCH e (x) OFFSET 20 LIMIT 10')).toMatchObject({ offset: 20, limit: 10 });
      expect(parseFetch('FETCH e (x) LIMIT 0 OFFSET 0')).toMatchObject({ offset: 0, limit: 0 });
      expect(parseFetch('FETCH e (x) OFFSET 3')).toEqual({
        entity: 'e',
        properties: [{ property: 'x' }],
        offset: 3,
      });
    });

    it('reads ORDER BY lists with ASC, DESC and the ascending default', () => {
      expect(parseFetch('FETCH e (x) ORDER BY a, b DESC, c ASC').orderBy).toEqual([
        { name: 'a', asc: true },
        { name: 'b' },
        { name: 'c', asc: true },
      ]);
    });
  });

  describe('select', () => {
    it('reads * as [{property: "*"}]', () => {
      expect(select('(*)')).toEqual([{ property: '*' }]);
    });

    it('reads qualified columns of linked entities', () => {
      expect(
        parseFetch('FETCH e (c.first_name AS f) { contact AS c TO id_contact }').properties,
      ).toEqual([{ property: 'c.first_name', alias: 'f' }]);
    });

    it('reads every aggregate, DISTINCT and aliases', () => {
      expect(
        select(
          '(COUNT(*), count(x) AS n, COUNT(DISTINCT y) AS d, SUM(a), AVG(b) AS avg_b, ' +
            'MIN(c), MAX(DISTINCT d))',
        ),
      ).toEqual([
        { property: '*', aggregate: 'count' },
        { property: 'x', aggregate: 'countcolumn', alias: 'n' },
        { property: 'y', aggregate: 'countcolumn', distinct: true, alias: 'd' },
        { property: 'a', aggregate: 'sum' },
        { property: 'b', aggregate: 'avg', alias: 'avg_b' },
        { property: 'c', aggregate: 'min' },
        { property: 'd', aggregate: 'max', distinct: true },
      ]);
    });

    it('counts a column called distinct', () => {
      expect(select('(COUNT(distinct) AS n)')).toEqual([
        { property: 'distinct', aggregate: 'countcolumn', alias: 'n' },
      ]);
    });

    it('reads every date group', () => {
      expect(
        select('(DAY(d) AS a, WEEK(d) AS b, MONTH(d) AS c, QUARTER(d) AS q, year(d) AS e)'),
      ).toEqual([
        { property: 'd', dateGrouping: 'day', alias: 'a' },
        { property: 'd', dateGrouping: 'week', alias: 'b' },
        { property: 'd', dateGrouping: 'month', alias: 'c' },
        { property: 'd', dateGrouping: 'quarter', alias: 'q' },
        { property: 'd', dateGrouping: 'year', alias: 'e' },
      ]);
    });
  });

  describe('GROUP BY', () => {
    it('flags the items it names, by alias or by property', () => {
      expect(
        select('(MONTH(issue_date) AS m, status, SUM(total) AS total) GROUP BY m, status'),
      ).toEqual([
        { property: 'issue_date', dateGrouping: 'month', alias: 'm', groupBy: true },
        { property: 'status', groupBy: true },
        { property: 'total', aggregate: 'sum', alias: 'total' },
      ]);
    });

    it('flags linked items by their alias', () => {
      const query = parseFetch(
        'FETCH account (COUNT(*) AS n) { contact TO id_account (last_name AS ln) } GROUP BY ln',
      );
      expect(query.links![0].properties).toEqual([
        { property: 'last_name', alias: 'ln', groupBy: true },
      ]);
    });

    it('is allowed without aggregates', () => {
      expect(select('(status) GROUP BY status')).toEqual([{ property: 'status', groupBy: true }]);
    });
  });

  describe('links', () => {
    it('reads alias, every link type, FROM and TO; inner is the default and left out', () => {
      const query = parseFetch(
        'FETCH e (x) { a AS l1 INNER TO t } { b OUTER FROM f TO t } { c EXISTS TO t } ' +
          '{ d not exists FROM f TO t }',
      );
      expect(query.links).toEqual([
        { entity: 'a', alias: 'l1', to: 't' },
        { entity: 'b', linkType: 'outer', from: 'f', to: 't' },
        { entity: 'c', linkType: 'exists', to: 't' },
        { entity: 'd', linkType: 'not-exists', from: 'f', to: 't' },
      ]);
    });

    it('reads a link’s own select, links, WHERE, ORDER BY, OFFSET and LIMIT, nested', () => {
      const query = parseFetch(`FETCH account (name)
        { invoice FROM id_account TO key (number)
          { invoice_line FROM id_invoice TO key (quantity) WHERE quantity > 1 }
          WHERE status = 'paid' ORDER BY number DESC OFFSET 1 LIMIT 3 }`);
      expect(query.links).toEqual([
        {
          entity: 'invoice',
          from: 'id_account',
          to: 'key',
          properties: [{ property: 'number' }],
          links: [
            {
              entity: 'invoice_line',
              from: 'id_invoice',
              to: 'key',
              properties: [{ property: 'quantity' }],
              filter: [
                { type: 'And', conditions: [{ property: 'quantity', operator: 'gt', value: 1 }] },
              ],
            },
          ],
          filter: [
            { type: 'And', conditions: [{ property: 'status', operator: 'eq', value: 'paid' }] },
          ],
          orderBy: [{ name: 'number' }],
          offset: 1,
          limit: 3,
        },
      ]);
    });
  });

  describe('WHERE', () => {
    it('makes a lone condition an And group of one', () => {
      expect(where('a = 1')).toEqual([
        { type: 'And', conditions: [{ property: 'a', operator: 'eq', value: 1 }] },
      ]);
    });

    it('nests an Or group inside an And group (FETCH.md §3)', () => {
      expect(where('a = 1 AND (b = 2 OR c = 3)')).toEqual([
        {
          type: 'And',
          conditions: [{ property: 'a', operator: 'eq', value: 1 }],
          filter: [
            {
              type: 'Or',
              conditions: [
                { property: 'b', operator: 'eq', value: 2 },
                { property: 'c', operator: 'eq', value: 3 },
              ],
            },
          ],
        },
      ]);
    });

    it('binds AND tighter than OR', () => {
      expect(where('a = 1 OR b = 2 AND c = 3')).toEqual([
        {
          type: 'Or',
          conditions: [{ property: 'a', operator: 'eq', value: 1 }],
          filter: [
            {
              type: 'And',
              conditions: [
                { property: 'b', operator: 'eq', value: 2 },
                { property: 'c', operator: 'eq', value: 3 },
              ],
            },
          ],
        },
      ]);
    });

    it('flattens adjacent ANDs and ORs and drops parentheses that change nothing', () => {
      const flat = where('a = 1 AND b = 2 AND c = 3');
      expect(where('((a = 1)) AND (b = 2 AND (c = 3))')).toEqual(flat);
      expect(where('(a = 1 AND b = 2) AND c = 3')).toEqual(flat);
      expect(where('a = 1 OR (b = 2 OR c = 3)')).toEqual(where('a = 1 OR b = 2 OR c = 3'));
      expect(where('((a = 1))')).toEqual(where('a = 1'));
      expect(where('(a = 1 OR b = 2)')).toEqual([
        {
          type: 'Or',
          conditions: [
            { property: 'a', operator: 'eq', value: 1 },
            { property: 'b', operator: 'eq', value: 2 },
          ],
        },
      ]);
    });

    it('keeps conditions before groups within a group', () => {
      expect(where('(a = 1 OR b = 2) AND c = 3')).toEqual([
        {
          type: 'And',
          conditions: [{ property: 'c', operator: 'eq', value: 3 }],
          filter: [
            {
              type: 'Or',
              conditions: [
                { property: 'a', operator: 'eq', value: 1 },
                { property: 'b', operator: 'eq', value: 2 },
              ],
            },
          ],
        },
      ]);
    });

    it('reads qualified columns in conditions', () => {
      const { filter } = parseFetch('FETCH e (x) { c TO t } WHERE c.name = 1');
      expect(filter![0].conditions![0]).toEqual({ property: 'c.name', operator: 'eq', value: 1 });
    });
  });

  describe('conditions', () => {
    it.each([
      ['a = 1', 'eq'],
      ['a <> 1', 'ne'],
      ['a != 1', 'ne'],
      ['a < 1', 'lt'],
      ['a <= 1', 'le'],
      ['a > 1', 'gt'],
      ['a >= 1', 'ge'],
    ])('reads the comparison %s', (text, operator) => {
      expect(condition(text)).toEqual({ property: 'a', operator, value: 1 });
    });

    it.each([
      ["a LIKE 'x%'", 'like'],
      ["a NOT LIKE 'x%'", 'not-like'],
      ["a BEGINS WITH 'x%'", 'begins-with'],
      ["a BEGINS 'x%'", 'begins-with'],
      ["a ENDS WITH 'x%'", 'ends-with'],
      ["a ends 'x%'", 'ends-with'],
      ["a CONTAINS 'x%'", 'contains'],
      ["a CONTAINS WITH 'x%'", 'contains'],
    ])('reads the string operator %s', (text, operator) => {
      expect(condition(text)).toEqual({ property: 'a', operator, value: 'x%' });
    });

    it('reads IN and NOT IN lists of any values', () => {
      expect(condition("a IN (1, 'two', TRUE, NULL)")).toEqual({
        property: 'a',
        operator: 'in',
        value: [1, 'two', true, null],
      });
      expect(condition('a NOT IN (-1.5)')).toEqual({
        property: 'a',
        operator: 'not-in',
        value: [-1.5],
      });
    });

    it('reads BETWEEN and NOT BETWEEN, whose AND is not a logical AND', () => {
      expect(where("a BETWEEN 1 AND 5 AND b NOT BETWEEN 'a' AND 'b'")).toEqual([
        {
          type: 'And',
          conditions: [
            { property: 'a', operator: 'between', value: [1, 5] },
            { property: 'b', operator: 'not-between', value: ['a', 'b'] },
          ],
        },
      ]);
    });

    it('reads IS NULL and IS NOT NULL without a value', () => {
      expect(condition('a IS NULL')).toEqual({ property: 'a', operator: 'null' });
      expect(condition('a is not null')).toEqual({ property: 'a', operator: 'not-null' });
    });

    it.each([
      ["d ON '2026-01-31'", 'on'],
      ["d ON OR AFTER '2026-01-31'", 'on-or-after'],
      ["d on or before '2026-01-31'", 'on-or-before'],
    ])('reads the date operator %s', (text, operator) => {
      expect(condition(text)).toEqual({ property: 'd', operator, value: '2026-01-31' });
    });

    it('reads ON OR … inside an OR without confusing the two', () => {
      expect(where("d ON OR AFTER '2026-01-01' OR d IS NULL")).toEqual([
        {
          type: 'Or',
          conditions: [
            { property: 'd', operator: 'on-or-after', value: '2026-01-01' },
            { property: 'd', operator: 'null' },
          ],
        },
      ]);
    });

    it.each([
      ['TODAY', 'today'],
      ['YESTERDAY', 'yesterday'],
      ['TOMORROW', 'tomorrow'],
      ['THIS WEEK', 'this-week'],
      ['LAST WEEK', 'last-week'],
      ['NEXT WEEK', 'next-week'],
      ['THIS MONTH', 'this-month'],
      ['LAST MONTH', 'last-month'],
      ['NEXT MONTH', 'next-month'],
      ['THIS YEAR', 'this-year'],
      ['LAST YEAR', 'last-year'],
      ['next year', 'next-year'],
    ])('reads the period IS %s without a value', (text, operator) => {
      expect(condition(`d IS ${text}`)).toEqual({ property: 'd', operator });
    });

    it.each(['MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS', 'YEARS'])(
      'reads IS LAST / NEXT / OLDER THAN n %s, singular too',
      (unit) => {
        const lower = unit.toLowerCase();
        expect(condition(`d IS LAST 7 ${unit}`)).toEqual({
          property: 'd',
          operator: `last-x-${lower}`,
          value: 7,
        });
        expect(condition(`d IS NEXT 0 ${unit}`)).toEqual({
          property: 'd',
          operator: `next-x-${lower}`,
          value: 0,
        });
        expect(condition(`d IS OLDER THAN 2 ${unit.slice(0, -1)}`)).toEqual({
          property: 'd',
          operator: `olderthan-x-${lower}`,
          value: 2,
        });
      },
    );

    it.each([
      ['= CURRENT_USER', 'eq-userid'],
      ['= current_business_unit', 'eq-businessid'],
      ['= CURRENT_ORGANIZATION', 'eq-organizationid'],
      ['<> CURRENT_USER', 'ne-userid'],
      ['!= CURRENT_BUSINESS_UNIT', 'ne-businessid'],
      ['<> CURRENT_ORGANIZATION', 'ne-organizationid'],
    ])('reads %s as an operator without a value', (text, operator) => {
      expect(condition(`id_user ${text}`)).toEqual({ property: 'id_user', operator });
    });
  });

  describe('values', () => {
    it("keeps strings as strings, '' unescaped, and empty strings", () => {
      expect(condition("a = 'it''s'").value).toBe("it's");
      expect(condition("a = ''").value).toBe('');
      expect(condition("a = '42'").value).toBe('42');
    });

    it('keeps numbers as numbers, booleans as booleans, NULL as null', () => {
      expect(
        where('a = 0 AND b = -3 AND c = 2.50 AND d = TRUE AND e = false AND f = NULL'),
      ).toEqual([
        {
          type: 'And',
          conditions: [
            { property: 'a', operator: 'eq', value: 0 },
            { property: 'b', operator: 'eq', value: -3 },
            { property: 'c', operator: 'eq', value: 2.5 },
            { property: 'd', operator: 'eq', value: true },
            { property: 'e', operator: 'eq', value: false },
            { property: 'f', operator: 'eq', value: null },
          ],
        },
      ]);
    });

    it('keeps a number JSON cannot carry exactly as a string of its digits', () => {
      expect(condition('key = 9007199254740993').value).toBe('9007199254740993');
      expect(condition('a = 0.12345678901234567890').value).toBe('0.1234567890123456789');
      expect(condition('key = 9007199254740991').value).toBe(9007199254740991);
    });
  });

  it('leaves out keys that are empty or false', () => {
    const query: EntityQuery = parseFetch('FETCH e (x) { l TO t }');
    expect(query).toEqual({
      entity: 'e',
      properties: [{ property: 'x' }],
      links: [{ entity: 'l', to: 't' }],
    });
    expect(Object.keys(query.links![0])).toEqual(['entity', 'to']);
  });
});
