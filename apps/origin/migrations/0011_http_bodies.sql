-- The distinct HTTP response bodies of the dataset (src/dataset/rows.ts), each once, keyed by
-- its SHA-256 (hex): a body search (`services.http.response.body: "..."`, v1
-- `80.http.get.body: ...`) reads these few rows and matches the services by their body hash,
-- instead of indexing every service's body word by word. Hand-written, as 0006 is.
CREATE TABLE `http_bodies` (
	`sha256` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL COLLATE NOCASE
);
