import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityMetadata } from 'typeorm';

/** What TypeORM knows of the entity classes: the entity model is built from it. */
@Injectable()
export class OrmMetadata {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  entities(): EntityMetadata[] {
    return this.dataSource.entityMetadatas;
  }
}
