import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Query and export jobs (POST /api/v1/query, POST /api/v1/export). One table for both kinds:
 * they share the lifecycle (pending → success | error, then retention) and the queue.
 * Result pages and export files live in R2 under `query-results/<id>/` and `exports/<id>/`.
 * `started_at`/`heartbeat_at` let the scheduled sweep (jobs/expiry.ts) end a job whose work was
 * lost within minutes.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    /** `job_<random>`. */
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["query", "export"] }).notNull(),
    /** Query: pending | success | error. Export: also expired. */
    status: text("status", { enum: ["pending", "success", "error", "expired"] }).notNull(),
    /** The origin account that started the job; other accounts see 404. */
    owner: text("owner").notNull(),
    /** The SQL exactly as submitted (echoed in `configuration.query`). */
    query: text("query").notNull(),
    /** The SQL the guard proved safe, regenerated from its syntax tree: what actually runs. */
    checkedSql: text("checked_sql").notNull(),
    /** Export options as JSON (format, flatten, compress, delimiter, headers); null for queries. */
    options: text("options"),
    /** Epoch ms. */
    createdAt: integer("created_at").notNull(),
    /**
     * When a consumer started the current attempt (epoch ms); null while the job waits in the
     * queue (never taken, or handed back for a retry).
     */
    startedAt: integer("started_at"),
    /**
     * The last sign of life of the job's work (epoch ms): its start, the runner's periodic
     * heartbeat, or its hand-back for a retry. The sweep ends a job whose heartbeat stopped.
     */
    heartbeatAt: integer("heartbeat_at"),
    completedAt: integer("completed_at"),
    /** Why a job ended in `error` (shown as `error_message`, never as a top-level `error`). */
    errorMessage: text("error_message"),
    resultRows: integer("result_rows"),
    resultPages: integer("result_pages"),
    dataProcessed: integer("data_processed"),
    /** Result columns as JSON `[{type, name, mode}]`. */
    resultSchema: text("result_schema"),
    /** Milliseconds the job ran (export `statistics.backend_time`). */
    backendTimeMs: integer("backend_time_ms"),
    /** Export files as JSON `[{name, key, size}]`, in order. */
    files: text("files"),
  },
  (t) => [index("jobs_status_completed_idx").on(t.status, t.completedAt)],
);

/**
 * Catalog of raw-data files written to R2 (GET /api/v1/data/:series/:result): the size and
 * SHA-256 published in the result details are those of the bytes stored under `r2_key`.
 */
export const rawDataFiles = sqliteTable(
  "raw_data_files",
  {
    series: text("series").notNull(),
    result: text("result").notNull(),
    label: text("label").notNull(),
    r2Key: text("r2_key").notNull(),
    fileType: text("file_type").notNull(),
    sha256: text("sha256").notNull(),
    size: integer("size").notNull(),
    /** JSON map of field name to `{type}`, or null for self-describing files. */
    fileSchema: text("file_schema"),
  },
  (t) => [primaryKey({ columns: [t.series, t.result, t.label] })],
);
