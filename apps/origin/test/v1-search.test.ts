import { env } from "cloudflare:workers";
import {
  FIELD_NAME_MAX_CHARS,
  searchResponseSchema,
  V1_SEARCH_FIELDS_MAX,
  V1_SEARCH_PAGE_SIZE,
  v1ErrorSchema,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { certificateDocs, v1HostDocs, websiteDocs } from "./support/dataset-facts";
import { postJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

beforeAll(() => seedTestDataset());

type V1Host = {
  ip: string;
  protocols: string[];
  location?: { country_code?: string; country?: string };
  autonomous_system?: { asn?: number };
};

async function search(index: string, body: Record<string, unknown>) {
  const { res, body: json } = await postJson(`/api/v1/search/${index}`, body);
  expect(res.status).toBe(200);
  return searchResponseSchema.parse(json);
}

describe("POST /api/v1/search/:index", () => {
  it("returns ip and protocols for ipv4 by default, in address order, with metadata", async () => {
    const hosts = await v1HostDocs();
    expect(hosts.length).toBeGreaterThan(V1_SEARCH_PAGE_SIZE);
    const response = await search("ipv4", { query: "*" });
    expect(response.status).toBe("ok");
    expect(response.results).toEqual(
      hosts
        .slice(0, V1_SEARCH_PAGE_SIZE)
        .map(({ v1_doc }) => ({ ip: v1_doc.ip, protocols: v1_doc.protocols })),
    );
    expect(response.metadata).toMatchObject({
      count: hosts.length,
      query: "*",
      page: 1,
      pages: Math.ceil(hosts.length / V1_SEARCH_PAGE_SIZE),
    });
    expect(Number.isInteger(response.metadata.backend_time)).toBe(true);
  });

  it("treats an empty fields list (what the official client sends) as the defaults", async () => {
    const response = await search("ipv4", { query: "*", fields: [], page: 1 });
    expect(Object.keys(response.results[0]!).sort()).toEqual(["ip", "protocols"]);
  });

  it("counts and returns exactly the documents the query matches", async () => {
    const hosts = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const expected = hosts.filter((h) => h.location?.country_code === "US").map((h) => h.ip);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(hosts.length);
    const response = await search("ipv4", { query: "location.country_code: US", fields: ["ip"] });
    expect(response.metadata.count).toBe(expected.length);
    expect(response.results.map((r) => r.ip)).toEqual(expected);
  });

  it("ORs adjacent terms as Lucene does (v1 dialect)", async () => {
    const hosts = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const expected = hosts.filter((h) => ["CH", "NL"].includes(h.location?.country_code ?? ""));
    const response = await search("ipv4", { query: "location.country_code: CH location.country_code: NL" });
    expect(response.metadata.count).toBe(expected.length);
  });

  it("projects fields as dotted keys with flatten true", async () => {
    const [host] = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const response = await search("ipv4", {
      query: `ip: ${host!.ip}`,
      fields: ["ip", "location.country", "autonomous_system.asn"],
      flatten: true,
    });
    expect(response.results).toEqual([
      {
        ip: host!.ip,
        "location.country": host!.location?.country,
        "autonomous_system.asn": host!.autonomous_system?.asn,
      },
    ]);
  });

  it("flattens an object field into its leaves with flatten true", async () => {
    const [host] = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const response = await search("ipv4", { query: `ip: ${host!.ip}`, fields: ["location"] });
    const expected = Object.fromEntries(
      Object.entries(host!.location ?? {}).map(([k, v]) => [`location.${k}`, v]),
    );
    expect(response.results).toEqual([expected]);
  });

  it("keeps the document's nesting with flatten false", async () => {
    const [host] = (await v1HostDocs()).map((h) => h.v1_doc as V1Host);
    const response = await search("ipv4", {
      query: `ip: ${host!.ip}`,
      fields: ["ip", "location.country", "autonomous_system.asn"],
      flatten: false,
    });
    expect(response.results).toEqual([
      {
        ip: host!.ip,
        location: { country: host!.location?.country },
        autonomous_system: { asn: host!.autonomous_system?.asn },
      },
    ]);
  });

  it("leaves out fields a document does not have", async () => {
    const response = await search("ipv4", { query: "*", fields: ["ip", "no.such.field"] });
    for (const result of response.results) expect(Object.keys(result)).toEqual(["ip"]);
  });

  it("returns fingerprint, subject and issuer DN of certificates by default", async () => {
    const certs = await certificateDocs();
    const response = await search("certificates", { query: "*" });
    expect(response.metadata.count).toBe(certs.length);
    expect(response.results).toEqual(
      certs.slice(0, V1_SEARCH_PAGE_SIZE).map(({ doc }) => ({
        "parsed.fingerprint_sha256": doc.parsed.fingerprint_sha256,
        "parsed.subject_dn": doc.parsed.subject_dn,
        "parsed.issuer_dn": doc.parsed.issuer_dn,
      })),
    );
  });

  it("searches certificates by name through the side table", async () => {
    const certs = await certificateDocs();
    const [cert] = certs;
    const name = (cert!.doc.parsed.names as string[])[0]!;
    const expected = certs.filter(({ doc }) => (doc.parsed.names as string[]).includes(name));
    const response = await search("certificates", {
      query: `parsed.names: "${name}"`,
      fields: ["parsed.fingerprint_sha256"],
    });
    expect(response.results.map((r) => r["parsed.fingerprint_sha256"])).toEqual(
      expected.map((c) => c.doc.parsed.fingerprint_sha256),
    );
  });

  it("returns the domain of websites by default", async () => {
    const sites = await websiteDocs();
    const response = await search("websites", { query: "*" });
    expect(response.results).toEqual(
      sites.slice(0, V1_SEARCH_PAGE_SIZE).map(({ doc }) => ({ domain: doc.domain })),
    );
  });

  it("answers a page past the end with no results rather than an error", async () => {
    const pages = Math.ceil((await v1HostDocs()).length / V1_SEARCH_PAGE_SIZE);
    const response = await search("ipv4", { query: "*", page: pages + 1 });
    expect(response.results).toEqual([]);
    expect(response.metadata).toMatchObject({ page: pages + 1, pages });
    const far = await search("ipv4", { query: "*", page: 10 ** 15 });
    expect(far.results).toEqual([]);
  });

  it.each([
    ["page 0", { query: "*", page: 0 }, /page/],
    ["a negative page", { query: "*", page: -1 }, /page/],
    ["a fractional page", { query: "*", page: 1.5 }, /page/],
    ["a page given as text", { query: "*", page: "2" }, /page/],
    ["no query", { page: 1 }, /query/],
    ["a blank query", { query: "   " }, /query is required/],
    ["fields that are not a list", { query: "*", fields: "ip" }, /fields/],
    [
      "more fields than a search may name",
      { query: "*", fields: Array.from({ length: V1_SEARCH_FIELDS_MAX + 1 }, (_, i) => `f${i}`) },
      new RegExp(`at most ${V1_SEARCH_FIELDS_MAX} fields`),
    ],
    ["a field name too long", { query: "*", fields: ["x".repeat(FIELD_NAME_MAX_CHARS + 1)] }, /at most/],
    ["flatten that is not a boolean", { query: "*", flatten: "yes" }, /flatten/],
  ])("refuses %s with a v1 400", async (_what, body, message) => {
    const { res, body: json } = await postJson("/api/v1/search/ipv4", body);
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(json).error).toMatch(message);
  });

  it("refuses a query that does not parse with 400, saying where", async () => {
    const { res, body } = await postJson("/api/v1/search/ipv4", { query: "location.country: (US" });
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(body)).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(body.detail)).toMatch(/\)|expected|unexpected/i);
    expect(typeof body.position).toBe("number");
    expect(body).toHaveProperty("token");
  });

  it('refuses the query ":" (a colon with no field) with 400, as the spec says', async () => {
    const { res, body } = await postJson("/api/v1/search/ipv4", { query: ":" });
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(body)).toMatchObject({ error_code: 400, error: "query could not be parsed" });
    expect(String(body.detail)).toContain("field name is missing");
  });

  it("refuses a query on a field the index does not have with 400", async () => {
    const { res, body } = await postJson("/api/v1/search/ipv4", { query: "no.such.field: 1" });
    expect(res.status).toBe(400);
    expect(body.error).toBe("query could not be parsed");
    expect(String(body.detail)).toContain("no.such.field");
  });

  it("answers an unknown index with 404", async () => {
    const { res, body } = await postJson("/api/v1/search/hosts", { query: "*" });
    expect(res.status).toBe(404);
    expect(body).toEqual({ error_code: 404, error: "page not found" });
  });
});

