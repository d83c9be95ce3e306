import { Column } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity, ChildGroup } from '../../model/entity.decorators';
import { FileVersion } from './file-version.entity';

/**
 * A stored file: its latest name and type, and its versions. Readable through the entity
 * API and FETCH like any entity type; written only through /storage.
 */
@BusinessEntity('file', { write: 'own-routes' })
export class StoredFile extends SystemColumns {
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  contentType: string;

  @Column({ type: 'integer', default: 1 })
  latestVersion: number;

  @ChildGroup(() => FileVersion)
  versions?: FileVersion[];
}
