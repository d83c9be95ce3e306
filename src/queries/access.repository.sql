-- The SQL of src/access/access.repository.ts: written by npm run sql:generate, checked by CI.

-- AccessRepository.grantsOf
-- arguments: 1, <tenant 1>
-- tenancy: bound to its tenant
SELECT
  (SELECT coalesce(json_agg(json_build_object('id_role', p.id_role,
  'entity_name', p.entity_name, 'create', p."create", 'read', p.read,
  'write', p.write, 'delete', p."delete")), '[]')
  FROM user_role ur JOIN role_privilege p ON p.id_role = ur.id_role
  WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
  AND p.id_organization = $2) AS privileges,
  (SELECT coalesce(json_agg(json_build_object('entity_name', f.entity_name,
  'property', f.property, 'read', f.read, 'update', f.update)), '[]')
  FROM user_role ur JOIN role_field_permission f ON f.id_role = ur.id_role
  WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
  AND f.id_organization = $2) AS fields,
  (SELECT coalesce(json_agg(r.name), '[]')
  FROM user_role ur JOIN role r ON r.key = ur.id_role
  WHERE ur.id_parent_user = $1 AND ur.id_organization = $2
  AND r.id_organization = $2) AS roles;

-- AccessRepository.unitTree
-- arguments: 1, <tenant 1>
-- tenancy: bound to its tenant
WITH RECURSIVE tree AS (
  SELECT key FROM business_unit WHERE key = $1 AND id_organization = $2
  UNION
  SELECT b.key FROM business_unit b
  JOIN tree t ON b.id_parent_business_unit = t.key AND b.id_organization = $2
  ) SELECT key FROM tree;
