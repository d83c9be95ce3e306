-- The SQL of src/storage/file.repository.ts: written by npm run sql:generate, checked by CI.

-- FileRepository.access
-- arguments: 1, <AccessScope>
-- tenancy: bound to its tenant
SELECT f."id_organization" = $1::int8 AND f."id_user" = $2::int8 AS writable FROM file f
  WHERE f.key = $3::int8 AND f."id_organization" = $4::int8 AND f."id_user" = $5::int8;

-- FileRepository.findVersion (administrator)
-- arguments: 1, undefined, <AccessScope>
-- tenancy: bound to its tenant
SELECT v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated" FROM file f
  JOIN file_version v
  ON v.id_file = f.key AND v.version = coalesce($1::int4, f.latest_version)
  AND v.id_organization = $2::int8
  WHERE f.key = $3::int8 AND f."id_organization" = $4::int8;

-- FileRepository.findVersion (own files)
-- arguments: 1, 2, <AccessScope>
-- tenancy: bound to its tenant
SELECT v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated" FROM file f
  JOIN file_version v
  ON v.id_file = f.key AND v.version = coalesce($1::int4, f.latest_version)
  AND v.id_organization = $2::int8
  WHERE f.key = $3::int8 AND f."id_organization" = $4::int8 AND f."id_user" = $5::int8;

-- FileRepository.listVersions
-- arguments: 1, <AccessScope>
-- tenancy: bound to its tenant
SELECT v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated" FROM file f
  JOIN file_version v ON v.id_file = f.key AND v.id_organization = $1::int8
  WHERE f.key = $2::int8 AND f."id_organization" = $3::int8 AND f."id_user" = $4::int8
  ORDER BY v.version;

-- FileRepository.record (new file)
-- arguments: undefined, {"name":"report.pdf","contentType":"application/pdf","size":3,"sha256":"sha256","driver":"fs"}, <AccessScope>, <transaction>
-- tenancy: bound to its tenant
WITH f AS (INSERT INTO file (name, content_type, latest_version, id_organization, id_business_unit, id_user)
  VALUES ($1, $2, 1, $3,
  $4, $5)
  RETURNING key, latest_version, id_organization, id_business_unit, id_user)
  INSERT INTO file_version AS v (id_file, version, name, content_type, size, sha256,
  driver, id_organization, id_business_unit, id_user)
  SELECT f.key, f.latest_version, $1, $2, $6,
  $7, $8,
  f.id_organization, f.id_business_unit, f.id_user FROM f
  RETURNING v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated", v.id_organization AS "idOrganization",
  v.id_business_unit AS "idBusinessUnit", v.id_user AS "idUser";

-- FileRepository.record (new version)
-- arguments: 1, {"name":"report.pdf","contentType":"application/pdf","size":3,"sha256":"sha256","driver":"fs"}, <AccessScope>, <transaction>
-- tenancy: bound to its tenant
WITH f AS (UPDATE file f SET latest_version = latest_version + 1, name = $1,
  content_type = $2, date_updated = now()
  WHERE f.key = $3::int8 AND f."id_organization" = $4::int8 AND f."id_user" = $5::int8
  RETURNING key, latest_version, id_organization, id_business_unit, id_user)
  INSERT INTO file_version AS v (id_file, version, name, content_type, size, sha256,
  driver, id_organization, id_business_unit, id_user)
  SELECT f.key, f.latest_version, $1, $2, $6,
  $7, $8,
  f.id_organization, f.id_business_unit, f.id_user FROM f
  RETURNING v.id_file AS "fileKey", v.key AS "versionKey", v.version, v.name,
  v.content_type AS "contentType", v.size, v.sha256, v.driver, v.date_created AS "dateCreated", v.id_organization AS "idOrganization",
  v.id_business_unit AS "idBusinessUnit", v.id_user AS "idUser";

-- FileRepository.recordedBlobs
-- arguments: <system scope file-sweep>, "fs", ["sha256"]
-- tenancy: across organizations, system scope file-sweep: the storage sweep looks for bytes no version of any organization names
SELECT DISTINCT sha256 FROM file_version WHERE driver = $1 AND sha256 = ANY($2::text[]);
