import { Injectable, NotFoundException } from '@nestjs/common';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { didYouMean } from '../common/nearest-name';
import { EntityRegistry } from '../model/entity.registry';
import { describeEntity, EntityDescription } from './entity-description';

/** The entity types the caller may read, as the registry knows them. */
@Injectable()
export class MetadataService {
  constructor(
    private readonly registry: EntityRegistry,
    private readonly access: AccessService,
  ) {}

  async entities(identity: Identity): Promise<EntityDescription[]> {
    const scope = await this.access.scopeOf(identity);
    return this.registry
      .all()
      .filter((type) => scope.may(type, 'read'))
      .map((type) => describeEntity(type, (property) => scope.canRead(type, property)));
  }

  /** One type; one the caller may not read is as unknown as a missing one (404). */
  async entity(identity: Identity, name: string): Promise<EntityDescription> {
    const type = this.registry.find(name);
    const scope = await this.access.scopeOf(identity);
    if (!type || !scope.may(type, 'read')) {
      const readable = this.registry.all().filter((other) => scope.may(other, 'read'));
      const hint = didYouMean(
        name,
        readable.map((other) => other.name),
      );
      throw new NotFoundException(`Unknown entity type "${name}"${hint}`);
    }
    return describeEntity(type, (property) => scope.canRead(type, property));
  }
}
