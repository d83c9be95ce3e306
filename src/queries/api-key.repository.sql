-- The SQL of src/auth/api-key.repository.ts: written by npm run sql:generate, checked by CI.

-- ApiKeyRepository.insert
-- arguments: <tenant 1>, 1, "reporting job", "sha256", null, <transaction>
-- tenancy: bound to its tenant
WITH k AS (
  INSERT INTO api_key (id_user, name, secret_hash, expires_at)
  SELECT key, $2, $3, $4 FROM "user" WHERE key = $1 AND id_organization = $5
  RETURNING key AS id, name, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt", id_user
  )
  SELECT k.id, k.name, k."createdAt", k."expiresAt", k."lastUsedAt", u.key, u.user_name AS "userName", u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit"
  FROM k JOIN "user" u ON u.key = k.id_user AND u.id_organization = $5;

-- ApiKeyRepository.listOf
-- arguments: 1
SELECT key AS id, name, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt" FROM api_key WHERE id_user = $1 AND revoked_at IS NULL ORDER BY key;

-- ApiKeyRepository.revoke
-- arguments: <tenant 1>, 1, 1, <transaction>
-- tenancy: bound to its tenant
UPDATE api_key k SET revoked_at = now() FROM "user" u
  WHERE k.key = $1 AND k.id_user = $2 AND k.revoked_at IS NULL AND u.key = k.id_user
  AND u.id_organization = $3
  RETURNING k.name, u.key, u.user_name AS "userName", u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit";

-- ApiKeyRepository.use
-- arguments: <system scope sign-in>, "sha256"
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
UPDATE api_key k SET last_used_at = now()
  FROM "user" u
  WHERE k.secret_hash = $1 AND u.key = k.id_user AND u.active
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
  RETURNING k.key AS "apiKeyId", k.expires_at AS "expiresAt", u.locale, u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.id_organization AS "idOrganization", u.id_business_unit AS "idBusinessUnit", u.is_admin AS "isAdmin";