describe("POST /api/v1/search/:index over more than one page", () => {
  const EXTRA = 2 * V1_SEARCH_PAGE_SIZE + 7;

  beforeAll(async () => {
    // Plain rows in 10.0.0.0/8: enough for three pages without touching the seeded hosts.
    const inserts = Array.from({ length: EXTRA }, (_, i) => {
      const ip = `10.0.${Math.floor(i / 256)}.${i % 256}`;
      const ipNum = 10 * 2 ** 24 + i;
      const v1 = JSON.stringify({ ip, protocols: ["80/http"] });
      return env.DB.prepare(
        "insert into hosts (ip, ip_num, country_code, last_updated_at, services_count, doc, v1_doc) values (?, ?, 'ZZ', 0, 0, ?, ?)",
      ).bind(ip, ipNum, JSON.stringify({ ip, services: [] }), v1);
    });
    await env.DB.batch(inserts);
  });

  it("pages through 100 at a time with one-indexed pages and no overlap", async () => {
    const query = "location.country_code: ZZ";
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => search("ipv4", { query, page, fields: ["ip"] })),
    );
    expect(pages.map((p) => p.results.length)).toEqual([100, 100, 7, 0]);
    for (const page of pages) expect(page.metadata).toMatchObject({ count: EXTRA, pages: 3 });
    const ips = pages.flatMap((p) => p.results.map((r) => r.ip));
    expect(new Set(ips).size).toBe(EXTRA);
  });
});
