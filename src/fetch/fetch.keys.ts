import { Aggregate, EntityQuery, LinkQuery, PropertyItem } from './fetch.tree';

/** A selected item and the link whose select list holds it (none for the root's). */
export interface SelectedItem {
  item: PropertyItem;
  link?: LinkQuery;
}

/** Every selected item of the query, the root's first, then each link's, depth first. */
export function selectedItems(query: EntityQuery): SelectedItem[] {
  const items: SelectedItem[] = [];
  const visit = (entity: EntityQuery, link?: LinkQuery) => {
    for (const item of entity.properties ?? []) items.push({ item, link });
    for (const child of entity.links ?? []) visit(child, child);
  };
  visit(query);
  return items;
}

/**
 * The item's key in a result row (FETCH.md §2): its alias; else `<function>_<property>`
 * for an aggregate (`count` for COUNT(*)), the property for a column or a date group;
 * a linked item's own key is prefixed with `<link alias or entity>.`. None for `*`.
 */
export function resultKey({ item, link }: SelectedItem): string | undefined {
  if (item.alias) return item.alias;
  if (item.property === '*' && item.aggregate !== 'count') return undefined;
  const own = item.aggregate ? aggregateKey(item.aggregate, item.property) : item.property;
  return link ? `${link.alias ?? link.entity}.${own}` : own;
}

/**
 * The name GROUP BY gives an item: its alias, or a root column's or date group's
 * property. A linked or qualified column needs an alias to be grouped.
 */
export function groupName({ item, link }: SelectedItem): string | undefined {
  if (item.alias) return item.alias;
  if (link || item.aggregate || item.property === '*' || item.property.includes('.')) {
    return undefined;
  }
  return item.property;
}

function aggregateKey(aggregate: Aggregate, property: string): string {
  if (aggregate === 'count') return 'count';
  return `${aggregate === 'countcolumn' ? 'count' : aggregate}_${property}`;
}
