-- The SQL of src/auth/oidc/oauth-login.repository.ts: written by npm run sql:generate, checked by CI.

-- OauthLoginRepository.consume
-- arguments: "00000000-0000-4000-8000-000000000000"
DELETE FROM oauth_login WHERE id = $1 AND expires_at > now()
  RETURNING code_verifier AS "codeVerifier", nonce;

-- OauthLoginRepository.insert
-- arguments: "00000000-0000-4000-8000-000000000000", "idp", {"codeVerifier":"verifier","nonce":"nonce"}, "https://app.example/signed-in", 10
INSERT INTO oauth_login (id, provider, code_verifier, nonce, redirect_url, expires_at)
  VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6));
