import { BadRequestException, HttpException, Injectable } from '@nestjs/common';
import { Identity } from '../common/identity';
import { FetchService } from '../fetch/fetch.service';
import type { EntityQuery, FilterGroup } from '../fetch/fetch.tree';
import { detailOfException } from '../http/http-exception.filter';

/**
 * A webhook's condition: the WHERE part of a FETCH query (`status = 'paid' AND total > 100`)
 * on the record after the change, run as the webhook's owner.
 */
@Injectable()
export class WebhookCondition {
  constructor(private readonly fetch: FetchService) {}

  /** A 400 naming `condition` unless it compiles on `entity` as `identity` may read it. */
  async check(identity: Identity, entity: string, condition: string): Promise<void> {
    try {
      await this.fetch.metadata(identity, {
        json: query(entity, this.filterOf(entity, condition)),
      });
    } catch (error) {
      throw asConditionError(error, entity);
    }
  }

  /** Whether the record `key` of `entity` meets the condition, as `identity` reads it. */
  async matches(
    identity: Identity,
    entity: string,
    key: number,
    condition: string,
  ): Promise<boolean> {
    const filter: FilterGroup[] = [
      {
        type: 'And',
        conditions: [{ property: 'key', operator: 'eq', value: key }],
        filter: this.filterOf(entity, condition),
      },
    ];
    try {
      const { rows } = await this.fetch.run(identity, { json: query(entity, filter) }, {});
      return rows.length > 0;
    } catch (error) {
      throw asConditionError(error, entity);
    }
  }

  /** The condition's filter groups; only a condition (no links, order or paging) is taken. */
  private filterOf(entity: string, condition: string): FilterGroup[] {
    let parsed: EntityQuery;
    try {
      [parsed] = this.fetch.parse(`FETCH ${entity} (key) WHERE ${condition}`).fetch;
    } catch (error) {
      throw asConditionError(error, entity);
    }
    const { filter, links, orderBy, offset, limit } = parsed;
    if (links || orderBy || offset !== undefined || limit !== undefined || !filter) {
      throw new BadRequestException(
        `condition: only a condition is taken (what follows WHERE in FETCH), not links, ORDER BY, OFFSET or LIMIT`,
      );
    }
    return filter;
  }
}

function query(entity: string, filter: FilterGroup[]): EntityQuery {
  return { entity, properties: [{ property: 'key' }], filter, limit: 1 };
}

function asConditionError(error: unknown, entity: string): unknown {
  if (!(error instanceof HttpException) || error.getStatus() >= 500) return error;
  return new BadRequestException(`condition (on ${entity}): ${detailOfException(error)}`);
}
