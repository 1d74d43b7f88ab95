import { describe, expect, it } from "vitest";
import { LIMITS } from "../src/index";

describe("LIMITS", () => {
  it("holds the spec's values", () => {
    expect(LIMITS.BULK_MAX_FINGERPRINTS).toBe(50);
    expect([LIMITS.REPORT_BUCKETS_DEFAULT, LIMITS.REPORT_BUCKETS_MAX]).toEqual([50, 500]);
    expect([LIMITS.AGGREGATE_BUCKETS_DEFAULT, LIMITS.AGGREGATE_BUCKETS_MIN]).toEqual([50, 1]);
    expect([LIMITS.HOSTS_PER_PAGE_DEFAULT, LIMITS.HOSTS_PER_PAGE_MIN, LIMITS.HOSTS_PER_PAGE_MAX]).toEqual([
      50, 0, 100,
    ]);
    expect(LIMITS.V1_SEARCH_PAGE_SIZE).toBe(100);
    expect(LIMITS.QUERY_RESULTS_RETENTION_MS).toBe(24 * 60 * 60 * 1000);
    expect(LIMITS.EXPORT_FILE_RETENTION_MS).toBe(24 * 60 * 60 * 1000);
    expect(LIMITS.EXPORT_FILE_MAX_BYTES).toBe(128_000_000);
  });
  it("holds our own caps", () => {
    expect(LIMITS.AGGREGATE_BUCKETS_MAX).toBe(1000);
    expect(LIMITS.QUERY_RESULTS_PAGE_SIZE).toBe(1000);
    expect(LIMITS.MAX_REQUEST_BODY_BYTES).toBe(1024 * 1024);
    expect([
      LIMITS.ANNOTATION_TAGS_MAX,
      LIMITS.ANNOTATION_COMMENTS_MAX,
      LIMITS.ANNOTATION_TAG_LINKS_MAX,
    ]).toEqual([500, 10_000, 10_000]);
    expect([LIMITS.TAG_DOCUMENTS_MAX, LIMITS.DOCUMENT_TAGS_MAX, LIMITS.DOCUMENT_COMMENTS_MAX]).toEqual([
      1000, 50, 100,
    ]);
  });
});
