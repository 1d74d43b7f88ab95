import {
  accountSchema,
  bulkUnknownCertificateSchema,
  certificateDocumentSchema,
  hostsAggregateResultSchema,
  hostsSearchResultSchema,
  searchResponseSchema,
  v1ErrorSchema,
  v2Envelope,
  v2ErrorSchema,
  v2InvalidQueryErrorSchema,
  usageListSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../src/config";
import type { Env } from "../src/env";
import { ledgerHeld } from "./support/ledger";
import { suiteSecretWatch } from "./reliability/secret-watch";
import { askOrigin, ORIGIN_PLATFORM, type OriginFacts, originFacts, seedOrigin } from "./support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge, type TestEdge } from "./support/test-edge";

// The legacy API through an edge whose upstream speaks only the Platform API (UPSTREAM_API=platform):
// every answer is built from the real origin's /v3 surface, and compared with what the origin's
// own legacy surface answers for the same documents (one dataset, three faces).

const VARS = { UPSTREAM_API: "platform", PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };

let edge: TestEdge;
let auth: string;
let facts: OriginFacts;

beforeAll(async () => {
  suiteSecretWatch.addMarkers([ORIGIN_PLATFORM.token]);
  await seedOrigin();
  facts = await originFacts();
  edge = testEdge({ vars: VARS });
  auth = tenantAuth(await createTenant({ allowance: 100_000, tier: "unlimited" }, edge.fetch));
});

async function get(path: string) {
  return edge.fetch(buildRequest("GET", path, { auth }));
}
async function post(path: string, body: unknown) {
  return edge.fetch(buildRequest("POST", path, { auth, body }));
}
async function originJson(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await askOrigin(method, path, body);
  expect(res.status, path).toBe(200);
  return res.json();
}
const hostResult = (body: unknown) => (body as { result: Record<string, unknown> }).result;

/** What a v2 host document and its reshaped Platform twin have in common, service by service. */
function comparable(host: Record<string, unknown>) {
  const services = (host.services as Record<string, unknown>[]).map((s) => {
    const tls = s.tls as Record<string, Record<string, unknown>> | undefined;
    const http = s.http as { response: Record<string, unknown> } | undefined;
    return {
      port: s.port,
      service_name: s.service_name,
      extended_service_name: s.extended_service_name,
      transport_protocol: s.transport_protocol,
      observed_at: s.observed_at,
      banner: s.banner,
      certificate: s.certificate,
      software: s.software,
      _decoded: s._decoded,
      tls: tls && {
        version_selected: tls.version_selected,
        cipher_selected: tls.cipher_selected,
        leaf: tls.certificates?.leaf_fp_sha_256,
        chain: tls.certificates?.chain_fps_sha_256,
      },
      http: http && {
        status_code: http.response.status_code,
        html_title: http.response.html_title,
        body: http.response.body,
        headers: http.response.headers,
      },
    };
  });
  const sortKey = (s: { port: unknown; transport_protocol: unknown }) =>
    `${String(s.port)}/${String(s.transport_protocol)}`;
  return {
    ip: host.ip,
    location: host.location,
    autonomous_system: host.autonomous_system,
    services: services.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
  };
}

describe("v2 hosts from the Platform's host asset", () => {
  it("reshapes every host as the origin's own v2 view shows it, asking only /v3", async () => {
    for (const ip of facts.hosts) {
      const res = await get(`/api/v2/hosts/${ip}`);
      expect(res.status, ip).toBe(200);
      const translated = hostResult(await res.json());
      const legacy = hostResult(await originJson("GET", `/api/v2/hosts/${ip}`));
      expect(comparable(translated), ip).toEqual(comparable(legacy));
      // The latest scan, to the millisecond, is the update time.
      expect(translated.last_updated_at, ip).toBe(legacy.last_updated_at);
    }
    const paths = edge.upstream.requests.map((r) => new URL(r.url).pathname);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.startsWith("/v3/"))).toBe(true);
  }, 30_000);

  it("answers a host at a past time as it was then", async () => {
    const { ip, atTime } = facts.historic;
    const res = await get(`/api/v2/hosts/${ip}?at_time=${encodeURIComponent(atTime)}`);
    expect(res.status).toBe(200);
    const legacy = hostResult(
      await originJson("GET", `/api/v2/hosts/${ip}?at_time=${encodeURIComponent(atTime)}`),
    );
    expect(comparable(hostResult(await res.json()))).toEqual(comparable(legacy));
  });

  it("answers an unknown host with the v2 404, and a host long before the dataset too", async () => {
    for (const path of [
      "/api/v2/hosts/10.255.255.254",
      "/api/v2/hosts/1.1.1.1?at_time=2000-01-01T00:00:00Z",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(v2ErrorSchema.parse(await res.json())).toMatchObject({ code: 404, status: "Not Found" });
    }
  });

  it("searches in address order, pages with cursors, and totals as the origin's v2 search", async () => {
    const first = v2Envelope(hostsSearchResultSchema).parse(
      await (await get("/api/v2/hosts/search?per_page=3")).json(),
    );
    const origin = v2Envelope(hostsSearchResultSchema).parse(
      await originJson("GET", "/api/v2/hosts/search?per_page=6"),
    );
    expect(first.result.total).toBe(origin.result.total);
    expect(first.result.links.prev).toBe("");
    expect(first.result.hits.map((h) => h.ip)).toEqual(origin.result.hits.slice(0, 3).map((h) => h.ip));
    const hit = first.result.hits[0];
    expect(hit?.services?.length).toBeGreaterThan(0);
    expect(hit).toHaveProperty("last_updated_at");

    const next = await get(`/api/v2/hosts/search?per_page=3&cursor=${first.result.links.next}`);
    const second = v2Envelope(hostsSearchResultSchema).parse(await next.json());
    expect(second.result.hits.map((h) => h.ip)).toEqual(origin.result.hits.slice(3, 6).map((h) => h.ip));
    expect(second.result.links.prev).not.toBe("");

    const projected = v2Envelope(hostsSearchResultSchema).parse(
      await (await get("/api/v2/hosts/search?per_page=2&fields=location.country_code")).json(),
    );
    for (const h of projected.result.hits) expect(Object.keys(h).sort()).toEqual(["ip", "location"]);
  });

  it("finds with a converted query what the origin's v2 search finds", async () => {
    const q = "services.service_name: SSH and location.country_code: US";
    const path = `/api/v2/hosts/search?per_page=100&q=${encodeURIComponent(q)}`;
    const translated = v2Envelope(hostsSearchResultSchema).parse(await (await get(path)).json());
    const legacy = v2Envelope(hostsSearchResultSchema).parse(await originJson("GET", path));
    expect(translated.result.total).toBe(legacy.result.total);
    expect(translated.result.hits.map((h) => h.ip)).toEqual(legacy.result.hits.map((h) => h.ip));
    expect(translated.result.query).toBe(q);
  });

  it("refuses a cursor of another query and a query that does not parse, in the v2 shapes", async () => {
    const first = v2Envelope(hostsSearchResultSchema).parse(
      await (await get("/api/v2/hosts/search?per_page=1")).json(),
    );
    const wrong = await get(`/api/v2/hosts/search?per_page=2&cursor=${first.result.links.next}`);
    expect(wrong.status).toBe(400);
    expect(v2ErrorSchema.parse(await wrong.json()).error).toMatch(/cursor/);
    const garbage = await get("/api/v2/hosts/search?cursor=not-a-cursor");
    expect(garbage.status).toBe(400);

    const bad = await get(`/api/v2/hosts/search?q=${encodeURIComponent("services.port: [22 TO")}`);
    expect(bad.status).toBe(422);
    const body = v2InvalidQueryErrorSchema.parse(await bad.json());
    expect(body.position).toBe(15);
  });

  it("aggregates as the origin's v2 aggregate does", async () => {
    for (const query of [
      "field=location.country_code&num_buckets=1000",
      `field=services.port&num_buckets=5&q=${encodeURIComponent("location.country_code: US")}`,
    ]) {
      const res = await get(`/api/v2/hosts/aggregate?${query}`);
      expect(res.status, query).toBe(200);
      const translated = v2Envelope(hostsAggregateResultSchema).parse(await res.json());
      const legacy = v2Envelope(hostsAggregateResultSchema).parse(
        await originJson("GET", `/api/v2/hosts/aggregate?${query}`),
      );
      expect(translated.result).toEqual(legacy.result);
    }
  });
});

