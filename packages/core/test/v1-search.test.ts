import { describe, expect, it } from "vitest";
import {
  FIELD_NAME_MAX_CHARS,
  reportBodySchema,
  reportResponseSchema,
  searchBodySchema,
  searchResponseSchema,
  V1_SEARCH_FIELDS_MAX,
} from "../src/index";
import { accepts, rejects } from "./schema-assertions";

describe("search", () => {
  it("body defaults flatten to true and keeps page and fields", () => {
    expect(accepts(searchBodySchema, { query: "80.http.get.status_code: 200" })).toEqual({
      query: "80.http.get.status_code: 200",
      flatten: true,
    });
    expect(
      accepts(searchBodySchema, {
        query: "x",
        page: 3,
        fields: ["ip", "location.country"],
        flatten: false,
        extra: 1,
      }),
    ).toEqual({
      query: "x",
      page: 3,
      fields: ["ip", "location.country"],
      flatten: false,
    });
  });

  it("body refuses an empty query, page 0, a fractional page and fields that are not strings", () => {
    rejects(searchBodySchema, { query: "" }, ["query"]);
    rejects(searchBodySchema, {}, ["query"]);
    rejects(searchBodySchema, { query: "x", page: 0 }, ["page"]);
    rejects(searchBodySchema, { query: "x", page: 1.5 }, ["page"]);
    rejects(searchBodySchema, { query: "x", fields: "ip" }, ["fields"]);
    const many = Array.from({ length: V1_SEARCH_FIELDS_MAX + 1 }, (_, i) => `f${i}`);
    rejects(searchBodySchema, { query: "x", fields: many }, ["fields"]);
    expect(accepts(searchBodySchema, { query: "x", fields: many.slice(1) }).fields).toHaveLength(
      V1_SEARCH_FIELDS_MAX,
    );
    rejects(searchBodySchema, { query: "x", fields: ["x".repeat(FIELD_NAME_MAX_CHARS + 1)] }, ["fields", 0]);
    rejects(searchBodySchema, { query: "x", flatten: "true" }, ["flatten"]);
  });

  const response = {
    status: "ok",
    metadata: { count: 2, query: "x", backend_time: 12, page: 1, pages: 1 },
    results: [
      { ip: "8.8.8.8", protocols: ["53/dns", "443/https"] },
      { ip: "1.1.1.1", "location.country": "Australia" },
    ],
  };
  it("response accepts flattened and nested results", () => {
    accepts(searchResponseSchema, response);
    accepts(searchResponseSchema, { ...response, results: [{ location: { country: "Australia" } }] });
  });
  it("response refuses a non-ok status and a missing metadata field", () => {
    rejects(searchResponseSchema, { ...response, status: "error" }, ["status"]);
    const { pages: _pages, ...metadata } = response.metadata;
    rejects(searchResponseSchema, { ...response, metadata }, ["metadata", "pages"]);
  });
});

describe("report", () => {
  it("body defaults buckets to 50", () => {
    expect(
      accepts(reportBodySchema, { query: "tags: trusted", field: "parsed.issuer.organization" }),
    ).toEqual({
      query: "tags: trusted",
      field: "parsed.issuer.organization",
      buckets: 50,
    });
    expect(accepts(reportBodySchema, { query: "x", field: "f", buckets: 500 }).buckets).toBe(500);
  });

  it("body refuses buckets 501 and 0, and a missing or empty field", () => {
    rejects(reportBodySchema, { query: "x", field: "f", buckets: 501 }, ["buckets"]);
    rejects(reportBodySchema, { query: "x", field: "f", buckets: 0 }, ["buckets"]);
    rejects(reportBodySchema, { query: "x" }, ["field"]);
    rejects(reportBodySchema, { query: "x", field: "" }, ["field"]);
  });

  const response = {
    status: "ok",
    results: [
      { key: "Let's Encrypt", doc_count: 120 },
      { key: "DigiCert Inc", doc_count: 30 },
    ],
    metadata: {
      count: 200,
      backend_time: 40,
      nonnull_count: 180,
      other_result_count: 30,
      buckets: 2,
      error_bound: 0,
      query: "x",
    },
  };
  it("response accepts string keys with doc counts", () => {
    accepts(reportResponseSchema, response);
  });
  it("response refuses a numeric key and a missing error_bound", () => {
    rejects(reportResponseSchema, { ...response, results: [{ key: 443, doc_count: 1 }] });
    const { error_bound: _e, ...metadata } = response.metadata;
    rejects(reportResponseSchema, { ...response, metadata }, ["metadata", "error_bound"]);
  });
});
