import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Every time is epoch milliseconds (plain integers), so the quota statement can compare and
// reset them in SQL without date parsing.

/** Tenants: one per person or service sharing the endpoint. */
export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().default(""),
  apiId: text("api_id").notNull().unique(),
  /** SHA-256 of the secret (see auth/secrets.ts for why a fast hash is enough). */
  secretHash: text("secret_hash").notNull(),
  /** After a rotation with a grace period, the old secret keeps working until this time. */
  previousSecretHash: text("previous_secret_hash"),
  previousSecretExpiresAt: integer("previous_secret_expires_at"),
  /** What the tenant may spend per period; its balance lives in its ledger object (src/ledger). */
  allowance: integer("allowance").notNull(),
  period: text("period", { enum: ["daily", "monthly", "never"] }).notNull(),
  tier: text("tier").notNull(),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
  lastSeenAt: integer("last_seen_at"),
  /**
   * The most pages of Platform search results one of its query or export jobs may read (and so
   * the credits it holds before it starts); null is the edge's JOB_MAX_PAGES.
   */
  jobMaxPages: integer("job_max_pages"),
});
export type TenantRow = typeof tenants.$inferSelect;

/**
 * Platform (/v3) bearer tokens of tenants, stored only as SHA-256 (auth/secrets.ts says why a
 * fast hash is enough). A tenant has at most one current token (`expires_at` null) and one
 * rotated-out token still inside its grace period; revoking deletes both.
 */
export const platformTokens = sqliteTable(
  "platform_tokens",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: integer("created_at").notNull(),
    /** Null while current; for a rotated-out token, the end of its grace period. */
    expiresAt: integer("expires_at"),
  },
  (t) => [index("platform_tokens_tenant").on(t.tenantId)],
);
export type PlatformTokenRow = typeof platformTokens.$inferSelect;

/** Which tenant started each upstream job, and with which upstream credential. */
export const jobs = sqliteTable(
  "jobs",
  {
    kind: text("kind", { enum: ["query", "export"] }).notNull(),
    jobId: text("job_id").notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    /** The upstream API id that started the job: the upstream scopes jobs to its accounts. */
    upstreamCredential: text("upstream_credential").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.jobId] }), index("jobs_created_at").on(t.createdAt)],
);
export type JobRow = typeof jobs.$inferSelect;

/**
 * Query and export jobs the edge runs itself over the Platform's search (UPSTREAM_API=platform):
 * one row per job, read and written only with its tenant's id, so another tenant's job is
 * unknown. D1 is the one strongly consistent store every isolate shares, and the queue consumer,
 * the routes and the sweep each change a job with one conditional statement.
 */
export const platformJobs = sqliteTable(
  "platform_jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["query", "export"] }).notNull(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["pending", "success", "error", "expired"] }).notNull(),
    query: text("query").notNull(),
    /** Export options as JSON (null for a query job). */
    options: text("options"),
    /** When it was planned: the day of its table, the instant its rows are judged at. */
    plannedAt: integer("planned_at").notNull(),
    maxPages: integer("max_pages").notNull(),
    /** Credits charged before it started (its most), and the period they were charged in. */
    creditsCharged: integer("credits_charged").notNull(),
    chargeResetsAt: integer("charge_resets_at"),
    /** Platform calls made so far (1 credit each), written with every heartbeat. */
    creditsSpent: integer("credits_spent").notNull().default(0),
    /** Set once the unspent credits went back to the tenant (never twice). */
    refundedAt: integer("refunded_at"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    heartbeatAt: integer("heartbeat_at"),
    completedAt: integer("completed_at"),
    errorMessage: text("error_message"),
    resultRows: integer("result_rows"),
    resultPages: integer("result_pages"),
    dataProcessed: integer("data_processed"),
    /** JSON: the result's schema fields (query jobs), the export's files. */
    resultSchema: text("result_schema"),
    files: text("files"),
    backendTimeMs: integer("backend_time_ms"),
  },
  (t) => [
    index("platform_jobs_tenant").on(t.tenantId),
    index("platform_jobs_status").on(t.status, t.heartbeatAt),
  ],
);
export type PlatformJobRow = typeof platformJobs.$inferSelect;

/**
 * The shared document cache: one row per document, whichever route fetched it.
 * `at_time` is "" for the current document, else the canonical epoch-nanosecond key.
 */