async function originCount(): Promise<number> {
  const body = searchResponseSchema.parse(
    await originJson("POST", "/api/v1/search/certificates", { query: "*" }),
  );
  return body.metadata.count;
}

/**
 * The v1 document as the reshaping gives it: root stores carry no `paths`, `blacklisted` or
 * `whitelisted`, the metadata no `parse_version`, `post_processed` or `source` (the Platform
 * keeps none of them), so core's schema is checked without those two blocks.
 */
const translatedCertificateSchema = certificateDocumentSchema.omit({ validation: true, metadata: true });

/** The v1 certificate fields the Platform keeps (it drops root-store paths and some metadata). */
function comparableCertificate(doc: Record<string, unknown>) {
  const parsed = doc.parsed as Record<string, unknown>;
  const validation = (doc.validation ?? {}) as Record<string, Record<string, unknown>>;
  return {
    raw: doc.raw,
    parsed: { ...parsed, __expanded_names: undefined },
    ct: doc.ct,
    zlint: doc.zlint,
    precert: doc.precert,
    validation_timestamp: doc.validation_timestamp,
    parent_spki_subject_fingerprint: doc.parent_spki_subject_fingerprint,
    validation: Object.fromEntries(
      Object.entries(validation).map(([store, v]) => [
        store,
        {
          valid: v.valid,
          was_valid: v.was_valid,
          trusted_path: v.trusted_path,
          parents: v.parents,
          type: v.type,
        },
      ]),
    ),
  };
}

