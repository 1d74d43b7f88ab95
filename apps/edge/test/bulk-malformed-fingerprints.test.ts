import {
  BULK_FINGERPRINT_MAX_CHARS,
  BULK_MAX_FINGERPRINTS,
  type TenantWithSecret,
  v1ErrorSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../src/cache/bulk-merge";
import { ledgerUsed } from "./support/ledger";
import { askOrigin, ORIGIN_PLATFORM, originFacts, seedOrigin } from "./support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { type TestEdge, testEdge } from "./support/test-edge";

// A bulk request is answered whole even when some of its strings are not SHA-256 fingerprints
// (the official client sends 50 at a time): those are unknown certificates, keyed as sent, and
// are never looked up, sent upstream or charged, with either upstream.

await seedOrigin();
const facts = await originFacts();
const [CERT_A, CERT_B, CERT_C] = facts.certificates.slice(-3) as [string, string, string];
const UNKNOWN = "e".repeat(64);
/** Strings that are not SHA-256 fingerprints, each as a client might send it. */
const MALFORMED = [
  "zz",
  "g".repeat(64),
  "a".repeat(63),
  "a".repeat(65),
  "",
  "' OR 1=1 --",
  "../../../../etc/passwd",
  "é",
  "__proto__",
  "x".repeat(BULK_FINGERPRINT_MAX_CHARS),
];
const ALL_MALFORMED = Array.from({ length: BULK_MAX_FINGERPRINTS }, (_, i) => `not-a-fingerprint-${i}`);

const PLATFORM_VARS = { UPSTREAM_API: "platform", PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) };

async function setup(vars: Record<string, string> = {}) {
  // Every test starts from an empty cache: the documents table is shared within this file.
  await env.DB.prepare("delete from documents").run();
  const edge = testEdge({ vars });
  const tenant = await createTenant({ allowance: 1000, tier: "unlimited" }, edge.fetch);
  return { edge, tenant };
}

function bulk(edge: TestEdge, tenant: TenantWithSecret, body: unknown) {
  return edge.fetch(buildRequest("POST", "/api/v1/bulk/certificates", { body, auth: tenantAuth(tenant) }));
}

/** The origin's own documents for these certificates (its legacy bulk), by lower-case fingerprint. */
async function originDocuments(fingerprints: string[]): Promise<Record<string, unknown>> {
  const res = await askOrigin("POST", "/api/v1/bulk/certificates", { fingerprints });
  expect(res.status).toBe(200);
  return res.json();
}

/** The certificate ids the edge asked the Platform's bulk lookups for (asset and PEM). */
async function platformIdsAsked(edge: TestEdge): Promise<string[][]> {
  const calls = [
    ...edge.upstream.callsTo("/v3/global/asset/certificate"),
    ...edge.upstream.callsTo("/v3/global/asset/certificate/raw"),
  ];
  return Promise.all(calls.map(async (r) => (await r.json<{ certificate_ids: string[] }>()).certificate_ids));
}

/** Answers a body refused by the bulk body's rules must get, in either mode. */
const REFUSED: Array<[what: string, body: unknown, error: string]> = [
  [
    "a fingerprint string in place of the list",
    { fingerprints: CERT_A },
    "fingerprints: expected a list of 1 to 50 fingerprints (strings)",
  ],
  ["a number in the list", { fingerprints: [CERT_A, 7] }, "fingerprints.1: expected a fingerprint string"],
  [
    "a string longer than the bound",
    { fingerprints: [CERT_A, "x".repeat(BULK_FINGERPRINT_MAX_CHARS + 1)] },
    "fingerprints.1: at most 256 characters per fingerprint",
  ],
  ["an empty list", { fingerprints: [] }, "fingerprints: at least one fingerprint is required"],
  [
    "51 strings",
    { fingerprints: [...ALL_MALFORMED, "one-too-many"] },
    "fingerprints: at most 50 fingerprints per request",
  ],
];

