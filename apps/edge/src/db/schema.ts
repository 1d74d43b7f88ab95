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
export type DocumentRow = typeof documents.$inferSelect;

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
export type UsageRow = typeof usage.$inferSelect;

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
export type AuditRow = typeof auditLog.$inferSelect;

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
export type AnnotationTagRow = typeof annotationTags.$inferSelect;

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
export type AnnotationTaggedRow = typeof annotationTagged.$inferSelect;

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
export type AnnotationCommentRow = typeof annotationComments.$inferSelect;

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
export type LedgerImportRow = typeof ledgerImports.$inferSelect;
