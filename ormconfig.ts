import { DataSource } from 'typeorm';
import { appEntities } from './src/app.module';
import { buildDataSourceOptions } from './src/database/data-source.options';

/** DataSource for the TypeORM CLI (`npm run migration:run`, `typeorm -- …`). */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to the PostgreSQL server the TypeORM CLI should use');

export default new DataSource({
  ...buildDataSourceOptions({ url, poolSize: 2 }),
  entities: appEntities(),
  migrationsRun: false,
});
