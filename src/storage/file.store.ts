import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Identity } from '../common/identity';
import { StorageDriver } from './backends/storage-backend';

export interface VersionRecord {
  fileKey: number;
  version: number;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  driver: StorageDriver;
  dateCreated: Date;
}

export interface NewVersion {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  driver: StorageDriver;
}

const VERSION_COLUMNS = `v.id_file AS "fileKey", v.version, v.name, v.content_type AS "contentType",
  v.size, v.sha256, v.driver, v.date_created AS "dateCreated"`;

/** The SQL of file records (`file`, `file_version`), each statement within an organization. */
@Injectable()
export class FileStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One version of a file (the latest without `version`), if the file is the organization's. */
  async findVersion(
    fileKey: number,
    version: number | undefined,
    organizationKey: number,
  ): Promise<VersionRecord | undefined> {
    const [row] = await this.dataSource.query(
      `SELECT ${VERSION_COLUMNS} FROM file f
         JOIN file_version v ON v.id_file = f.key AND v.version = coalesce($2::int4, f.latest_version)
        WHERE f.key = $1 AND f.id_organization = $3`,
      [fileKey, version ?? null, organizationKey],
    );
    return row;
  }

  /** Every version of a file, first to last; none when it is not the organization's. */
  listVersions(fileKey: number, organizationKey: number): Promise<VersionRecord[]> {
    return this.dataSource.query(
      `SELECT ${VERSION_COLUMNS} FROM file f JOIN file_version v ON v.id_file = f.key
        WHERE f.key = $1 AND f.id_organization = $2 ORDER BY v.version`,
      [fileKey, organizationKey],
    );
  }

  async exists(
    fileKey: number,
    organizationKey: number,
    manager?: EntityManager,
  ): Promise<boolean> {
    const rows = await (manager ?? this.dataSource.manager).query(
      `SELECT 1 FROM file WHERE key = $1 AND id_organization = $2`,
      [fileKey, organizationKey],
    );
    return rows.length > 0;
  }

  /**
   * Records a version in one statement: a new file at version 1, or the next version of
   * `fileKey` (none when that file is not the organization's). The file takes the
   * version's name and type.
   */
  async record(
    manager: EntityManager,
    fileKey: number | undefined,
    version: NewVersion,
    owner: Identity,
  ): Promise<VersionRecord | undefined> {
    const values = [
      version.name,
      version.contentType,
      owner.organizationKey,
      owner.businessUnitKey,
      owner.userKey,
      version.size,
      version.sha256,
      version.driver,
    ];
    const file =
      fileKey === undefined
        ? `INSERT INTO file (name, content_type, latest_version, id_organization, id_business_unit, id_user)
           VALUES ($1, $2, 1, $3, $4, $5) RETURNING key, latest_version`
        : `UPDATE file SET latest_version = latest_version + 1, name = $1, content_type = $2,
                  date_updated = now()
            WHERE key = $9 AND id_organization = $3 RETURNING key, latest_version`;
    const [row] = await manager.query(
      `WITH f AS (${file})
       INSERT INTO file_version AS v (id_file, version, name, content_type, size, sha256,
                                      driver, id_organization, id_business_unit, id_user)
       SELECT f.key, f.latest_version, $1, $2, $6, $7, $8, $3, $4, $5 FROM f
       RETURNING ${VERSION_COLUMNS}`,
      fileKey === undefined ? values : [...values, fileKey],
    );
    return row;
  }

  /** Which of these bytes a version of any organization names, on `driver`. */
  async recordedBlobs(driver: StorageDriver, sha256s: string[]): Promise<Set<string>> {
    const rows: { sha256: string }[] = await this.dataSource.query(
      `SELECT DISTINCT sha256 FROM file_version WHERE driver = $1 AND sha256 = ANY($2::text[])`,
      [driver, sha256s],
    );
    return new Set(rows.map((row) => row.sha256));
  }
}
