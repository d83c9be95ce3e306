-- The SQL of src/demo/demo-seed.repository.ts: written by npm run sql:generate, checked by CI.

-- DemoSeedRepository.backdateInvoices
-- arguments: <tenant 1>, [1], ["2025-01-31T12:00:00Z"], <transaction>
-- tenancy: bound to its tenant
UPDATE invoice i SET date_created = d.created, date_updated = d.created
  FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created)
  WHERE i.key = d.key AND i.id_organization = $3;

-- DemoSeedRepository.giveAccounts
-- arguments: <tenant 1>, [1], {"organizationKey":1,"businessUnitKey":1,"userKey":1}, <transaction>
-- tenancy: bound to its tenant
UPDATE account a SET id_user = $2, id_business_unit = $3 WHERE a.key = ANY($1::int8[]) AND a.id_organization = $4;
UPDATE contact c SET id_user = $2, id_business_unit = $3 WHERE c.id_account = ANY($1::int8[]) AND c.id_organization = $4;
UPDATE invoice i SET id_user = $2, id_business_unit = $3 WHERE i.id_account = ANY($1::int8[]) AND i.id_organization = $4;
UPDATE invoice_line l SET id_user = $2, id_business_unit = $3 FROM invoice i
  WHERE l.id_invoice = i.key AND i.id_account = ANY($1::int8[])
  AND l.id_organization = $4 AND i.id_organization = $4;
