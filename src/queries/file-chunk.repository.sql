-- The SQL of src/storage/backends/file-chunk.repository.ts: written by npm run sql:generate, checked by CI.

-- FileChunkRepository.fileUnder
-- arguments: "upload:1", "sha256", <transaction>
SELECT pg_advisory_xact_lock(hashtext($1));
SELECT 1 FROM file_chunk WHERE blob_key = $1 LIMIT 1;
UPDATE file_chunk SET blob_key = $1 WHERE blob_key = $2;

-- FileChunkRepository.insert
-- arguments: "upload:1", 0, <3 bytes>, <transaction>
INSERT INTO file_chunk (blob_key, seq, data) VALUES ($1, $2, $3);

-- FileChunkRepository.read
-- arguments: "sha256", 0
SELECT data FROM file_chunk WHERE blob_key = $1 AND seq = $2;