export const documents = sqliteTable(
  "documents",
  {
    index: text("index").notNull(),
    id: text("id").notNull(),
    atTime: text("at_time").notNull().default(""),
    body: text("body").notNull(),
    negative: integer("negative", { mode: "boolean" }).notNull().default(false),
    fetchedAt: integer("fetched_at").notNull(),
    /** End of freshness; null never expires (host views at a fixed time). */
    expiresAt: integer("expires_at"),
  },
  (t) => [primaryKey({ columns: [t.index, t.id, t.atTime] }), index("documents_fetched_at").on(t.fetchedAt)],
);

/** Hourly rollups per tenant and operation. */
export const usage = sqliteTable(
  "usage",
  {
    tenantId: text("tenant_id").notNull(),
    hour: integer("hour").notNull(),
    operation: text("operation").notNull(),
    requests: integer("requests").notNull().default(0),
    cacheHits: integer("cache_hits").notNull().default(0),
    upstreamCalls: integer("upstream_calls").notNull().default(0),
    errors: integer("errors").notNull().default(0),
    quotaSpent: integer("quota_spent").notNull().default(0),
    /** Upstream credits the document cache saved (Platform documents served without a paid call). */
    quotaSaved: integer("quota_saved").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.hour, t.operation] }), index("usage_hour").on(t.hour)],
);

/** Every admin action: who, what, when, and the tenant before and after (never secrets). */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    at: integer("at").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    tenantId: text("tenant_id"),
    before: text("before"),
    after: text("after"),
  },
  (t) => [index("audit_log_at").on(t.at), index("audit_log_tenant").on(t.tenantId, t.at)],
);

/**
 * Sessions signed out before their cookie expired. A session cookie is signed, not stored, so
 * sign-out records its id here until its expiry; a copy of the cookie then opens nothing.
 */
export const endedSessions = sqliteTable(
  "ended_sessions",
  {
    sid: text("sid").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("ended_sessions_expires").on(t.expiresAt)],
);

/**
 * Tags the team shares (the v2 tag API). Every tenant sees and may change every tag; names are
 * unique ignoring case (`name_key` is the lowercased name). Kept at the edge, never upstream.
 */
export const annotationTags = sqliteTable(
  "annotation_tags",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull().unique(),
    /** `#rrggbb`, or null for none. */
    color: text("color"),
    /** The tenant that created it (kept after that tenant is deleted). */
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("annotation_tags_created_by").on(t.createdBy, t.createdAt)],
);
export type TagRow = typeof annotationTags.$inferSelect;

/** Which documents carry which tag: `index` is hosts or certificates, `document` its id. */
export const annotationTagged = sqliteTable(
  "annotation_tagged",
  {
    tagId: text("tag_id")
      .notNull()
      .references(() => annotationTags.id, { onDelete: "cascade" }),
    index: text("index", { enum: ["hosts", "certificates"] }).notNull(),
    document: text("document").notNull(),
    taggedBy: text("tagged_by").notNull(),
    taggedAt: integer("tagged_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tagId, t.index, t.document] }),
    index("annotation_tagged_document").on(t.index, t.document),
  ],
);

/** Comments on hosts and certificates; the team reads them all, only the author changes one. */
export const annotationComments = sqliteTable(
  "annotation_comments",
  {
    id: text("id").primaryKey(),
    index: text("index", { enum: ["hosts", "certificates"] }).notNull(),
    document: text("document").notNull(),
    /** The author tenant's id (kept after that tenant is deleted; the admin can remove it). */
    authorId: text("author_id").notNull(),
    contents: text("contents").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("annotation_comments_document").on(t.index, t.document, t.createdAt),
    index("annotation_comments_author").on(t.authorId, t.createdAt),
  ],
);
export type CommentRow = typeof annotationComments.$inferSelect;

/**
 * What the D1 ledger held for each tenant when balances moved into the tenants' ledger objects
 * (migration 0006): `used` of the period ending at `resets_at`, and the credit holds still open
 * (JSON). Each row is handed to its tenant's object once and deleted (src/ledger/imports.ts).
 */
export const ledgerImports = sqliteTable("ledger_imports", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  used: integer("used").notNull(),
  resetsAt: integer("resets_at"),
  /** `[{"id","credits","resets_at","expires_at"}]` */
  holds: text("holds").notNull(),
});