describe("v1 certificates from the Platform's certificate asset", () => {
  it("reshapes every certificate as the origin's own v1 view shows it, raw DER included", async () => {
    for (const fingerprint of facts.certificates) {
      const res = await get(`/api/v1/view/certificates/${fingerprint}`);
      expect(res.status, fingerprint).toBe(200);
      const translated = translatedCertificateSchema.parse(await res.json());
      const legacy = (await originJson("GET", `/api/v1/view/certificates/${fingerprint}`)) as Record<
        string,
        unknown
      >;
      expect(comparableCertificate(translated), fingerprint).toEqual(comparableCertificate(legacy));
    }
  }, 30_000);

  it("answers an unknown certificate with the v1 404", async () => {
    const res = await get(`/api/v1/view/certificates/${"f".repeat(64)}`);
    expect(res.status).toBe(404);
    expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(404);
  });

  it("bulk answers every fingerprint as asked, the unknown one as the legacy unknown entry", async () => {
    const known = facts.certificates.slice(0, 3);
    const unknown = "0".repeat(64);
    const requested = [known[0]?.toUpperCase() ?? "", ...known.slice(1), unknown];
    const res = await post("/api/v1/bulk/certificates", { fingerprints: requested });
    expect(res.status).toBe(200);
    const body = z
      .record(z.string(), z.union([bulkUnknownCertificateSchema, translatedCertificateSchema]))
      .parse(await res.json());
    expect(Object.keys(body).sort()).toEqual([...requested].sort());
    expect(body[unknown]).toEqual({ error: "Unknown certificate", error_type: "unknown", status: "error" });
    const view = await (await get(`/api/v1/view/certificates/${known[1]}`)).json();
    expect(body[known[1] ?? ""]).toEqual(view);
  });

  it("searches with the default fields and numbered pages as the origin's v1 search", async () => {
    // The Platform orders its pages its own way: the pages hold distinct certificates, each as
    // its view shows it, and count as the origin's v1 search counts.
    const seen = new Set<unknown>();
    for (const page of [1, 2]) {
      const res = await post("/api/v1/search/certificates", { query: "*", page });
      expect(res.status).toBe(200);
      const translated = searchResponseSchema.parse(await res.json());
      const legacy = searchResponseSchema.parse(
        await originJson("POST", "/api/v1/search/certificates", { query: "*", page }),
      );
      expect(translated.metadata.count).toBe(legacy.metadata.count);
      expect(translated.metadata.pages).toBe(legacy.metadata.pages);
      expect(translated.results.map((r) => Object.keys(r).sort())).toEqual(
        legacy.results.map((r) => Object.keys(r).sort()),
      );
      for (const result of translated.results) seen.add(result["parsed.fingerprint_sha256"]);
      const sample = translated.results[0] ?? {};
      const viewed = await get(`/api/v1/view/certificates/${String(sample["parsed.fingerprint_sha256"])}`);
      const view = z.object({ parsed: z.record(z.string(), z.unknown()) }).parse(await viewed.json());
      expect(sample["parsed.subject_dn"]).toBe(view.parsed.subject_dn);
      expect(sample["parsed.issuer_dn"]).toBe(view.parsed.issuer_dn);
    }
    expect(seen.size).toBe(Math.min(200, await originCount()));
    const nested = searchResponseSchema.parse(
      await (
        await post("/api/v1/search/certificates", {
          query: "*",
          fields: ["parsed.subject_dn"],
          flatten: false,
        })
      ).json(),
    );
    expect(Object.keys(nested.results[0] ?? {})).toEqual(["parsed"]);
  });

  it("refuses a query that does not parse and a page past what it translates, in the v1 shape", async () => {
    const bad = await post("/api/v1/search/certificates", { query: "parsed.names: (" });
    expect(bad.status).toBe(400);
    expect(v1ErrorSchema.parse(await bad.json()).error_code).toBe(400);
    // Pages 1 and 2 were read above: page 13 is eleven past the last of them.
    const deep = await post("/api/v1/search/certificates", { query: "*", page: 13 });
    expect(deep.status).toBe(400);
    expect(v1ErrorSchema.parse(await deep.json()).error).toMatch(/narrow the query/);
  });
});

