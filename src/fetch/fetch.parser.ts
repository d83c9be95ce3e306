import { didYouMean } from '../common/nearest-name';
import { parseCondition } from './fetch.conditions';
import { TokenCursor } from './fetch.cursor';
import { FetchSyntaxError } from './fetch.errors';
import { groupName, SelectedItem, selectedItems } from './fetch.keys';
import {
  Aggregate,
  Condition,
  DateGrouping,
  EntityQuery,
  FilterGroup,
  LinkQuery,
  OrderItem,
  PropertyItem,
} from './fetch.tree';
import { FETCH_LIMITS, FetchLimits, fetchProblems } from './fetch.validation';

/**
 * Reads one FETCH query (FETCH.md §1) into its tree (§3). Recursive descent with at most
 * two tokens of lookahead and no backtracking, so time is linear in the text; nesting is
 * bounded by `limits`. Throws nothing but FetchSyntaxError.
 */
export function parseFetch(source: string, limits: FetchLimits = FETCH_LIMITS): EntityQuery {
  return new FetchParser(source, limits).parse();
}

/** A WHERE clause before it becomes filter groups. */
type Expression = Condition | Junction;
interface Junction {
  type: 'And' | 'Or';
  items: Expression[];
}

const AGGREGATE_WORDS = new Map<string, Aggregate>([
  ['COUNT', 'countcolumn'],
  ['SUM', 'sum'],
  ['AVG', 'avg'],
  ['MIN', 'min'],
  ['MAX', 'max'],
]);
const DATE_GROUP_WORDS = new Map<string, DateGrouping>([
  ['DAY', 'day'],
  ['WEEK', 'week'],
  ['MONTH', 'month'],
  ['QUARTER', 'quarter'],
  ['YEAR', 'year'],
]);

class FetchParser {
  private readonly t: TokenCursor;
  private linkDepth = 0;
  private parentheses = 0;
  /** Where tree nodes start in the text, to place the validation's findings. */
  private readonly starts = new Map<object, number>();
  private readonly aliasStarts = new Map<object, number>();

  constructor(
    private readonly source: string,
    private readonly limits: FetchLimits,
  ) {
    this.t = new TokenCursor(source);
  }

  parse(): EntityQuery {
    const { t } = this;
    if (t.token.kind === 'end') throw t.error(0, 'the query is empty');
    t.keyword('FETCH');
    const query: EntityQuery = { entity: t.identifier('an entity name') };
    query.properties = this.select();
    this.body(query, true);
    t.acceptSymbol(';');
    t.end();
    this.validate(query);
    return query;
  }

  /** What follows an entity's select list, for the root and for links alike. */
  private body(entity: EntityQuery, root: boolean): void {
    const { t } = this;
    const links: LinkQuery[] = [];
    while (t.isSymbol('{')) links.push(this.link(t.advance().start));
    if (links.length > 0) entity.links = links;
    if (t.acceptKeyword('WHERE')) entity.filter = filterOf(this.or());
    if (root && t.acceptKeyword('GROUP', 'GROUP BY')) {
      t.keyword('BY');
      this.groupBy(entity);
    }
    if (t.acceptKeyword('ORDER', 'ORDER BY')) {
      t.keyword('BY');
      entity.orderBy = this.orderBy();
    }
    this.paging(entity);
  }

  private select(): PropertyItem[] {
    const { t } = this;
    const open = t.token.start;
    t.symbol('(');
    const items: PropertyItem[] = [];
    if (t.isSymbol('*')) {
      const star = { property: '*' };
      this.starts.set(star, t.advance().start);
      items.push(star);
    } else {
      do items.push(this.item());
      while (t.acceptSymbol(','));
    }
    t.symbol(')');
    this.starts.set(items, open);
    return items;
  }

  private item(): PropertyItem {
    const { t } = this;
    const start = t.token.start;
    const next = t.peek();
    const call = t.token.kind === 'ident' && next.kind === 'symbol' && next.text === '(';
    const aggregate = call ? AGGREGATE_WORDS.get(t.token.upper) : undefined;
    const dateGrouping = call ? DATE_GROUP_WORDS.get(t.token.upper) : undefined;
    let item: PropertyItem;
    if (aggregate) {
      item = this.aggregate(aggregate);
    } else if (dateGrouping) {
      t.advance();
      t.symbol('(');
      item = { property: t.column(), dateGrouping };
      t.symbol(')');
    } else {
      item = { property: t.column() };
    }
    if (t.acceptKeyword('AS')) {
      this.aliasStarts.set(item, t.token.start);
      item.alias = t.identifier('an alias');
    }
    this.starts.set(item, start);
    return item;
  }

  private aggregate(aggregate: Aggregate): PropertyItem {
    const { t } = this;
    t.advance();
    t.symbol('(');
    let item: PropertyItem;
    if (aggregate === 'countcolumn' && t.acceptSymbol('*')) {
      item = { property: '*', aggregate: 'count' };
    } else {
      // DISTINCT is a keyword only when a column follows: COUNT(distinct) counts a column.
      const distinct = t.token.upper === 'DISTINCT' && t.peek().kind === 'ident';
      if (distinct) t.advance();
      item = { property: t.column(), aggregate };
      if (distinct) item.distinct = true;
    }
    t.symbol(')');
    return item;
  }

