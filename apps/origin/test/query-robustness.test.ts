import { SEARCH_QUERY_MAX_CHARS } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { call, getJson, postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

// Queries a client may send, well-formed or not. Whatever the language makes of them, the
// answer is a result or a 4xx in the version's shape, never a 500.
const QUERIES = [
  "*",
  "*:*",
  "cloudflare",
  '"quoted phrase" AND NOT nothing',
  "ip: 1.1.1.0/24",
  "ip: [1.0.0.0 TO 9.255.255.255]",
  "ip: 999.0.0.0/8",
  "location.country: Uni*",
  "location.country: ?nited*",
  "location.country: /Uni.*/",
  "location.country: /[unclosed/",
  "autonomous_system.asn: {13335, 15169}",
  "autonomous_system.asn: [* TO 20000}",
  "autonomous_system.asn: abc",
  "services.port: 99999999999999999999",
  "services.observed_at: [now-30d TO now]",
  "services.observed_at: [2024-01-01 TO *]",
  "services.observed_at: yesterday",
  "services: (port: 22 and not service_name: HTTP)",
  "same_service(services.port: 443 and services.service_name: HTTP)",
  "services.service_name = HTTP",
  "`backtick value`",
  "((((((((((((((((((((((((a))))))))))))))))))))))))",
  "a OR ".repeat(200) + "b",
  "\u0000\u0001 weird \uFFFF ☃",
  "lone \ud800 surrogate",
  "lone \udc00 low surrogate",
  "a proper pair 😀",
  "field.with.trailing.dot.: x",
  ":::",
  'location.country: "unterminated',
  "NOT",
  "AND OR NOT",
  "services.port: 22 AND",
  "x".repeat(9000),
];

/** A `q` in the URL past our limit is refused before it is parsed: a 400 in the v2 shape. */
const overLimit = (q: string) => q.length > SEARCH_QUERY_MAX_CHARS;

describe("search input robustness", () => {
  it.each(QUERIES)("v2 search answers %j without a server error", async (q) => {
    const { res, body } = await getJson(
      `/api/v2/hosts/search?${new URLSearchParams({ q, per_page: "5" }).toString()}`,
    );
    if (overLimit(q)) {
      expect(res.status).toBe(400);
      expect(body).toMatchObject({ code: 400 });
      return;
    }
    expect([200, 422]).toContain(res.status);
    if (res.status === 422)
      expect(body).toMatchObject({ code: 422, error: "Invalid search. Your query could not be parsed" });
  });

  it.each(QUERIES)("v2 aggregate answers %j without a server error", async (q) => {
    const res = await call(
      "GET",
      `/api/v2/hosts/aggregate?${new URLSearchParams({ q, field: "services.port" }).toString()}`,
    );
    if (overLimit(q)) expect(res.status).toBe(400);
    else expect([200, 422]).toContain(res.status);
  });

  it.each(QUERIES)("v1 search answers %j without a server error", async (query) => {
    const { res, body } = await postJson("/api/v1/search/ipv4", { query });
    expect([200, 400]).toContain(res.status);
    if (res.status === 400) expect(body).toMatchObject({ error_code: 400 });
  });

  it.each(QUERIES)("v1 report answers %j without a server error", async (query) => {
    const res = await call("POST", "/api/v1/report/certificates", { body: { query, field: "tags" } });
    expect([200, 400]).toContain(res.status);
  });
});