describe("legacy inputs the translation refuses itself", () => {
  it("answers per_page 0 with the total alone, and refuses a bad per_page and an unknown aggregate field", async () => {
    const zero = v2Envelope(hostsSearchResultSchema).parse(
      await (await get("/api/v2/hosts/search?per_page=0")).json(),
    );
    expect(zero.result.hits).toEqual([]);
    expect(zero.result.total).toBeGreaterThan(0);
    expect(zero.result.links).toEqual({ prev: "", next: "" });

    const tooMany = await get("/api/v2/hosts/search?per_page=500");
    expect(tooMany.status).toBe(400);
    expect(v2ErrorSchema.parse(await tooMany.json()).error).toMatch(/per_page/);

    // A field the converter passes on is the Platform's to judge: its 400 is the legacy 422.
    const field = await get("/api/v2/hosts/aggregate?field=no.such.field");
    const fieldBody = await field.clone().text();
    expect(field.status, fieldBody).toBe(422);
    expect(v2ErrorSchema.parse(await field.json()).error, fieldBody).toMatch(/no\.such\.field/);
  });

  it("refuses escapes that are not UTF-8 as the origin does: in q the v2 422, elsewhere a 400", async () => {
    for (const [path, status] of [
      ["/api/v2/hosts/search?q=%ED%A0%80", 422],
      ["/api/v2/hosts/search?q=x&per_page=%zz", 400],
      ["/api/v2/hosts/aggregate?field=%FF", 400],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      const body = v2ErrorSchema.parse(await res.json());
      const origin = await askOrigin("GET", path);
      expect(origin.status, path).toBe(status);
      const originBody = v2ErrorSchema.parse(await origin.json());
      // The 422 says why, as a query the parser refuses does.
      if (status === 422) {
        const { detail } = v2InvalidQueryErrorSchema.parse(body);
        expect(detail, path).toMatch(/percent-escapes .* UTF-8/);
        expect(v2InvalidQueryErrorSchema.parse(originBody).detail, path).toBe(detail);
      }
    }
  });

  it("refuses a v1 search body without a query in the v1 shape", async () => {
    const res = await post("/api/v1/search/certificates", { page: 1 });
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(await res.json()).error).toMatch(/query/);
  });
});

