import { Column, Index, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../../model/system-columns.entity';
import { BusinessEntity } from '../../model/entity.decorators';
import type { StoredFile } from './stored-file.entity';

/** One upload of a file: a child of `file`, group `file_file_version`. */
@BusinessEntity('file_version', { write: 'nobody' })
@Index(['idFile', 'version'], { unique: true })
export class FileVersion extends SystemColumns {
  @Column({ type: 'bigint' })
  idFile: number;

  @ManyToOne('StoredFile', { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id_file' })
  file?: StoredFile;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 255 })
  contentType: string;

  @Column({ type: 'bigint' })
  size: number;

  /** Of the bytes: the ETag, and where content-addressed backends keep them. */
  @Column({ type: 'char', length: 64 })
  sha256: string;

  /** The backend holding the bytes (`fs`, `db`), so a change of STORAGE_DRIVER keeps them readable. */
  @Column({ type: 'varchar', length: 10 })
  driver: string;
}
