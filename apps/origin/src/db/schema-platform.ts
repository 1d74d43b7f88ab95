import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The Platform (v3) API's own records, per organization: collections and the assets they track,
 * tags, tag assignments, bulk tag operations, comments, member roles and invitations, tracked
 * scans, CensEye jobs and the enrichment allowance; plus the history index the DNS and
 * certificate-observation routes find their hosts by. Times are epoch ms. Ids are prefixed
 * (`col_`, `tag_`, ...). Bounds on every table are core's v3/limits.ts.
 */

export const v3Collections = sqliteTable(
  "v3_collections",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    /** The name as names compare (NFC, lowercased): unique per organization. */
    nameKey: text("name_key").notNull(),
    description: text("description").notNull(),
    query: text("query").notNull(),
    status: text("status").notNull(),
    statusReason: text("status_reason"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The dataset (dataset_meta.dataset) its assets were last evaluated against. */
    dataset: text("dataset").notNull(),
    totalAssets: integer("total_assets").notNull(),
  },
  (t) => [
    uniqueIndex("v3_collections_org_name").on(t.organizationId, t.nameKey),
    index("v3_collections_org_created").on(t.organizationId, t.createdAt),
  ],
);

/** The assets a collection holds now (its last evaluation). */
export const v3CollectionAssets = sqliteTable(
  "v3_collection_assets",
  {
    collectionId: text("collection_id").notNull(),
    assetId: text("asset_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collectionId, t.assetId] })],
);

/** Assets entering and leaving a collection, and its status changes, oldest first by `seq`. */
export const v3CollectionEvents = sqliteTable(
  "v3_collection_events",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    collectionId: text("collection_id").notNull(),
    /** `added`, `removed`, or `status`. */
    kind: text("kind").notNull(),
    assetId: text("asset_id"),
    newStatus: text("new_status"),
    oldStatus: text("old_status"),
    reason: text("reason").notNull(),
    eventTime: integer("event_time").notNull(),
  },
  (t) => [index("v3_collection_events_collection").on(t.collectionId, t.eventTime, t.seq)],
);

export const v3Tags = sqliteTable(
  "v3_tags",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    description: text("description"),
    privacy: text("privacy").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("v3_tags_org_name").on(t.organizationId, t.nameKey),
    index("v3_tags_org_created").on(t.organizationId, t.createdAt),
  ],
);

/**
 * Tag assignments. One a bulk operation makes is written when the operation starts, dated when
 * its page comes (`created_at` ahead of the clock until then: not yet visible); one a bulk
 * delete removes keeps `removed_at`, its page's time, and is gone from then on.
 */
export const v3TagAssignments = sqliteTable(
  "v3_tag_assignments",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    tagId: text("tag_id").notNull(),
    assetId: text("asset_id").notNull(),
    assetType: text("asset_type").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    removedAt: integer("removed_at"),
    /** The bulk create that made it, and the bulk delete that removes it. */
    operationId: text("operation_id"),
    removalOperationId: text("removal_operation_id"),
  },
  (t) => [
    uniqueIndex("v3_tag_assignments_tag_asset").on(t.tagId, t.assetId),
    index("v3_tag_assignments_tag_created").on(t.tagId, t.createdAt),
    index("v3_tag_assignments_org_asset").on(t.organizationId, t.assetId),
    index("v3_tag_assignments_operation").on(t.operationId),
    index("v3_tag_assignments_removal").on(t.removalOperationId),
  ],
);

/**
 * Bulk create and delete operations. Everything an operation does is decided when it starts
 * (its assignments written or marked for removal, dated by page); its progress is read from the
 * clock: page `k` is done at created_at + start + k steps.
 */
export const v3TagOperations = sqliteTable(
  "v3_tag_operations",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    tagId: text("tag_id").notNull(),
    tagName: text("tag_name").notNull(),
    type: text("type").notNull(),
    /** Bulk create: the CenQL query. */
    query: text("query"),
    /** Bulk create: the assets it expects to tag, set as it starts. */
    totalCount: integer("total_count").notNull(),
    /** JSON `[[processed, successful], ...]`, one pair per page. */
    pages: text("pages").notNull(),
    /** How many pages (the length of `pages`). */
    steps: integer("steps").notNull(),
    /** How it ends when not cancelled: `succeeded` or `limit_reached`. */
    outcome: text("outcome").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    cancelledAt: integer("cancelled_at"),
  },
  (t) => [
    index("v3_tag_operations_org_created").on(t.organizationId, t.createdAt),
    index("v3_tag_operations_tag_created").on(t.tagId, t.createdAt),
  ],
);

