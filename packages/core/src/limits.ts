/**
 * Every limit of the spec's Limits table, plus the few we set ourselves (marked "ours").
 * The query quota (allowance, used, resets_at) is per tenant, not a constant: see the account schema.
 */
const HOUR_MS = 60 * 60 * 1000;

export const BULK_MAX_FINGERPRINTS = 50;
/** Ours: the longest string a bulk request may ask for, so the answer's keys stay small. */
export const BULK_FINGERPRINT_MAX_CHARS = 256;
export const REPORT_BUCKETS_DEFAULT = 50;
export const REPORT_BUCKETS_MAX = 500;
export const AGGREGATE_BUCKETS_DEFAULT = 50;
export const AGGREGATE_BUCKETS_MIN = 1;
/** Ours: the spec gives no maximum for num_buckets. */
export const AGGREGATE_BUCKETS_MAX = 1000;
export const HOSTS_PER_PAGE_DEFAULT = 50;
export const HOSTS_PER_PAGE_MIN = 0;
export const HOSTS_PER_PAGE_MAX = 100;
/** The official client's documented default for host names pages; its maximum is ours. */
export const HOST_NAMES_PER_PAGE_DEFAULT = 100;
export const HOST_NAMES_PER_PAGE_MIN = 1;
export const HOST_NAMES_PER_PAGE_MAX = 1000;
/** `view_host_events`: "minimum of 1, maximum of 50" (the client's docstring); the default is ours. */
export const HOST_EVENTS_PER_PAGE_DEFAULT = 50;
export const HOST_EVENTS_PER_PAGE_MIN = 1;
export const HOST_EVENTS_PER_PAGE_MAX = 50;
/** Ours: hosts by certificate (the client sends no per_page; a page holds the default). */
export const CERTIFICATE_HOSTS_PER_PAGE_DEFAULT = 100;
export const CERTIFICATE_HOSTS_PER_PAGE_MIN = 1;
export const CERTIFICATE_HOSTS_PER_PAGE_MAX = 100;
export const V1_SEARCH_PAGE_SIZE = 100;
/** Ours: query-job result pages hold a fixed number of rows (pages are 1-indexed). */
export const QUERY_RESULTS_PAGE_SIZE = 1000;
export const QUERY_RESULTS_RETENTION_MS = 24 * HOUR_MS;
export const EXPORT_FILE_RETENTION_MS = 24 * HOUR_MS;
/** 128 MB per JSON export file (decimal megabytes). */
export const EXPORT_FILE_MAX_BYTES = 128 * 1000 * 1000;
/** Ours: request bodies larger than 1 MiB are refused with 413. */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** The spec's "typically 15-30 seconds" for query and export jobs. */
export const QUERY_JOB_TYPICAL_DURATION_MS = { min: 15_000, max: 30_000 } as const;

/** Ours: a tag name is 1..64 characters (after trimming); the public limit is not documented. */
export const TAG_NAME_MAX_CHARS = 64;
/** Ours: a comment is 1..4096 characters; the public limit is not documented. */
export const COMMENT_MAX_CHARS = 4096;
// Ours: how many tags, comments and tag links one holder keeps: the team at the edge (its tags
// and comments are shared by every tenant), each account at the origin. The public limits are
// not documented. The legacy lists have no paging, so these caps are also what bounds them.
/** Tags one holder keeps; bounds GET /v2/tags. */
export const ANNOTATION_TAGS_MAX = 500;
/** Comments one holder keeps, over all documents. */
export const ANNOTATION_COMMENTS_MAX = 10_000;
/** Tag links (a tag on a document) one holder keeps, over all its tags. */
export const ANNOTATION_TAG_LINKS_MAX = 10_000;
/** Documents one tag is on; bounds GET /v2/tags/{id}/hosts and /certificates. */
export const TAG_DOCUMENTS_MAX = 1000;
/** Tags on one host or certificate; bounds GET /v2/{hosts|certificates}/{id}/tags. */
export const DOCUMENT_TAGS_MAX = 50;
/**
 * Comments on one host or certificate; bounds GET /v2/{hosts|certificates}/{id}/comments
 * (100 comments of 4,096 characters: about 0.4 MB of ASCII).
 */
export const DOCUMENT_COMMENTS_MAX = 100;
/**
 * Ours: the longest request target (path and query) the edge reads, in characters. Longer is a
 * JSON 400 in the route's shape, well before the runtime's own header limits answer in plain text.
 */
export const REQUEST_TARGET_MAX_CHARS = 8192;
/** Ours: the longest `q` (v2 search language) a request may send, in characters. */
export const SEARCH_QUERY_MAX_CHARS = 4096;
/** Ours: the longest `cursor` a request may send; our cursors are far shorter. */
export const CURSOR_MAX_CHARS = 1024;
/**
 * Ours: the most `fields` a v1 search may name, and the longest name. Every name is looked up in
 * each of a page's 100 documents; an unbounded list (the 1 MB body holds tens of thousands) would
 * make one request take seconds.
 */
export const V1_SEARCH_FIELDS_MAX = 200;
export const FIELD_NAME_MAX_CHARS = 256;

export const LIMITS = {
  BULK_MAX_FINGERPRINTS,
  BULK_FINGERPRINT_MAX_CHARS,
  REPORT_BUCKETS_DEFAULT,
  REPORT_BUCKETS_MAX,
  AGGREGATE_BUCKETS_DEFAULT,
  AGGREGATE_BUCKETS_MIN,
  AGGREGATE_BUCKETS_MAX,
  HOSTS_PER_PAGE_DEFAULT,
  HOSTS_PER_PAGE_MIN,
  HOSTS_PER_PAGE_MAX,
  HOST_NAMES_PER_PAGE_DEFAULT,
  HOST_NAMES_PER_PAGE_MIN,
  HOST_NAMES_PER_PAGE_MAX,
  HOST_EVENTS_PER_PAGE_DEFAULT,
  HOST_EVENTS_PER_PAGE_MIN,
  HOST_EVENTS_PER_PAGE_MAX,
  CERTIFICATE_HOSTS_PER_PAGE_DEFAULT,
  CERTIFICATE_HOSTS_PER_PAGE_MIN,
  CERTIFICATE_HOSTS_PER_PAGE_MAX,
  V1_SEARCH_PAGE_SIZE,
  QUERY_RESULTS_PAGE_SIZE,
  QUERY_RESULTS_RETENTION_MS,
  EXPORT_FILE_RETENTION_MS,
  EXPORT_FILE_MAX_BYTES,
  MAX_REQUEST_BODY_BYTES,
  QUERY_JOB_TYPICAL_DURATION_MS,
  TAG_NAME_MAX_CHARS,
  COMMENT_MAX_CHARS,
  ANNOTATION_TAGS_MAX,
  ANNOTATION_COMMENTS_MAX,
  ANNOTATION_TAG_LINKS_MAX,
  TAG_DOCUMENTS_MAX,
  DOCUMENT_TAGS_MAX,
  DOCUMENT_COMMENTS_MAX,
  REQUEST_TARGET_MAX_CHARS,
  SEARCH_QUERY_MAX_CHARS,
  CURSOR_MAX_CHARS,
  V1_SEARCH_FIELDS_MAX,
  FIELD_NAME_MAX_CHARS,
} as const;
