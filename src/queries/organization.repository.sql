-- The SQL of src/directory/organization.repository.ts: written by npm run sql:generate, checked by CI.

-- OrganizationRepository.any
-- arguments: <system scope setup>
-- tenancy: across organizations, system scope setup: the admin CLI and the first boot make and find organizations, units and users
SELECT 1 FROM organization LIMIT 1;

-- OrganizationRepository.drawKeys
-- arguments: <transaction>
SELECT nextval(pg_get_serial_sequence('organization', 'key')) AS "organizationKey",
  nextval(pg_get_serial_sequence('business_unit', 'key')) AS "businessUnitKey";

-- OrganizationRepository.findBusinessUnit
-- arguments: <tenant 1>, "Main"
-- tenancy: bound to its tenant
SELECT key, name, id_organization AS "idOrganization" FROM business_unit
  WHERE id_organization = $1 AND name = $2;

-- OrganizationRepository.findBusinessUnitByKey
-- arguments: <tenant 1>, 1
-- tenancy: bound to its tenant
SELECT key, name, id_organization AS "idOrganization" FROM business_unit
  WHERE key = $1 AND id_organization = $2;

-- OrganizationRepository.findByName
-- arguments: <system scope setup>, "Demo"
-- tenancy: across organizations, system scope setup: the admin CLI and the first boot make and find organizations, units and users
SELECT key, name, id_business_unit AS "idBusinessUnit" FROM organization WHERE name = $1;

-- OrganizationRepository.findPlace
-- arguments: <system scope sign-in>, "Demo", "Main", <transaction>
-- tenancy: across organizations, system scope sign-in: a sign-in looks the user up before any organization is known
SELECT o.key AS "organizationKey", b.key AS "businessUnitKey" FROM organization o
  JOIN business_unit b ON b.id_organization = o.key AND b.name = $2
  WHERE o.name = $1;

-- OrganizationRepository.insertBusinessUnit
-- arguments: <tenant 1>, "Sales", {"organizationKey":1,"businessUnitKey":2,"userKey":1}, <transaction>
-- tenancy: bound to its tenant
INSERT INTO business_unit (key, name, id_organization, id_business_unit, id_user)
  VALUES ($2, $1, $3, $2, $4) RETURNING key, name, id_organization AS "idOrganization";

-- OrganizationRepository.insertOrganization
-- arguments: <system scope setup>, "Acme", {"organizationKey":2,"businessUnitKey":1,"userKey":1}, <transaction>
-- tenancy: across organizations, system scope setup: the admin CLI and the first boot make and find organizations, units and users
INSERT INTO organization (key, name, id_organization, id_business_unit, id_user)
  VALUES ($1, $2, $1, $3, $4) RETURNING key, name, id_business_unit AS "idBusinessUnit";

-- OrganizationRepository.isAtOrAbove
-- arguments: <tenant 1>, 1, 2, <transaction>
-- tenancy: bound to its tenant
WITH RECURSIVE above AS (
  SELECT key, id_parent_business_unit FROM business_unit
  WHERE key = $1 AND id_organization = $3
  UNION
  SELECT b.key, b.id_parent_business_unit FROM business_unit b
  JOIN above a ON b.key = a.id_parent_business_unit AND b.id_organization = $3
  ) SELECT 1 FROM above WHERE key = $2;

-- OrganizationRepository.lockCreation
-- arguments: <transaction>
SELECT pg_advisory_xact_lock(hashtext('atrium.organization'));
