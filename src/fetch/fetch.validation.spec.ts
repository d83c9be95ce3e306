import { Condition, EntityQuery, FilterGroup, LinkQuery, PropertyItem } from './fetch.tree';
import { fetchProblems } from './fetch.validation';

const reasons = (query: EntityQuery) => [...fetchProblems(query)].map((p) => p.reason);
const withItems = (...properties: PropertyItem[]): EntityQuery => ({ entity: 'e', properties });
const withLinks = (...links: LinkQuery[]): EntityQuery => ({
  ...withItems({ property: 'x' }),
  links,
});
const withFilter = (...filter: FilterGroup[]): EntityQuery => ({
  ...withItems({ property: 'x' }),
  filter,
});
const withCondition = (condition: object) =>
  withFilter({ type: 'And', conditions: [condition as Condition] });

/** Trees as a JSON client could send them: the types do not stop every mistake. */
const loose = <T>(value: object) => value as T;

describe('fetchProblems', () => {
  it('finds nothing in a valid tree', () => {
    expect(
      reasons({
        entity: 'invoice',
        properties: [
          { property: 'issue_date', dateGrouping: 'month', alias: 'm', groupBy: true },
          { property: 'total', aggregate: 'sum' },
          { property: '*', aggregate: 'count' },
        ],
        links: [
          {
            entity: 'account',
            to: 'id_account',
            properties: [{ property: 'name', alias: 'n', groupBy: true }],
          },
        ],
        filter: [
          {
            type: 'Or',
            conditions: [
              { property: 'status', operator: 'in', value: ['paid', 'issued'] },
              { property: 'issue_date', operator: 'last-x-days', value: 30 },
            ],
            filter: [
              { type: 'And', conditions: [{ property: 'account.id_user', operator: 'eq-userid' }] },
            ],
          },
        ],
        orderBy: [{ name: 'm', asc: true }],
        offset: 0,
        limit: 100,
      }),
    ).toEqual([]);
  });

  it('needs a select list at the root, not empty, with * alone', () => {
    expect(reasons({ entity: 'e' })).toEqual(['the query has no select list']);
    expect(reasons(withItems())).toEqual(['the select list is empty']);
    expect(reasons(withItems({ property: '*' }, { property: 'x' }))).toEqual([
      '* stands alone in its select list',
    ]);
    expect(reasons(withItems({ property: '*', alias: 'all' }))).toEqual([
      '* stands alone in its select list',
    ]);
  });

  it('checks names are identifiers and columns', () => {
    expect(reasons({ entity: 'bad name', properties: [{ property: 'x' }] })).toEqual([
      '"bad name" is not an entity name',
    ]);
    expect(reasons(withItems({ property: 'a.b.c' }, { property: 'x', alias: '1x' }))).toEqual([
      '"a.b.c" is not a column',
      '"1x" is not an alias',
    ]);
    expect(reasons(withLinks(loose({ entity: 'l', to: 'a b', from: '', alias: 'x-y' })))).toEqual([
      'link TO "a b" is not a property',
      'link FROM "" is not a property',
      '"x-y" is not an alias',
    ]);
    expect(reasons({ ...withItems({ property: 'x' }), orderBy: [{ name: 'x;' }] })).toEqual([
      'cannot ORDER BY "x;"',
    ]);
  });

  it('checks aggregates, DISTINCT and date groups', () => {
    expect(reasons(withItems({ property: 'x', aggregate: 'count' }))).toEqual([
      'aggregate "count" is COUNT(*): its property is "*"',
    ]);
    expect(reasons(withItems({ property: 'x', distinct: true }))).toEqual([
      'DISTINCT needs an aggregate of a column',
    ]);
    expect(reasons(withItems({ property: 'x', aggregate: 'sum', dateGrouping: 'day' }))).toEqual([
      'an item cannot be both an aggregate and a date group',
    ]);
    expect(reasons(withItems(loose({ property: 'x', aggregate: 'median' })))).toEqual([
      'unknown aggregate "median"',
    ]);
    expect(reasons(withItems(loose({ property: 'x', dateGrouping: 'hour' })))).toEqual([
      'unknown date grouping "hour"',
    ]);
  });

  it('checks GROUP BY flags', () => {
    expect(reasons(withItems({ property: 'x', aggregate: 'sum', groupBy: true }))).toEqual([
      'an aggregate cannot be in GROUP BY',
    ]);
    expect(
      reasons({
        ...withItems({ property: 'c.x', groupBy: true }),
        links: [{ entity: 'c', to: 't' }],
      }),
    ).toEqual(['only an aliased item or a root column can be in GROUP BY']);
    expect(reasons(withItems({ property: 'x' }, { property: 'y', aggregate: 'max' }))).toEqual([
      '"x" must be in GROUP BY or aggregated, as the query has an aggregate',
    ]);
  });

  it('checks result keys and link aliases are unique', () => {
    expect(
      reasons(
        withItems(
          { property: 'x', aggregate: 'sum' },
          { property: 'y', aggregate: 'max', alias: 'sum_x' },
        ),
      ),
    ).toEqual(['two selected items are both named "sum_x" in the result: give one an alias']);
    expect(
      reasons(
        withLinks({ entity: 'l', alias: 'k', to: 't' }, { entity: 'm', alias: 'k', to: 't' }),
      ),
    ).toEqual(['link alias "k" is used twice']);
  });

  it('checks that links have one name each and that qualified columns name a link', () => {
    expect(
      reasons(withLinks({ entity: 'l', to: 't' }, { entity: 'l', from: 'f', to: 'k' })),
    ).toEqual(['two links are named "l": give one an alias (AS …)']);
    expect(
      reasons({
        ...withItems({ property: 'l.x' }, { property: 'other.y' }),
        links: [{ entity: 'l', alias: 'k', to: 't' }],
      }),
    ).toEqual([
      '"l" in "l.x" names no link of the query (did you mean "k"?)',
      '"other" in "other.y" names no link of the query',
    ]);
    const exists: LinkQuery = {
      entity: 'l',
      to: 't',
      linkType: 'not-exists',
      filter: [{ type: 'And', conditions: [{ property: 'l.y', operator: 'null' }] }],
    };
    expect(reasons({ ...withItems({ property: 'x' }), links: [exists] })).toEqual([]);
    expect(
      reasons({ ...withCondition({ property: 'l.y', operator: 'null' }), links: [exists] }),
    ).toEqual([
      '"l.y" is a column of an EXISTS link, which joins no rows: use it inside that link',
    ]);
  });

  it('checks link types and that EXISTS links select nothing', () => {
    expect(reasons(withLinks(loose({ entity: 'l', to: 't', linkType: 'left' })))).toEqual([
      'unknown link type "left"',
    ]);
    expect(
      reasons(
        withLinks({ entity: 'l', to: 't', linkType: 'exists', properties: [{ property: 'y' }] }),
      ),
    ).toEqual(['an EXISTS link selects no columns: remove this select list']);
  });

  it('checks LIMIT and OFFSET are non-negative integers', () => {
    expect(reasons({ ...withItems({ property: 'x' }), limit: -1, offset: 1.5 })).toEqual([
      'OFFSET must be a non-negative integer',
      'LIMIT must be a non-negative integer',
    ]);
  });

  it('checks filter groups', () => {
    expect(reasons(withFilter({ type: 'And' }))).toEqual(['a filter group has no conditions']);
    expect(
      reasons(
        withFilter(loose({ type: 'Xor', conditions: [{ property: 'a', operator: 'null' }] })),
      ),
    ).toEqual(['a filter group\'s type is "And" or "Or", not "Xor"']);
  });

  it.each([
    [{ operator: 'equals', value: 1 }, 'unknown operator "equals"'],
    [{ operator: 'eq' }, 'operator eq takes a string, number, boolean or null value'],
    [{ operator: 'eq', value: [1] }, 'operator eq takes a string, number, boolean or null value'],
    [{ operator: 'like', value: 5 }, 'operator like takes a string value'],
    [{ operator: 'on', value: '2026-02-30' }, "operator on takes a date value 'YYYY-MM-DD'"],
    [{ operator: 'in', value: [] }, 'operator in takes an array of one or more values'],
    [{ operator: 'in', value: [{}] }, 'operator in takes an array of one or more values'],
    [{ operator: 'between', value: [1] }, 'operator between takes an array of two values'],
    [{ operator: 'null', value: null }, 'operator null takes no value'],
    [{ operator: 'today', value: 1 }, 'operator today takes no value'],
    [
      { operator: 'last-x-days', value: -1 },
      'operator last-x-days takes a non-negative integer value',
    ],
  ])('checks the value of %j', (condition, reason) => {
    expect(reasons(withCondition({ property: 'a', ...condition }))).toEqual([reason]);
  });

  it('checks the depth of links and filter groups', () => {
    let link: LinkQuery = { entity: 'l', to: 't' };
    for (let i = 0; i < 10; i++) link = { entity: `l${i}`, to: 't', links: [link] };
    expect(reasons(withLinks(link))).toEqual(['links are nested deeper than 10']);
    let group: FilterGroup = { type: 'And', conditions: [{ property: 'a', operator: 'null' }] };
    for (let i = 0; i < 33; i++) group = { type: 'And', filter: [group] };
    expect(reasons(withFilter(group))).toEqual(['filters are nested deeper than 32']);
  });
});
