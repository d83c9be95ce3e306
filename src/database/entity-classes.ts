import { EntityClassOrSchema } from '@nestjs/typeorm/dist/interfaces/entity-class-or-schema.type';
// Where TypeOrmModule.forFeature records its entities for autoLoadEntities: not in the
// package's index, so entity-classes.spec.ts fails when @nestjs/typeorm moves it.
import { EntitiesMetadataStorage } from '@nestjs/typeorm/dist/entities-metadata.storage';
import { DEFAULT_DATA_SOURCE_NAME } from '@nestjs/typeorm/dist/typeorm.constants';

/** An entity class, or a schema, as TypeOrmModule.forFeature takes them. */
export type EntityClass = EntityClassOrSchema;

/**
 * The entity classes the loaded modules register with `TypeOrmModule.forFeature`: the
 * list the app's data source loads (`autoLoadEntities`). Once app.module.ts is loaded,
 * the app's whole list, which the CLI and the migration tool take too (`appEntities`):
 * filled by the modules themselves, nothing to register by hand.
 */
export function entityClasses(): EntityClass[] {
  return [...EntitiesMetadataStorage.getEntitiesByDataSource(DEFAULT_DATA_SOURCE_NAME)];
}
