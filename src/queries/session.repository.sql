-- The SQL of src/auth/session.repository.ts: written by npm run sql:generate, checked by CI.

-- SessionRepository.delete
-- arguments: 1
DELETE FROM session WHERE key = $1;

-- SessionRepository.deleteByToken
-- arguments: <system scope sign-in>, "sha256", <transaction>
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
WITH gone AS (
  DELETE FROM session WHERE token_hash = $1 OR previous_token_hash = $1 RETURNING id_user
  )
  SELECT u.key, u.user_name AS "userName", u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit"
  FROM gone JOIN "user" u ON u.key = gone.id_user LIMIT 1;

-- SessionRepository.deleteExpired
-- arguments: 1800
DELETE FROM session
  WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => $1);

-- SessionRepository.deleteOthers
-- arguments: 1, 2, <transaction>
DELETE FROM session WHERE id_user = $1 AND key IS DISTINCT FROM $2;

-- SessionRepository.find
-- arguments: <system scope sign-in>, "sha256", {"idleSeconds":1800,"rotateSeconds":900,"touchSeconds":30}
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
WITH found AS (
  SELECT s.key AS "sessionKey", s.csrf_token AS "csrfToken", s.auth_method AS "authMethod",
  s.locale, s.token_hash = $1 AS "isCurrentToken",
  s.rotated_at < now() - make_interval(secs => $3) AS "needsRotation",
  s.last_seen_at < now() - make_interval(secs => $4) AS "needsTouch",
  s.oidc_provider AS "oidcProvider", s.refresh_token AS "refreshToken",
  s.access_expires_at <= now() AS "accessExpired",
  u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.id_organization AS "idOrganization", u.id_business_unit AS "idBusinessUnit", u.is_admin AS "isAdmin"
  FROM session s JOIN "user" u ON u.key = s.id_user
  WHERE (s.token_hash = $1 OR (s.previous_token_hash = $1 AND s.previous_valid_until > now()))
  AND s.expires_at > now()
  AND s.last_seen_at > now() - make_interval(secs => $2)
  AND u.active
  -- An OpenID session ends with its access token, unless a refresh token renews it.
  AND (s.access_expires_at IS NULL OR s.access_expires_at > now() OR s.refresh_token IS NOT NULL)
  ), touched AS (
  UPDATE session SET last_seen_at = now()
  WHERE key = (SELECT "sessionKey" FROM found WHERE "needsTouch")
  )
  SELECT * FROM found;

-- SessionRepository.insert
-- arguments: {"tokenHash":"sha256","csrfToken":"csrf","userKey":1,"authMethod":"session","locale":"RO","absoluteSeconds":43200,"oidcProvider":null,"accessExpiresAt":null,"refreshToken":null}
INSERT INTO session (token_hash, csrf_token, id_user, auth_method, locale, expires_at,
  oidc_provider, access_expires_at, refresh_token)
  VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7, $8, $9)
  RETURNING key;

-- SessionRepository.rotate
-- arguments: 1, "old sha256", "new sha256", 60
UPDATE session
  SET previous_token_hash = token_hash,
  previous_valid_until = now() + make_interval(secs => $4),
  token_hash = $3, rotated_at = now()
  WHERE key = $1 AND token_hash = $2;

-- SessionRepository.updateTokens
-- arguments: 1, 1970-01-01T00:00:00.000Z, "sealed"
UPDATE session SET access_expires_at = $2, refresh_token = coalesce($3, refresh_token)
  WHERE key = $1;
