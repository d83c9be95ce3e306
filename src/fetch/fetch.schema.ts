import { BadRequestException, ForbiddenException } from '@nestjs/common';
import { AccessScope } from '../access/access.scope';
import { didYouMean } from '../common/nearest-name';
import { EntityType, PropertyDefinition, PropertyType } from '../model/entity-type';
import { EntityRegistry } from '../model/entity.registry';
import { EntityQuery, LinkQuery } from './fetch.tree';

/** A FETCH query that names what does not exist, or asks what cannot be done: 400. */
export class FetchQueryError extends BadRequestException {
  constructor(detail: string) {
    super(detail);
  }
}

export type SourceKind = 'root' | 'inner' | 'outer' | 'exists' | 'not-exists';

/** The root entity or one link of a query, resolved against the registry. */
export interface Source {
  node: EntityQuery;
  type: EntityType;
  /** The SQL alias: `t0` for the root, `t1`… for links in the order they are written. */
  alias: string;
  /** How qualified columns name it: a link's alias, else its entity. */
  name: string;
  kind: SourceKind;
  parent?: Source;
  links: Source[];
  /** For links: this entity's `from` property equals the parent's `to` property. */
  join?: { from: PropertyDefinition; to: PropertyDefinition };
  /** The link has its own OFFSET or LIMIT: "at most n per parent row", a LATERAL join. */
  lateral: boolean;
}

export interface Column {
  source: Source;
  property: PropertyDefinition;
}

const INTEGERS: PropertyType[] = ['integer', 'bigint'];

/**
 * Every entity and link of a query with its entity type, and the lookups of names in
 * it. Hidden properties (credentials) do not exist here, so a query cannot name them; a
 * secured property the caller may not read is a 403 wherever the query names it.
 */
export class ResolvedQuery {
  readonly root: Source;
  readonly sources: Source[] = [];
  private readonly byName = new Map<string, Source>();

  constructor(
    query: EntityQuery,
    private readonly registry: EntityRegistry,
    private readonly scope: AccessScope,
  ) {
    this.root = this.source(query, undefined, query.entity, 'root');
  }

  /** A property of a source's entity type; 400 with the nearest name otherwise. */
  property(source: Source, name: string): PropertyDefinition {
    const property = source.type.properties.get(name);
    if (property && !property.hidden) {
      if (this.scope.canRead(source.type, property)) return property;
      throw new ForbiddenException(
        `${source.type.name}.${name}: a secured property you may not read`,
      );
    }
    const visible = [...source.type.properties.values()].filter((p) => !p.hidden);
    throw new FetchQueryError(
      `${source.type.name} has no property "${name}"${didYouMean(
        name,
        visible.map((p) => p.name),
      )}`,
    );
  }

  /**
   * A column as written in `context`'s select list or filter: `property` is the context's
   * own; `link.property` names the context itself or a link around it, or, at the root,
   * any link the root joins (not one inside an EXISTS link: its rows are never joined).
   */
  column(reference: string, context: Source): Column {
    const dot = reference.indexOf('.');
    if (dot < 0) return { source: context, property: this.property(context, reference) };
    const qualifier = reference.slice(0, dot);
    const source = this.byName.get(qualifier);
    if (!source) {
      throw new FetchQueryError(
        `"${qualifier}" in "${reference}" names no link of the query${didYouMean(qualifier, this.byName.keys())}`,
      );
    }
    const visible =
      context === this.root ? isJoined(source) : ancestorsOf(context).includes(source);
    if (!visible) {
      throw new FetchQueryError(
        context === this.root
          ? `"${reference}": link "${qualifier}" is inside an EXISTS link, whose rows are never joined`
          : `"${reference}" inside link "${context.name}": a qualified column there names that link or one around it`,
      );
    }
    return { source, property: this.property(source, reference.slice(dot + 1)) };
  }

  private source(
    node: EntityQuery,
    parent: Source | undefined,
    name: string,
    kind: SourceKind,
  ): Source {
    const type = this.registry.find(node.entity);
    if (!type) {
      const names = this.registry.all().map((t) => t.name);
      throw new FetchQueryError(`unknown entity "${node.entity}"${didYouMean(node.entity, names)}`);
    }
    const source: Source = {
      node,
      type,
      alias: `t${this.sources.length}`,
      name,
      kind,
      parent,
      links: [],
      lateral: false,
    };
    this.sources.push(source);
    for (const link of node.links ?? []) source.links.push(this.link(link, source));
    return source;
  }

  private link(link: LinkQuery, parent: Source): Source {
    const name = link.alias ?? link.entity;
    const source = this.source(link, parent, name, link.linkType ?? 'inner');
    this.byName.set(name, source);
    const from = this.property(source, link.from ?? 'key');
    const reverse = source.type.properties.get(link.to);
    if (
      !link.from &&
      !parent.type.properties.has(link.to) &&
      reverse?.lookup === parent.type.name
    ) {
      // `{ contact TO id_account }` inside account: TO names the parent's side (FETCH.md §2).
      throw new FetchQueryError(
        `${parent.type.name} has no property "${link.to}": for the ${source.type.name} rows that ` +
          `point at it, write { ${link.entity} FROM ${link.to} TO key }`,
      );
    }
    const to = this.property(parent, link.to);
    if (!comparable(from, to)) {
      throw new FetchQueryError(
        `link ${name}: FROM ${source.type.name}.${from.name} (${from.type}) cannot be compared ` +
          `with TO ${parent.type.name}.${to.name} (${to.type})`,
      );
    }
    source.join = { from, to };
    const exists = source.kind === 'exists' || source.kind === 'not-exists';
    const paged = link.offset !== undefined || link.limit !== undefined;
    if (exists && (paged || link.orderBy)) {
      throw new FetchQueryError(
        `link ${name}: an EXISTS link only filters, it takes no ORDER BY, OFFSET or LIMIT`,
      );
    }
    source.lateral = paged;
    return source;
  }
}

/** Whether the root's rows carry this source's columns: no EXISTS on the way. */
export function isJoined(source: Source): boolean {
  return ancestorsOf(source).every((s) => s.kind !== 'exists' && s.kind !== 'not-exists');
}

/** The source and the sources around it, innermost first. */
/** The source itself, its parent, and so on up to the root. */
function ancestorsOf(source: Source): Source[] {
  const chain: Source[] = [];
  for (let s: Source | undefined = source; s; s = s.parent) chain.push(s);
  return chain;
}

function comparable(a: PropertyDefinition, b: PropertyDefinition): boolean {
  if (a.type === b.type) return a.type !== 'json';
  return INTEGERS.includes(a.type) && INTEGERS.includes(b.type);
}
