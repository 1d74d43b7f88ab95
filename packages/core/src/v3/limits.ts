/** Limits of the Platform API (v3) as the SDK documents them, plus ours (marked "ours"). */

/** `page_size`: "The default and maximum is 100" (SDK `SearchQueryInputBody`). */
export const V3_PAGE_SIZE_MAX = 100;
export const V3_PAGE_SIZE_DEFAULT = 100;
/** `queries` of a convert call: "Limited to 100 queries" (SDK `SearchConvertQueryInputBody`). */
export const V3_CONVERT_QUERIES_MAX = 100;
/** Ours: ids per bulk call (host_ids, certificate_ids, webproperty_ids); the Platform's is not documented. */
export const V3_BULK_IDS_MAX = 100;
/** Ours: aggregate buckets; the Platform's maximum is not documented. */
export const V3_AGGREGATE_BUCKETS_MAX = 1000;
/** Credit usage reports: "The date range (end_date - start_date) cannot exceed 365 days". */
export const V3_CREDIT_USAGE_MAX_DAYS = 365;
/** Credit usage reports: "Must be on or after 2025-01-01". */
export const V3_CREDIT_USAGE_EARLIEST_DATE = "2025-01-01";

// ---- history-backed lists (DNS resolutions, service history, certificate observations) ----

/** Ours: the widest `start_time`..`end_time` window, and the one taken when `start_time` is absent. */
export const V3_HISTORY_WINDOW_MAX_DAYS = 365;
/** Ours: how far in the future `end_time` may be (clock skew) before it is refused. */
export const V3_FUTURE_SKEW_MS = 5 * 60 * 1000;

// ---- organization records (ours: the Platform's plan limits are not published) ----

/** Collections an organization keeps. */
export const V3_COLLECTIONS_MAX = 100;
/** Assets a collection tracks; past it the collection is paused (`too_many_assets`). */
export const V3_COLLECTION_ASSETS_MAX = 10_000;
/** Characters of a collection's or tag's name. */
export const V3_NAME_MAX_CHARS = 255;
/** Characters of a collection's or tag's description. */
export const V3_DESCRIPTION_MAX_CHARS = 1000;
/** Characters of a CenQL query kept by a collection or a bulk operation. */
export const V3_QUERY_MAX_CHARS = 4096;
/** Tags an organization keeps. */
export const V3_TAGS_MAX = 1000;
/** Assets one tag holds (the plan's "tag asset limit": a bulk create past it is `limit_reached`). */
export const V3_TAG_ASSETS_MAX = 10_000;
/** Tags one asset carries. */
export const V3_ASSET_TAGS_MAX = 100;
/** Bulk operations an organization runs at once; more is a 409. */
export const V3_RUNNING_TAG_OPERATIONS_MAX = 5;
/** Bulk operations an organization keeps (the oldest finished ones go first). */
export const V3_TAG_OPERATIONS_KEPT = 1000;
/** Comments an organization keeps, and comments on one asset. */
export const V3_COMMENTS_MAX = 10_000;
export const V3_ASSET_COMMENTS_MAX = 500;
/** Characters of a comment's body. */
export const V3_COMMENT_MAX_CHARS = 10_000;
/** Pending invitations an organization keeps. */
export const V3_INVITATIONS_MAX = 100;
/** CensEye jobs an organization keeps, and how long a job and its results live. */
export const V3_CENSEYE_JOBS_MAX = 1000;
export const V3_CENSEYE_JOB_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Value counts: count conditions per call and field-value pairs per condition (the SDK's 5). */
export const V3_COUNT_CONDITIONS_MAX = 20;
export const V3_COUNT_CONDITION_PAIRS_MAX = 5;
/** Tracked scans an organization keeps (the oldest go first). */
export const V3_SCANS_KEPT = 1000;
/** Host enrichment calls an organization makes per UTC day ("up to 20,000 ... per day"). */
export const V3_ENRICHMENTS_PER_DAY = 20_000;

// ---- simulated time of asynchronous work (ours, deterministic from the clock) ----

/** A tracked scan completes this long after it is created. */
export const V3_SCAN_DURATION_MS = 5_000;
/** A CensEye job completes this long after it is created. */
export const V3_CENSEYE_JOB_DURATION_MS = 2_000;
/** A bulk tag operation waits this long (`pending`), then processes a page of assets per step. */
export const V3_TAG_OPERATION_START_MS = 1_000;
export const V3_TAG_OPERATION_PAGE = 100;
export const V3_TAG_OPERATION_STEP_MS = 1_000;
