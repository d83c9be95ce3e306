-- The SQL of src/demo/demo-seed.repository.ts: written by npm run sql:generate, checked by CI.

-- DemoSeedRepository.backdateInvoices
-- arguments: [1], ["2025-01-31T12:00:00Z"], <transaction>
UPDATE invoice i SET date_created = d.created, date_updated = d.created
  FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created) WHERE i.key = d.key;

-- DemoSeedRepository.giveAccounts
-- arguments: [1], {"organizationKey":1,"businessUnitKey":1,"userKey":1}, <transaction>
UPDATE account SET id_user = $2, id_business_unit = $3 WHERE key = ANY($1::int8[]);
UPDATE contact SET id_user = $2, id_business_unit = $3 WHERE id_account = ANY($1::int8[]);
UPDATE invoice SET id_user = $2, id_business_unit = $3 WHERE id_account = ANY($1::int8[]);
UPDATE invoice_line l SET id_user = $2, id_business_unit = $3 FROM invoice i
  WHERE l.id_invoice = i.key AND i.id_account = ANY($1::int8[]);