  private link(open: number): LinkQuery {
    const { t } = this;
    if (++this.linkDepth > this.limits.linkDepth) {
      throw t.error(open, `links are nested deeper than ${this.limits.linkDepth}`);
    }
    const link = { entity: t.identifier('an entity name') } as LinkQuery;
    if (t.acceptKeyword('AS')) {
      this.aliasStarts.set(link, t.token.start);
      link.alias = t.identifier('a link alias');
    }
    if (t.acceptKeyword('INNER')) {
      // the default, left out of the tree
    } else if (t.acceptKeyword('OUTER')) {
      link.linkType = 'outer';
    } else if (t.acceptKeyword('EXISTS')) {
      link.linkType = 'exists';
    } else if (t.acceptKeyword('NOT', 'NOT EXISTS')) {
      t.keyword('EXISTS');
      link.linkType = 'not-exists';
    }
    if (t.acceptKeyword('FROM')) link.from = t.identifier('a property');
    t.keyword('TO');
    link.to = t.identifier('a property');
    if (t.isSymbol('(')) link.properties = this.select();
    this.body(link, false);
    t.symbol('}');
    this.linkDepth--;
    this.starts.set(link, open);
    return link;
  }

  private or(): Expression {
    const first = this.and();
    if (!this.t.isKeyword('OR')) return first;
    const items = [first];
    while (this.t.acceptKeyword('OR')) items.push(this.and());
    return { type: 'Or', items };
  }

  private and(): Expression {
    const first = this.primary();
    if (!this.t.isKeyword('AND')) return first;
    const items = [first];
    while (this.t.acceptKeyword('AND')) items.push(this.primary());
    return { type: 'And', items };
  }

  private primary(): Expression {
    const { t } = this;
    if (!t.isSymbol('(')) {
      const start = t.token.start;
      const condition = parseCondition(t);
      this.starts.set(condition, start);
      return condition;
    }
    if (++this.parentheses > this.limits.parenthesesDepth) {
      throw t.error(
        t.token.start,
        `parentheses are nested deeper than ${this.limits.parenthesesDepth}`,
      );
    }
    t.advance();
    const inner = this.or();
    t.symbol(')');
    this.parentheses--;
    return inner;
  }

  /** GROUP BY names an item by its alias, or a root column by its property. */
  private groupBy(query: EntityQuery): void {
    const { t } = this;
    const items = selectedItems(query);
    const byName = new Map<string, SelectedItem>();
    for (const selected of items) {
      if (selected.item.alias && !byName.has(selected.item.alias)) {
        byName.set(selected.item.alias, selected);
      }
    }
    for (const selected of items) {
      const name = groupName(selected);
      if (name !== undefined && !byName.has(name)) byName.set(name, selected);
    }
    do {
      const start = t.token.start;
      const name = t.identifier('a selected column or alias');
      const found = byName.get(name);
      if (!found) throw t.error(start, unknownGroupName(name, items, [...byName.keys()]));
      if (found.item.aggregate) {
        throw t.error(start, `cannot GROUP BY "${name}": it is an aggregate`);
      }
      found.item.groupBy = true;
    } while (t.acceptSymbol(','));
  }

  private orderBy(): OrderItem[] {
    const { t } = this;
    const items: OrderItem[] = [];
    do {
      const name = t.identifier('a column or alias');
      const descending = !t.acceptKeyword('ASC') && t.acceptKeyword('DESC');
      items.push(descending ? { name } : { name, asc: true });
    } while (t.acceptSymbol(','));
    return items;
  }

  /** OFFSET and LIMIT, in either order as PostgreSQL takes them. */
  private paging(entity: EntityQuery): void {
    const { t } = this;
    let offset: number | undefined;
    let limit: number | undefined;
    for (;;) {
      if (offset === undefined && t.acceptKeyword('OFFSET')) offset = t.integer();
      else if (limit === undefined && t.acceptKeyword('LIMIT')) limit = t.integer();
      else break;
    }
    if (offset !== undefined) entity.offset = offset;
    if (limit !== undefined) entity.limit = limit;
  }

  /** Reports the validation finding nearest the start of the text. */
  private validate(query: EntityQuery): void {
    let first: { offset: number; reason: string } | undefined;
    for (const problem of fetchProblems(query, this.limits)) {
      const starts = problem.field === 'alias' ? this.aliasStarts : this.starts;
      const offset = starts.get(problem.node) ?? 0;
      if (!first || offset < first.offset) first = { offset, reason: problem.reason };
    }
    if (first) throw FetchSyntaxError.at(this.source, first.offset, first.reason);
  }
}

/** Filter groups (FETCH.md §3): a lone condition is an And group of one. */
function filterOf(expression: Expression): FilterGroup[] {
  if ('operator' in expression) return [{ type: 'And', conditions: [expression] }];
  return [groupOf(expression)];
}

function groupOf(junction: Junction): FilterGroup {
  const conditions: Condition[] = [];
  const filter: FilterGroup[] = [];
  collect(junction, conditions, filter);
  const group: FilterGroup = { type: junction.type };
  if (conditions.length > 0) group.conditions = conditions;
  if (filter.length > 0) group.filter = filter;
  return group;
}

/** `a AND (b AND c)` is one group: parentheses that change nothing vanish. */
function collect(junction: Junction, conditions: Condition[], filter: FilterGroup[]): void {
  for (const item of junction.items) {
    if ('operator' in item) conditions.push(item);
    else if (item.type === junction.type) collect(item, conditions, filter);
    else filter.push(groupOf(item));
  }
}

function unknownGroupName(name: string, items: SelectedItem[], names: string[]): string {
  const column = items.find(
    ({ item }) => !item.aggregate && (item.property === name || item.property.endsWith(`.${name}`)),
  );
  if (column?.item.alias) {
    return `"${name}" is selected as "${column.item.alias}": GROUP BY "${column.item.alias}"`;
  }
  if (column) return `"${name}" is a linked column: give it an alias (AS …) and GROUP BY that`;
  return `"${name}" in GROUP BY is not a selected column or alias${didYouMean(name, names)}`;
}