describe("v1 bulk with strings that are not fingerprints, legacy upstream", () => {
  it("answers them as unknown beside the known ones, asking the upstream for the fingerprints only", async () => {
    const { edge, tenant } = await setup();
    const requested = [CERT_A, ...MALFORMED, CERT_B.toUpperCase(), UNKNOWN, "zz"];
    const res = await bulk(edge, tenant, { fingerprints: requested });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Status")).toBe("scangate; fwd=uri-miss; stored");
    const documents = await originDocuments([CERT_A, CERT_B, UNKNOWN]);
    expect(Object.keys(await res.clone().json())).toEqual(requested.slice(0, -1));
    expect(await res.json()).toEqual({
      [CERT_A]: documents[CERT_A],
      ...Object.fromEntries(MALFORMED.map((s) => [s, UNKNOWN_CERTIFICATE_ENTRY])),
      [CERT_B.toUpperCase()]: documents[CERT_B],
      [UNKNOWN]: documents[UNKNOWN],
    });
    const calls = edge.upstream.callsTo("/v1/bulk/certificates");
    expect(calls).toHaveLength(1);
    expect(await calls[0]?.json()).toEqual({ fingerprints: [CERT_A, CERT_B, UNKNOWN] });
    // One query, as the same bulk without them costs; nothing of them is cached.
    expect(await ledgerUsed(tenant.id)).toBe(1);
    const rows = await env.DB.prepare("select id from documents order by id").all<{ id: string }>();
    expect(rows.results.map((r) => r.id)).toEqual([CERT_A, CERT_B, UNKNOWN].sort());
  });

  it("answers them from the cache alone when the cache holds every fingerprint, for free", async () => {
    const { edge, tenant } = await setup();
    await bulk(edge, tenant, { fingerprints: [CERT_C] });
    const again = await bulk(edge, tenant, { fingerprints: ["zz", CERT_C] });
    expect(again.status).toBe(200);
    expect(again.headers.get("Cache-Status")).toBe("scangate; hit");
    const documents = await originDocuments([CERT_C]);
    expect(await again.json()).toEqual({ zz: UNKNOWN_CERTIFICATE_ENTRY, [CERT_C]: documents[CERT_C] });
    expect(edge.upstream.requests).toHaveLength(1);
    expect(await ledgerUsed(tenant.id)).toBe(1);
  });

  it.each([
    ["hits are free", {}],
    ["hits are charged", { CACHE_HITS_CHARGED: "true" }],
    ["a Platform upstream, hits charged", { ...PLATFORM_VARS, CACHE_HITS_CHARGED: "true" }],
  ])("answers 50 of them with 50 unknown entries, no upstream call and no charge (%s)", async (_, vars) => {
    const { edge, tenant } = await setup(vars);
    const res = await bulk(edge, tenant, { fingerprints: ALL_MALFORMED });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(
      Object.fromEntries(ALL_MALFORMED.map((s) => [s, UNKNOWN_CERTIFICATE_ENTRY])),
    );
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await ledgerUsed(tenant.id)).toBe(0);
  });

  it.each(REFUSED)("refuses %s with a v1 400 that says why, charging nothing", async (_, body, error) => {
    const { edge, tenant } = await setup();
    const res = await bulk(edge, tenant, body);
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(await res.json())).toEqual({ error_code: 400, error });
    expect(await ledgerUsed(tenant.id)).toBe(0);
  });
});

describe("v1 bulk with strings that are not fingerprints, Platform upstream", () => {
  it("answers them as unknown, asking the Platform and charging for the fingerprints only", async () => {
    const { edge, tenant } = await setup(PLATFORM_VARS);
    const requested = [CERT_A, ...MALFORMED, CERT_B.toUpperCase(), UNKNOWN];
    const res = await bulk(edge, tenant, { fingerprints: requested });
    expect(res.status).toBe(200);
    const body = await res.json<Record<string, unknown>>();
    expect(Object.keys(body)).toEqual(requested);
    const view = async (fp: string) =>
      (
        await edge.fetch(buildRequest("GET", `/api/v1/view/certificates/${fp}`, { auth: tenantAuth(tenant) }))
      ).json();
    expect(body).toEqual({
      [CERT_A]: await view(CERT_A),
      ...Object.fromEntries(MALFORMED.map((s) => [s, UNKNOWN_CERTIFICATE_ENTRY])),
      [CERT_B.toUpperCase()]: await view(CERT_B),
      [UNKNOWN]: UNKNOWN_CERTIFICATE_ENTRY,
    });
    expect(await platformIdsAsked(edge)).toEqual([
      [CERT_A, CERT_B, UNKNOWN],
      [CERT_A, CERT_B, UNKNOWN],
    ]);
    // An asset and a PEM for each of the two known certificates (the views were cache hits).
    expect(await ledgerUsed(tenant.id)).toBe(4);
  });

  it("never sends them to the Platform, even in a bulk call the cache did not filter", async () => {
    const { edge } = await setup(PLATFORM_VARS);
    const translate = async (fingerprints: string[]) => {
      const { response } = await edge.services().upstream.call({
        method: "POST",
        path: "/v1/bulk/certificates",
        body: new TextEncoder().encode(JSON.stringify({ fingerprints })),
        contentType: "application/json",
        signal: new AbortController().signal,
      });
      expect(response.status).toBe(200);
      return response.json<Record<string, unknown>>();
    };
    const mixed = await translate(["zz", CERT_C, "g".repeat(64)]);
    expect(Object.keys(mixed)).toEqual(["zz", CERT_C, "g".repeat(64)]);
    expect(mixed.zz).toEqual(UNKNOWN_CERTIFICATE_ENTRY);
    expect(await platformIdsAsked(edge)).toEqual([[CERT_C], [CERT_C]]);
    const before = edge.upstream.requests.length;
    expect(await translate(ALL_MALFORMED)).toEqual(
      Object.fromEntries(ALL_MALFORMED.map((s) => [s, UNKNOWN_CERTIFICATE_ENTRY])),
    );
    expect(edge.upstream.requests).toHaveLength(before);
  });

  it.each(REFUSED)("refuses %s with a v1 400 that says why, charging nothing", async (_, body, error) => {
    const { edge, tenant } = await setup(PLATFORM_VARS);
    const res = await bulk(edge, tenant, body);
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(await res.json())).toEqual({ error_code: 400, error });
    expect(edge.upstream.requests).toHaveLength(0);
    expect(await ledgerUsed(tenant.id)).toBe(0);
  });
});

describe("v1 bulk with a lone surrogate in a requested string", () => {
  it.each([
    ["legacy", {}],
    ["Platform", PLATFORM_VARS],
  ] as const)(
    "is a v1 400 on a %s upstream, as any text no answer can hold, charging nothing",
    async (_, vars) => {
      const { edge, tenant } = await setup(vars);
      const res = await bulk(edge, tenant, { fingerprints: [CERT_A, "x\ud800"] });
      expect(res.status).toBe(400);
      expect(v1ErrorSchema.parse(await res.json()).error).toMatch(/fingerprints.*1.*lone surrogate/);
      expect(await ledgerUsed(tenant.id)).toBe(0);
    },
  );
});
