import { REPORT_BUCKETS_MAX, reportResponseSchema, v1ErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { certificateDocs, tally, v1HostDocs } from "./support/dataset-facts";
import { postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

type V1Host = { ip: string; protocols: string[]; location?: { country_code?: string } };

async function report(index: string, body: Record<string, unknown>) {
  const { res, body: json } = await postJson(`/api/v1/report/${index}`, body);
  expect(res.status).toBe(200);
  return reportResponseSchema.parse(json);
}

const asDocCounts = (buckets: { key: string; count: number }[]) =>
  buckets.map(({ key, count }) => ({ key, doc_count: count }));

describe("POST /api/v1/report/:index", () => {
  it("breaks a field down over every document, with exact metadata", async () => {
    const hosts = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const codes = hosts.flatMap((h) => (h.location?.country_code ? [h.location.country_code] : []));
    const expected = tally(codes);
    const response = await report("ipv4", { query: "*", field: "location.country_code" });
    expect(response.status).toBe("ok");
    expect(response.results).toEqual(asDocCounts(expected));
    expect(response.metadata).toMatchObject({
      count: hosts.length,
      nonnull_count: codes.length,
      other_result_count: 0,
      buckets: expected.length,
      error_bound: 0,
      query: "*",
    });
  });

  it("counts what the omitted buckets hold in other_result_count", async () => {
    const hosts = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const expected = tally(hosts.flatMap((h) => h.protocols));
    expect(expected.length).toBeGreaterThan(2);
    const response = await report("ipv4", { query: "*", field: "protocols", buckets: 2 });
    expect(response.results).toEqual(asDocCounts(expected.slice(0, 2)));
    const omitted = expected.slice(2).reduce((sum, b) => sum + b.count, 0);
    expect(response.metadata).toMatchObject({ buckets: 2, other_result_count: omitted, count: hosts.length });
    expect(response.metadata.nonnull_count).toBe(hosts.filter((h) => h.protocols.length > 0).length);
  });

  it("reports only over the documents the query matches", async () => {
    const hosts = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const us = hosts.filter((h) => h.location?.country_code === "US");
    const response = await report("ipv4", { query: "location.country_code: US", field: "protocols" });
    expect(response.metadata.count).toBe(us.length);
    expect(response.results).toEqual(asDocCounts(tally(us.flatMap((h) => h.protocols))));
  });

  it("breaks certificates down by tag", async () => {
    const certs = await certificateDocs();
    const tags = certs.flatMap(({ doc }) => (doc.tags as string[] | undefined) ?? []);
    const response = await report("certificates", { query: "", field: "tags" });
    expect(response.results).toEqual(asDocCounts(tally(tags)));
    expect(response.metadata.count).toBe(certs.length);
  });

  it("answers a query matching nothing with empty results and zero counts", async () => {
    const response = await report("ipv4", { query: "location.country_code: QQ", field: "protocols" });
    expect(response.results).toEqual([]);
    expect(response.metadata).toMatchObject({
      count: 0,
      nonnull_count: 0,
      other_result_count: 0,
      buckets: 0,
    });
  });

  it("accepts the maximum of 500 buckets", async () => {
    const response = await report("ipv4", { query: "*", field: "protocols", buckets: REPORT_BUCKETS_MAX });
    expect(response.metadata.buckets).toBe(response.results.length);
  });

  it.each([
    ["501 buckets", { query: "*", field: "protocols", buckets: 501 }, /buckets/],
    ["0 buckets", { query: "*", field: "protocols", buckets: 0 }, /buckets/],
    ["no field", { query: "*" }, /field/],
    ["no query", { field: "protocols" }, /query/],
  ])("refuses %s with a v1 400", async (_what, body, message) => {
    const { res, body: json } = await postJson("/api/v1/report/ipv4", body);
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(json).error).toMatch(message);
  });

  it.each([
    ["a field the index does not have", { query: "*", field: "nope.nothing" }, /unknown field/],
    ["a query that does not parse", { query: "protocols: [1 TO", field: "protocols" }, /unterminated range/],
  ])("refuses %s with the spec's 400 and the reason in detail", async (_what, body, detail) => {
    const { res, body: json } = await postJson("/api/v1/report/ipv4", body);
    expect(res.status).toBe(400);
    expect(json).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(json.detail)).toMatch(detail);
  });

  it("answers an unknown index with 404", async () => {
    const { res, body } = await postJson("/api/v1/report/hosts", { query: "*", field: "ip" });
    expect(res.status).toBe(404);
    expect(body).toEqual({ error_code: 404, error: "page not found" });
  });
});
