import { Injectable } from '@nestjs/common';
import { SystemScope, systemScope } from '../access/access.tenant';
import { AccessScope } from '../access/access.scope';
import { SAMPLE_SCOPES } from '../access/scope.samples';
import type { StorageDriver } from '../config/environment';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { SqlParameters } from '../database/sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { EntityRegistry } from '../model/entity.registry';
import { EntityType } from '../model/entity-type';

export interface VersionRecord {
  fileKey: number;
  /** The file_version row's own key. */
  versionKey: number;
  version: number;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  driver: StorageDriver;
  dateCreated: Date;
}

/** The owner columns of a version written (its file's), for the change log. */
export interface RecordedOwner {
  idOrganization: number;
  idBusinessUnit: number;
  idUser: number;
}

export interface NewVersion {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  driver: StorageDriver;
}

const OWN_FILES = SAMPLE_SCOPES.ownRecords('file');
const NEW_VERSION: NewVersion = {
  name: 'report.pdf',
  contentType: 'application/pdf',
  size: 3,
  sha256: 'sha256',
  driver: 'fs',
};

const VERSION_COLUMNS = `v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated"`;

/**
 * The SQL of file records (`file`, `file_version`): each statement limited by the caller's
 * AccessScope for the file (a version belongs to its file, and has its owner).
 */
@Injectable()
export class FileRepository {
  constructor(
    private readonly sql: Sql,
    private readonly registry: EntityRegistry,
  ) {}

  /** `file`: the type whose privileges govern files (the registry is complete after init). */
  get type(): EntityType {
    return this.registry.find('file')!;
  }

  /** One version of a file (the latest without `version`), if the caller may read the file. */
  @GenerateSql(
    { name: 'administrator', params: [1, undefined, SAMPLE_SCOPES.administrator] },
    { name: 'own files', params: [1, 2, OWN_FILES] },
  )
  findVersion(
    fileKey: number,
    version: number | undefined,
    scope: AccessScope,
  ): Promise<VersionRecord | undefined> {
    const params = new SqlParameters();
    return this.sql.row(
      `SELECT ${VERSION_COLUMNS} FROM file f
         JOIN file_version v
           ON v.id_file = f.key AND v.version = coalesce(${params.bind(version ?? null, 'int4')}, f.latest_version)
          AND ${this.ofTenant(scope, 'v', params)}
        WHERE f.key = ${params.bind(fileKey, 'int8')} AND ${this.readable(scope, params)}`,
      params.values,
    );
  }

  /** Every version of a file, first to last; none when the caller may not read it. */
  @GenerateSql({ params: [1, OWN_FILES] })
  listVersions(fileKey: number, scope: AccessScope): Promise<VersionRecord[]> {
    const params = new SqlParameters();
    return this.sql.rows(
      `SELECT ${VERSION_COLUMNS} FROM file f
         JOIN file_version v ON v.id_file = f.key AND ${this.ofTenant(scope, 'v', params)}
        WHERE f.key = ${params.bind(fileKey, 'int8')} AND ${this.readable(scope, params)}
        ORDER BY v.version`,
      params.values,
    );
  }

  /** What the caller may do with a file: nothing (as if missing), read it, or add versions. */
  @GenerateSql({ params: [1, OWN_FILES] })
  async access(
    fileKey: number,
    scope: AccessScope,
    tx?: Transaction,
  ): Promise<'none' | 'read' | 'write'> {
    const params = new SqlParameters();
    const row = await this.sql.row<{ writable: boolean }>(
      `SELECT ${scope.rows(this.type, 'write', 'f', params)} AS writable FROM file f
        WHERE f.key = ${params.bind(fileKey, 'int8')} AND ${this.readable(scope, params)}`,
      params.values,
      tx,
    );
    return row ? (row.writable ? 'write' : 'read') : 'none';
  }

  /**
   * Records a version in one statement: a new file at version 1, owned by the caller, or
   * the next version of `fileKey` (none when the caller may not write that file). The
   * file takes the version's name and type; the version, the file's owner.
   */
  @GenerateSql(
    { name: 'new file', params: [undefined, NEW_VERSION, OWN_FILES, IN_TRANSACTION] },
    { name: 'new version', params: [1, NEW_VERSION, OWN_FILES, IN_TRANSACTION] },
  )
  record(
    fileKey: number | undefined,
    version: NewVersion,
    scope: AccessScope,
    tx?: Transaction,
  ): Promise<(VersionRecord & RecordedOwner) | undefined> {
    const params = new SqlParameters();
    const name = params.bind(version.name);
    const contentType = params.bind(version.contentType);
    const { organizationKey, businessUnitKey, userKey } = scope.identity;
    const file =
      fileKey === undefined
        ? `INSERT INTO file (name, content_type, latest_version, id_organization, id_business_unit, id_user)
           VALUES (${name}, ${contentType}, 1, ${params.bind(organizationKey)},
                   ${params.bind(businessUnitKey)}, ${params.bind(userKey)})
           RETURNING key, latest_version, id_organization, id_business_unit, id_user`
        : `UPDATE file f SET latest_version = latest_version + 1, name = ${name},
                  content_type = ${contentType}, date_updated = now()
            WHERE f.key = ${params.bind(fileKey, 'int8')} AND ${scope.rows(this.type, 'write', 'f', params)}
           RETURNING key, latest_version, id_organization, id_business_unit, id_user`;
    return this.sql.row(
      `WITH f AS (${file})
       INSERT INTO file_version AS v (id_file, version, name, content_type, size, sha256,
                                      driver, id_organization, id_business_unit, id_user)
       SELECT f.key, f.latest_version, ${name}, ${contentType}, ${params.bind(version.size)},
              ${params.bind(version.sha256)}, ${params.bind(version.driver)},
              f.id_organization, f.id_business_unit, f.id_user FROM f
       RETURNING ${VERSION_COLUMNS}, v.id_organization AS "idOrganization",
                 v.id_business_unit AS "idBusinessUnit", v.id_user AS "idUser"`,
      params.values,
      tx,
    );
  }

  private readable(scope: AccessScope, params: SqlParameters): string {
    return scope.rows(this.type, 'read', 'f', params);
  }

  /** A version's rows are its file's organization's: bound as its own, for each statement. */
  private ofTenant(scope: AccessScope, alias: string, params: SqlParameters): string {
    return `${alias}.id_organization = ${params.bind(scope.tenant.organizationKey, 'int8')}`;
  }

  /** Which of these bytes a version of any organization names, on `driver`. */
  @GenerateSql({ params: [systemScope('file-sweep'), 'fs', ['sha256']] })
  async recordedBlobs(
    _system: SystemScope,
    driver: StorageDriver,
    sha256s: string[],
  ): Promise<Set<string>> {
    const rows = await this.sql.rows<{ sha256: string }>(
      `SELECT DISTINCT sha256 FROM file_version WHERE driver = $1 AND sha256 = ANY($2::text[])`,
      [driver, sha256s],
    );
    return new Set(rows.map((row) => row.sha256));
  }
}
