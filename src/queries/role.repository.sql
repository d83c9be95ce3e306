-- The SQL of src/directory/role.repository.ts: written by npm run sql:generate, checked by CI.

-- RoleRepository.grantRoles
-- arguments: <tenant 1>, 1, {"organizationKey":1,"businessUnitKey":1,"userKey":1}, ["reader"], <transaction>
-- tenancy: bound to its tenant
SELECT key, name FROM role WHERE id_organization = $1 AND name = ANY($2::text[]);
INSERT INTO user_role (id_parent_user, id_role, id_organization, id_business_unit, id_user)
  SELECT $1, role_key, $3, $4, $5 FROM unnest($2::int8[]) AS role_key
  ON CONFLICT (id_parent_user, id_role) DO NOTHING;

-- RoleRepository.insertMemberRole
-- arguments: <tenant 1>, {"organizationKey":1,"businessUnitKey":1,"userKey":1}, [{"entity":"account","property":"credit_limit"}], <transaction>
-- tenancy: bound to its tenant
WITH r AS (
  INSERT INTO role (name, description, id_organization, id_business_unit, id_user)
  VALUES ($1, 'Organization depth on every entity type', $2, $3, $4) RETURNING key),
  p AS (
  INSERT INTO role_privilege (id_role, entity_name, "create", read, write, "delete",
  id_organization, id_business_unit, id_user)
  SELECT r.key, $5, 'organization', 'organization', 'organization', 'organization',
  $2, $3, $4 FROM r RETURNING 1),
  f AS (
  INSERT INTO role_field_permission (id_role, entity_name, property, read, update,
  id_organization, id_business_unit, id_user)
  SELECT r.key, f.entity, f.property, true, true, $2, $3, $4
  FROM r, unnest($6::text[], $7::text[]) AS f(entity, property) RETURNING 1)
  SELECT (SELECT key FROM r) AS key,
  ((SELECT count(*) FROM p) + (SELECT count(*) FROM f))::int4 AS rows;
