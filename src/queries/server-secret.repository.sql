-- The SQL of src/database/server-secret.repository.ts: written by npm run sql:generate, checked by CI.

-- ServerSecretRepository.claim
-- arguments: "cursor", "candidate"
INSERT INTO server_secret (name, value) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value;