describe("Platform failures as legacy errors", () => {
  // Scripted /v3 answers stand in for the Platform: each legacy route shows its own error shape.
  async function scripted(status: number, headers: Record<string, string> = {}) {
    const failing = testEdge({ vars: VARS });
    const created = await createTenant({ allowance: 100, tier: "unlimited" }, failing.fetch);
    const tenantHeader = tenantAuth(created);
    failing.upstream.answer(() =>
      Response.json(
        { type: "about:blank", title: "scripted", status, detail: `scripted ${status}` },
        { status, headers: { "content-type": "application/problem+json", ...headers } },
      ),
    );
    const call = (path: string) => failing.fetch(buildRequest("GET", path, { auth: tenantHeader }));
    return { call, failing, tenantHeader, tenantId: created.id };
  }

  it("keeps a 429 and its Retry-After, in the v1 and v2 rate-limit shapes", async () => {
    const { call } = await scripted(429, { "retry-after": "17" });
    const v2 = await call("/api/v2/hosts/1.1.1.1");
    expect(v2.status).toBe(429);
    expect(v2.headers.get("retry-after")).toBe("17");
    expect(await v2.json()).toMatchObject({ code: 429, error_type: "rate_limit_exceeded" });
    const v1 = await call(`/api/v1/view/certificates/${"a".repeat(64)}`);
    expect(v1.status).toBe(429);
    expect(await v1.json()).toMatchObject({ error_code: 429, error_type: "rate_limit_exceeded" });
  });

  it("answers the Platform's own failures and refusals of the gateway's tokens as a 502, refunded", async () => {
    for (const status of [500, 403, 401]) {
      const { call, failing, tenantHeader } = await scripted(status);
      const res = await call("/api/v2/hosts/search?per_page=1");
      expect(res.status, String(status)).toBe(502);
      const body = v2ErrorSchema.parse(await res.json());
      if (status !== 500) expect(body.error, String(status)).toMatch(/operator/);
      const account = accountSchema.parse(
        await (await failing.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantHeader }))).json(),
      );
      expect(account.quota.used, String(status)).toBe(0);
    }
  });

  it("gives back the whole hold of a bulk and a search the Platform fails or cannot be reached for", async () => {
    const fingerprints = ["1", "2", "3"].map((d) => d.repeat(64));
    for (const unreachable of [false, true]) {
      const { failing, tenantHeader, tenantId } = await scripted(500);
      if (unreachable) failing.upstream.answer(() => Promise.reject(new Error("connection refused")));
      for (const [path, body] of [
        ["/api/v1/bulk/certificates", { fingerprints }],
        ["/api/v1/search/certificates", { query: "*", page: 4 }],
      ] as const) {
        const res = await failing.fetch(buildRequest("POST", path, { auth: tenantHeader, body }));
        expect(res.status, path).toBe(502);
        expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(502);
      }
      const account = accountSchema.parse(
        await (await failing.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantHeader }))).json(),
      );
      expect(account.quota.used).toBe(0);
      // Nothing is left held in the tenant's ledger.
      expect(await ledgerHeld(tenantId)).toBe(0);
    }
  });

  it("answers an unreachable Platform with the legacy 502", async () => {
    const { call, failing } = await scripted(200);
    failing.upstream.answer(() => Promise.reject(new Error("connection refused")));
    const res = await call(`/api/v1/view/certificates/${"b".repeat(64)}`);
    expect(res.status).toBe(502);
    expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(502);
  });
});

describe("routes with no Platform equivalent", () => {
  const GAPS: [method: string, path: string, version: "v1" | "v2", why: RegExp][] = [
    ["GET", "/api/v1/data", "v1", /raw data/],
    ["GET", "/api/v1/data/ipv4", "v1", /raw data/],
    ["GET", "/api/v1/data/ipv4/20260101/files/zgrab", "v1", /raw data/],
  ];

  it("answers each with a 501 in its version's shape that says why and what instead, charging nothing", async () => {
    const tenant = await createTenant({ allowance: 100, tier: "unlimited" }, edge.fetch);
    const tenantAuthHeader = tenantAuth(tenant);
    const before = edge.upstream.requests.length;
    for (const [method, path, version, why] of GAPS) {
      const body = method === "POST" ? { query: "select 1", fingerprints: [] } : undefined;
      const res = await edge.fetch(buildRequest(method, path, { auth: tenantAuthHeader, body }));
      expect(res.status, path).toBe(501);
      const json = await res.json();
      const error = version === "v1" ? v1ErrorSchema.parse(json).error : v2ErrorSchema.parse(json).error;
      if (version === "v2") expect(json).toMatchObject({ code: 501, status: "Not Implemented" });
      expect(error, path).toMatch(/only the Censys Platform API/);
      expect(error, path).toMatch(why);
    }
    expect(edge.upstream.requests.length).toBe(before);
    const account = accountSchema.parse(
      await (await edge.fetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuthHeader }))).json(),
    );
    expect(account.quota.used).toBe(0);
    expect(account.login).toBe(tenant.name);
  });

  it("answers the 501 before any charge, so a tenant whose quota is spent still learns why", async () => {
    const tenant = await createTenant({ allowance: 1, tier: "unlimited" }, edge.fetch);
    const tenantAuthHeader = tenantAuth(tenant);
    const spend = await edge.fetch(
      buildRequest("GET", "/api/v2/hosts/search?q=&per_page=1", { auth: tenantAuthHeader }),
    );
    expect(spend.status).toBe(200);
    for (const [method, path] of GAPS) {
      const body = method === "POST" ? { query: "select 1", fingerprints: [] } : undefined;
      const res = await edge.fetch(buildRequest(method, path, { auth: tenantAuthHeader, body }));
      expect(res.status, path).toBe(501);
    }
    // A translated route with the same spent quota is refused as ever.
    const view = await edge.fetch(buildRequest("GET", "/api/v2/hosts/1.1.1.1", { auth: tenantAuthHeader }));
    expect(view.status).toBe(429);
    // The edge's own routes are unaffected by the mode.
    const tags = await edge.fetch(buildRequest("GET", "/api/v2/tags", { auth: tenantAuthHeader }));
    expect(tags.status).toBe(200);
  });
});

