-- The SQL of src/auth/login-limit.repository.ts: written by npm run sql:generate, checked by CI.

-- LoginLimitRepository.sweep
-- arguments: 0
DELETE FROM login_limit WHERE expire < $1;
