-- The SQL of src/directory/user.repository.ts: written by npm run sql:generate, checked by CI.

-- UserRepository.findByKey
-- arguments: <tenant 1>, 1
-- tenancy: bound to its tenant
SELECT u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser" FROM "user" u WHERE u.key = $1 AND u.id_organization = $2;

-- UserRepository.findByName
-- arguments: <system scope sign-in>, "admin"
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
SELECT u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser" FROM "user" u WHERE u.user_name = $1;

-- UserRepository.findByOidcSubject
-- arguments: <system scope sign-in>, "https://issuer.example", "subject"
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
SELECT u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser" FROM "user" u WHERE u.oidc_issuer = $1 AND u.oidc_subject = $2;

-- UserRepository.insert
-- arguments: <tenant 1>, {"userName":"someone","fullName":"Some One","passwordHash":"hash","isAdmin":false,"businessUnitKey":1,"createdBy":1}, <transaction>
-- tenancy: bound to its tenant
WITH drawn AS (SELECT nextval(pg_get_serial_sequence('"user"', 'key')) AS key)
  INSERT INTO "user" AS u (key, user_name, full_name, password_hash, is_admin,
  id_organization, id_business_unit, id_user, oidc_issuer, oidc_subject)
  SELECT drawn.key, $1, $2, $3, $4, $5, $6, coalesce($7, drawn.key), $8, $9 FROM drawn
  ON CONFLICT (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL DO NOTHING
  RETURNING u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser";

-- UserRepository.passwordHash
-- arguments: <tenant 1>, 1
-- tenancy: bound to its tenant
SELECT password_hash AS "passwordHash" FROM "user" WHERE key = $1 AND id_organization = $2;

-- UserRepository.setPasswordHash
-- arguments: <tenant 1>, 1, "hash", <transaction>
-- tenancy: bound to its tenant
UPDATE "user" SET password_hash = $2, date_updated = now()
  WHERE key = $1 AND id_organization = $3;

-- UserRepository.withPasswordHash
-- arguments: <system scope sign-in>, "admin"
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
SELECT u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser", u.password_hash AS "passwordHash" FROM "user" u WHERE u.user_name = $1;
