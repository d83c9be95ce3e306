import { getMetadataArgsStorage } from 'typeorm';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityClass = Function;

/**
 * Every TypeORM entity class loaded into this process. A module's entity files load with
 * the module, so once app.module.ts is loaded these are the entities of the modules the
 * app imports: the one list the app, the CLI and the migration tool use (`appEntities`),
 * filled by the modules themselves.
 */
export function entityClasses(): EntityClass[] {
  return getMetadataArgsStorage()
    .tables.filter((table) => table.type === 'regular' && typeof table.target === 'function')
    .map((table) => table.target as EntityClass);
}