describe("UPSTREAM_API configuration", () => {
  const base = {
    DB: env.DB,
    LEDGER: env.LEDGER,
    ORIGIN: env.ORIGIN,
    RATE_LIMIT_LOW: env.RATE_LIMIT_LOW,
    RATE_LIMIT_STANDARD: env.RATE_LIMIT_STANDARD,
    RATE_LIMIT_HIGH: env.RATE_LIMIT_HIGH,
    ADMIN_TOKEN: "a".repeat(40),
  } as Env;

  it("needs no legacy credentials in platform mode, and a Platform upstream", () => {
    const ok = loadConfig({ ...base, ...VARS });
    expect(ok.ok && ok.config.upstreamApi).toBe("platform");
    const none = loadConfig({ ...base, UPSTREAM_API: "platform" });
    expect(none.ok ? [] : none.problems).toEqual([
      expect.stringMatching(/^UPSTREAM_API: is "platform" but no Platform upstream is configured/),
    ]);
    const production = loadConfig({
      ...base,
      ORIGIN: undefined,
      UPSTREAM_API: "platform",
      PLATFORM_CREDENTIALS: VARS.PLATFORM_CREDENTIALS,
    });
    expect(production.ok ? [] : production.problems).toContainEqual(
      expect.stringMatching(/^PLATFORM_URL: is not set but PLATFORM_CREDENTIALS is/),
    );
  });

  it("defaults to legacy, which still needs the legacy credentials, and refuses other values", () => {
    const legacy = loadConfig(base);
    expect(legacy.ok ? [] : legacy.problems).toEqual([
      expect.stringMatching(/^UPSTREAM_CREDENTIALS: is not set/),
    ]);
    const other = loadConfig({ ...base, ...VARS, UPSTREAM_API: "v3" });
    expect(other.ok ? [] : other.problems).toEqual([
      expect.stringMatching(/^UPSTREAM_API: must be "legacy" or "platform"/),
    ]);
  });
});