export const v3Comments = sqliteTable(
  "v3_comments",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    assetId: text("asset_id").notNull(),
    assetType: text("asset_type").notNull(),
    body: text("body").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("v3_comments_org_created").on(t.organizationId, t.createdAt),
    index("v3_comments_org_asset").on(t.organizationId, t.assetId),
  ],
);

/**
 * Members as the organization changed them: roles replaced, or removed. The members themselves
 * are the accounts ORIGIN_ACCOUNTS names; a member without a row has both roles.
 */
export const v3MemberChanges = sqliteTable(
  "v3_member_changes",
  {
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    /** JSON array of roles. */
    roles: text("roles").notNull(),
    removed: integer("removed").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] })],
);

/** Pending invitations: an e-mail address invited once per organization. */
export const v3Invitations = sqliteTable(
  "v3_invitations",
  {
    organizationId: text("organization_id").notNull(),
    /** The address lowercased. */
    emailKey: text("email_key").notNull(),
    email: text("email").notNull(),
    invitedBy: text("invited_by").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.emailKey] })],
);

/** Live rescans and discovery scans; a scan completes SCAN_DURATION after it is created. */
export const v3Scans = sqliteTable(
  "v3_scans",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    kind: text("kind").notNull(),
    /** The request's `target` as sent (JSON). */
    target: text("target").notNull(),
    /** The host scanned (resolved from a host name), its port and transport; null if none. */
    ip: text("ip"),
    port: integer("port").notNull(),
    transport: text("transport"),
    /** What the scan will have found: `completed`, `timed_out` (nothing answered), `rejected`. */
    outcome: text("outcome").notNull(),
    createdAt: integer("created_at").notNull(),
    completesAt: integer("completes_at").notNull(),
  },
  (t) => [
    index("v3_scans_org_created").on(t.organizationId, t.createdAt),
    index("v3_scans_target").on(t.ip, t.port, t.completesAt),
  ],
);

export const v3CenseyeJobs = sqliteTable(
  "v3_censeye_jobs",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    /** `host`, `webproperty` or `certificate`, and the asset's id. */
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** JSON array of the results (count and field-value pairs), computed when the job is made. */
    results: text("results").notNull(),
    resultCount: integer("result_count").notNull(),
    atTime: integer("at_time").notNull(),
    createdAt: integer("created_at").notNull(),
    completesAt: integer("completes_at").notNull(),
    deleteAt: integer("delete_at").notNull(),
  },
  (t) => [
    index("v3_censeye_jobs_org_created").on(t.organizationId, t.createdAt),
    index("v3_censeye_jobs_org_target").on(t.organizationId, t.targetKind, t.targetId),
  ],
);

/** Host enrichment calls per organization and UTC day (the daily allowance). */
export const v3EnrichmentUsage = sqliteTable(
  "v3_enrichment_usage",
  {
    organizationId: text("organization_id").notNull(),
    day: text("day").notNull(),
    calls: integer("calls").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/**
 * Which hosts a name or a certificate was ever seen on, over the whole host history: the hosts
 * the by-name DNS and certificate-observation routes read exactly. Rows of another dataset are
 * stale and removed while the index is rebuilt.
 */
export const v3HistoryIndex = sqliteTable(
  "v3_history_index",
  {
    dataset: text("dataset").notNull(),
    /** `name` or `cert`. */
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    ip: text("ip").notNull(),
  },
  (t) => [primaryKey({ columns: [t.dataset, t.kind, t.key, t.ip] })],
);

/** How far the history index is built for a dataset: host_history rowids up to `done_to`. */
export const v3HistoryIndexState = sqliteTable("v3_history_index_state", {
  dataset: text("dataset").primaryKey(),
  doneTo: integer("done_to").notNull(),
  complete: integer("complete").notNull(),
});
