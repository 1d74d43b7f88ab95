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