describe("legacy calls on a Platform-only upstream cost what their Platform calls cost", () => {
  let billing: TestEdge;
  let tenant: string;
  let tenantId: string;
  beforeAll(async () => {
    billing = testEdge({ vars: VARS });
    const created = await createTenant({ allowance: 1_000, tier: "unlimited" }, billing.fetch);
    tenant = tenantAuth(created);
    tenantId = created.id;
  });

  /** Credits the cache saved the tenant so far, from its usage rollups. */
  async function saved(): Promise<number> {
    const res = await admin("GET", `/admin/usage?tenant_id=${tenantId}`, undefined, billing.fetch);
    return usageListSchema.parse(await res.json()).usage.reduce((sum, row) => sum + row.quota_saved, 0);
  }

  const used = async (auth = tenant) =>
    accountSchema.parse(await (await billing.fetch(buildRequest("GET", "/api/v1/account", { auth }))).json())
      .quota.used;
  /** What one call charged the tenant, with its answer. */
  async function charged(method: string, path: string, body?: unknown) {
    const before = await used();
    const res = await billing.fetch(buildRequest(method, path, { auth: tenant, body }));
    expect(res.status, path).toBe(200);
    return { res, credits: (await used()) - before };
  }
  /** Certificates no earlier request left in the shared cache. */
  async function uncached(fingerprints: string[]): Promise<string[]> {
    for (const fp of fingerprints) {
      const res = await admin("DELETE", `/admin/cache/certificates/${fp}`, undefined, billing.fetch);
      expect(res.status).toBe(200);
    }
    return fingerprints;
  }

  it("a certificate view: its asset and its PEM; nothing once cached, and nothing for an unknown one", async () => {
    const [fp] = await uncached(facts.certificates.slice(-1));
    expect((await charged("GET", `/api/v1/view/certificates/${fp}`)).credits).toBe(2);
    const savedBefore = await saved();
    const again = await charged("GET", `/api/v1/view/certificates/${fp}`);
    expect(again.res.headers.get("Cache-Status")).toMatch(/; hit/);
    expect(again.credits).toBe(0);
    expect((await saved()) - savedBefore).toBe(2);
    const before = await used();
    const unknown = await billing.fetch(
      buildRequest("GET", `/api/v1/view/certificates/${"d".repeat(64)}`, { auth: tenant }),
    );
    expect(unknown.status).toBe(404);
    expect(await used()).toBe(before);
  });

  it("a bulk: an asset and a PEM for each certificate the upstream knew", async () => {
    const known = await uncached(facts.certificates.slice(-6, -2));
    const { credits } = await charged("POST", "/api/v1/bulk/certificates", {
      fingerprints: [...known, "e".repeat(64)],
    });
    expect(credits).toBe(2 * known.length);
    // Cached now: hits are not charged (CACHE_HITS_CHARGED is off by default), and count as saved.
    const savedBefore = await saved();
    expect((await charged("POST", "/api/v1/bulk/certificates", { fingerprints: known })).credits).toBe(0);
    expect((await saved()) - savedBefore).toBe(2 * known.length);
  });

  it("refuses a bulk the allowance cannot cover before asking the upstream", async () => {
    const poor = tenantAuth(await createTenant({ allowance: 7, tier: "unlimited" }, billing.fetch));
    const before = billing.upstream.requests.length;
    const refused = await billing.fetch(
      buildRequest("POST", "/api/v1/bulk/certificates", {
        auth: poor,
        body: { fingerprints: await uncached(facts.certificates.slice(-10, -6)) },
      }),
    );
    expect(refused.status).toBe(429);
    expect(v1ErrorSchema.parse(await refused.json()).error_type).toBe("quota_exceeded");
    expect(billing.upstream.requests.length).toBe(before);
    expect(await used(poor)).toBe(0);
  });

  it("a certificate search: one Platform search per page up to the one asked, stopping at the last", async () => {
    // A cold page 2 walks from the first; page 3 then starts from the token page 2 kept.
    expect((await charged("POST", "/api/v1/search/certificates", { query: "*", page: 2 })).credits).toBe(2);
    expect((await charged("POST", "/api/v1/search/certificates", { query: "*", page: 3 })).credits).toBe(1);
    // One page of results: asking for the third searches once and finds the end.
    const one = `parsed.fingerprint_sha256: ${facts.certificates[0] ?? ""}`;
    const past = await charged("POST", "/api/v1/search/certificates", { query: one, page: 3 });
    expect(searchResponseSchema.parse(await past.res.json()).metadata.pages).toBe(1);
    expect(past.credits).toBe(1);
  });

  it("a certificate search the upstream refuses costs nothing: a page more than ten past every page read, a body that is not JSON", async () => {
    // Pages 1 to 3 were read above: page 14 is eleven past the last of them.
    for (const body of [{ query: "*", page: 14 }, "{not json"]) {
      const before = await used();
      const res = await billing.fetch(
        buildRequest("POST", "/api/v1/search/certificates", { auth: tenant, body }),
      );
      expect(res.status).toBe(400);
      expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(400);
      expect(await used()).toBe(before);
    }
    expect(await ledgerHeld(tenantId)).toBe(0);
  });

  it("hosts: a view, a search page and an aggregate are one Platform call each", async () => {
    const ip = facts.hosts[7] ?? "";
    expect((await admin("DELETE", `/admin/cache/hosts/${ip}`, undefined, billing.fetch)).status).toBe(200);
    expect((await charged("GET", `/api/v2/hosts/${ip}`)).credits).toBe(1);
    const savedBefore = await saved();
    expect((await charged("GET", `/api/v2/hosts/${ip}`)).credits).toBe(0);
    expect((await saved()) - savedBefore).toBe(1);
    // Numbers of results no other test asks for, so no earlier answer is in the cache.
    expect((await charged("GET", "/api/v2/hosts/search?q=services.port%3A%2022&per_page=7")).credits).toBe(1);
    expect(
      (await charged("GET", "/api/v2/hosts/aggregate?q=&field=services.port&num_buckets=7")).credits,
    ).toBe(1);
  });
});
