-- The SQL of src/demo/invoice-number.repository.ts: written by npm run sql:generate, checked by CI.

-- InvoiceNumberRepository.highest
-- arguments: <tenant 1>, "INV-2026-", <transaction>
-- tenancy: bound to its tenant
SELECT max(number) AS last FROM invoice WHERE id_organization = $1 AND number LIKE $2;
