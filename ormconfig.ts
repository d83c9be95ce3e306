import { DataSource } from 'typeorm';
import { ACCESS_ENTITIES } from './src/access/entities';
import { AUTH_ENTITIES } from './src/auth/entities';
import { buildDataSourceOptions } from './src/database/data-source.options';
import { DEMO_ENTITIES } from './src/demo/entities';
import { STORAGE_ENTITIES } from './src/storage/entities';

/** DataSource for the TypeORM CLI (`npm run migration:generate`, `migration:run`). */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to the PostgreSQL server the TypeORM CLI should use');

export default new DataSource({
  ...buildDataSourceOptions({ url, poolSize: 2 }),
  entities: [...AUTH_ENTITIES, ...ACCESS_ENTITIES, ...DEMO_ENTITIES, ...STORAGE_ENTITIES],
  migrationsRun: false,
});
