import {
  accountSchema,
  certificateHostSchema,
  certificateHostsResultSchema,
  hostDiffResultSchema,
  type HostEvent,
  hostEventsResultSchema,
  hostNamesResultSchema,
  type JsonPatchOperation,
  hostsMetadataResultSchema,
  ipv4DocumentSchema,
  reportResponseSchema,
  searchResponseSchema,
  v1ErrorSchema,
  v2Envelope,
  v2ErrorSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { REAL_QUERIES } from "../../origin/test/real-queries/queries";
import { suiteSecretWatch } from "./reliability/secret-watch";
import {
  askOrigin,
  ORIGIN_PLATFORM,
  originBalance,
  type OriginFacts,
  originFacts,
  seedOrigin,
} from "./support/origin-data";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge, type TestEdge } from "./support/test-edge";

// The legacy reads a Platform-only edge (UPSTREAM_API=platform) answers beyond hosts and
// certificates: the v1 ipv4 and websites indexes, v1 reports, a host's names, the hosts of a
// certificate and the hosts' service names, each from the real origin's /v3 surface and
// compared with the origin's own legacy answer; and what each costs, against the credits the
// origin's organization lost.

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

const get = (path: string) => edge.fetch(buildRequest("GET", path, { auth }));
const post = (path: string, body: unknown) => edge.fetch(buildRequest("POST", path, { auth, body }));

async function origin(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await askOrigin(method, path, body);
  expect(res.status, path).toBe(200);
  return res.json();
}

async function search(index: string, body: Record<string, unknown>) {
  const res = await post(`/api/v1/search/${index}`, body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return searchResponseSchema.parse(await res.json());
}

describe("the v1 ipv4 and websites indexes from the Platform", () => {
  it("views a host as the origin's v1 ipv4 document: protocols, ports, place and per-port blocks", async () => {
    for (const ip of facts.hosts.slice(0, 5)) {
      const res = await get(`/api/v1/view/ipv4/${ip}`);
      expect(res.status, ip).toBe(200);
      const translated = ipv4DocumentSchema.parse(await res.json()) as Record<string, unknown>;
      const legacy = (await origin("GET", `/api/v1/view/ipv4/${ip}`)) as Record<string, unknown>;
      expect(translated.ip).toBe(legacy.ip);
      expect([...(translated.protocols as string[])].sort(), ip).toEqual(
        [...(legacy.protocols as string[])].sort(),
      );
      expect(translated.autonomous_system, ip).toMatchObject({
        asn: (legacy.autonomous_system as { asn: number }).asn,
      });
      const blocks = (doc: Record<string, unknown>) =>
        Object.keys(doc)
          .filter((k) => /^\d+$/.test(k))
          .sort();
      expect(blocks(translated), ip).toEqual(blocks(legacy));
    }
  });

  it("views a website as the origin's v1 document of that name, and an unknown one as the v1 404", async () => {
    for (const domain of facts.websites.slice(0, 3)) {
      const res = await get(`/api/v1/view/websites/${domain}`);
      expect(res.status, domain).toBe(200);
      const translated = websiteDocumentSchema.parse(await res.json()) as Record<string, unknown>;
      const legacy = (await origin("GET", `/api/v1/view/websites/${domain}`)) as Record<string, unknown>;
      expect(translated.domain).toBe(legacy.domain);
      expect(translated.protocols, domain).toEqual([...(legacy.protocols as string[])].sort());
      // Place is the host's, which a view does not read (README).
      expect(translated.location).toBeUndefined();
    }
    const unknown = await get("/api/v1/view/websites/no-such-name.invalid");
    expect(unknown.status).toBe(404);
    expect(v1ErrorSchema.parse(await unknown.json()).error_code).toBe(404);
  });

  it("searches ipv4 with v1 field names and counts as the origin's v1 search", async () => {
    for (const query of [
      "*",
      'protocols: "22/ssh"',
      "443.https.tls.version: TLSv1.2",
      "autonomous_system.asn: [0 TO 70000]",
      // A presented certificate's issuer, the page's body and the software found, as v1 named them.
      '443.https.tls.certificate.parsed.issuer.organization: "Scangate Demo Trust"',
      "80.http.get.body: html",
      "443.https.get.metadata.manufacturer: F5",
      "443.https.get.metadata.product: Nginx",
    ]) {
      const translated = await search("ipv4", { query });
      const legacy = searchResponseSchema.parse(await origin("POST", "/api/v1/search/ipv4", { query }));
      expect(legacy.metadata.count, query).toBeGreaterThan(0);
      expect(translated.metadata.count, query).toBe(legacy.metadata.count);
      expect(translated.results.map((r) => r.ip).sort(), query).toEqual(
        legacy.results.map((r) => r.ip).sort(),
      );
      for (const result of translated.results)
        expect(Object.keys(result).sort()).toEqual(["ip", "protocols"]);
    }
  });

  it("searches websites one web property a result, each the name's domain", async () => {
    for (const query of [
      "*",
      '443.https.tls.certificate.parsed.issuer.organization: "Scangate Demo Trust"',
    ]) {
      const page = await search("websites", { query, fields: ["domain", "ports"] });
      expect(page.metadata.count, query).toBeGreaterThan(0);
      for (const result of page.results) {
        expect(typeof result.domain).toBe("string");
        expect((result.ports as number[]).length).toBe(1);
      }
    }
  });

  it("answers the legacy queries people published (origin test/real-queries), converted for the Platform", async () => {
    const answers: string[] = [];
    for (const { dialect, index, query, finds } of REAL_QUERIES) {
      if (dialect === "cenql") continue;
      const res =
        dialect === "v1"
          ? await post(`/api/v1/search/${index ?? "ipv4"}`, { query })
          : await get(`/api/v2/hosts/search?${new URLSearchParams({ q: query }).toString()}`);
      const refusedByOrigin = typeof finds === "object" && "refused" in finds;
      if ((res.status === 200) === refusedByOrigin)
        answers.push(`${res.status} ${query}: ${await res.text()}`);
      else await res.body?.cancel();
    }
    // A v1 certificate chain is searched by what each certificate in it says; a Platform service
    // names its chain by fingerprints alone.
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(
      /^400 443\.https\.tls\.chain\.parsed\.issuer\.organization:.*no CenQL equivalent/,
    );
  });

  it("refuses a query that does not parse, a field with no Platform counterpart and an unknown index, in the v1 shape", async () => {
    for (const [index, query, status] of [
      ["ipv4", "protocols: (", 400],
      ["websites", "alexa_rank: [1 TO 10]", 400],
      ["ipv5", "*", 404],
    ] as const) {
      const res = await post(`/api/v1/search/${index}`, { query });
      expect(res.status, query).toBe(status);
      expect(v1ErrorSchema.parse(await res.json()).error_code, query).toBe(status);
    }
  });
});

describe("v1 reports from the Platform's aggregate", () => {
  it("breaks a certificate field down as the origin's v1 report", async () => {
    const body = { query: "*", field: "parsed.signature_algorithm.name", buckets: 3 };
    const res = await post("/api/v1/report/certificates", body);
    expect(res.status).toBe(200);
    const translated = reportResponseSchema.parse(await res.json());
    const legacy = reportResponseSchema.parse(await origin("POST", "/api/v1/report/certificates", body));
    expect(translated.results).toEqual(legacy.results);
    expect(translated.metadata.count).toBe(legacy.metadata.count);
    expect(translated.metadata.nonnull_count).toBe(legacy.metadata.nonnull_count);
    expect(translated.metadata.other_result_count).toBe(legacy.metadata.other_result_count);
  });

  it("breaks an ipv4 field and a per-port field down as the origin's v1 report", async () => {
    for (const field of ["location.country", "443.https.tls.version"]) {
      const body = { query: "*", field, buckets: 5 };
      const res = await post("/api/v1/report/ipv4", body);
      expect(res.status, field).toBe(200);
      const translated = reportResponseSchema.parse(await res.json());
      const legacy = reportResponseSchema.parse(await origin("POST", "/api/v1/report/ipv4", body));
      expect(translated.results, field).toEqual(legacy.results);
      expect(translated.metadata.nonnull_count, field).toBe(legacy.metadata.nonnull_count);
    }
  });

  it("counts a field of several values a document (ports) at most once a document in nonnull_count", async () => {
    const body = { query: "*", field: "ports", buckets: 3 };
    const res = await post("/api/v1/report/ipv4", body);
    expect(res.status).toBe(200);
    const { metadata } = reportResponseSchema.parse(await res.json());
    const legacy = reportResponseSchema.parse(await origin("POST", "/api/v1/report/ipv4", body)).metadata;
    expect(metadata.count).toBe(legacy.count);
    // The Platform's buckets count a host once per port; documents with a port are at most all of them.
    expect(metadata.nonnull_count).toBeLessThanOrEqual(metadata.count);
    expect(metadata.nonnull_count).toBe(legacy.nonnull_count);
  });

  it("refuses a derived field, a query that does not parse and a body without a field, in the v1 shape", async () => {
    for (const body of [
      { query: "*", field: "protocols" },
      { query: "protocols: (", field: "location.country" },
      { query: "*" },
    ]) {
      const res = await post("/api/v1/report/ipv4", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(400);
    }
  });
});

describe("host lists from the Platform", () => {
  it("lists a host's names as the origin's v2 names, a page at a time with cursors", async () => {
    const { ip } = facts.presented;
    const res = await get(`/api/v2/hosts/${ip}/names?per_page=100`);
    expect(res.status).toBe(200);
    const names = v2Envelope(hostNamesResultSchema).parse(await res.json()).result;
    const legacy = v2Envelope(hostNamesResultSchema).parse(
      await origin("GET", `/api/v2/hosts/${ip}/names`),
    ).result;
    expect(names.names).toEqual([...names.names].sort());
    for (const name of legacy.names) expect(names.names).toContain(name);
    const first = v2Envelope(hostNamesResultSchema).parse(
      await (await get(`/api/v2/hosts/${ip}/names?per_page=1`)).json(),
    );
    expect(first.result.names).toEqual(names.names.slice(0, 1));
    if (names.names.length > 1) {
      const next = await get(`/api/v2/hosts/${ip}/names?per_page=1&cursor=${first.result.links.next}`);
      expect(v2Envelope(hostNamesResultSchema).parse(await next.json()).result.names).toEqual(
        names.names.slice(1, 2),
      );
      const mismatched = await get(`/api/v2/hosts/${ip}/names?per_page=2&cursor=${first.result.links.next}`);
      expect(mismatched.status).toBe(400);
      expect(v2ErrorSchema.parse(await mismatched.json()).code).toBe(400);
    }
  });

  it("lists the hosts presenting a certificate as the origin does, an unknown one as the v2 404", async () => {
    const { certificate } = facts.presented;
    const res = await get(`/api/v2/certificates/${certificate}/hosts`);
    expect(res.status).toBe(200);
    // When a host first presented it is the host history's, which a search does not carry (README).
    const translated = v2Envelope(
      certificateHostsResultSchema.extend({
        hosts: z.array(certificateHostSchema.omit({ first_observed_at: true })),
      }),
    ).parse(await res.json()).result;
    for (const host of translated.hosts) expect(host).not.toHaveProperty("first_observed_at");
    const legacy = v2Envelope(certificateHostsResultSchema).parse(
      await origin("GET", `/api/v2/certificates/${certificate}/hosts`),
    ).result;
    expect(translated.hosts.map((h) => h.ip)).toEqual(legacy.hosts.map((h) => h.ip));
    expect(translated.hosts.map((h) => h.observed_at)).toEqual(legacy.hosts.map((h) => h.observed_at));
    const unknown = await get(`/api/v2/certificates/${"e".repeat(64)}/hosts`);
    expect(unknown.status).toBe(404);
    expect(v2ErrorSchema.parse(await unknown.json()).code).toBe(404);
  });

  it("refuses a bad page size in the v2 shape", async () => {
    for (const path of [
      `/api/v2/certificates/${"a".repeat(64)}/hosts?per_page=1000`,
      `/api/v2/hosts/${facts.presented.ip}/names?per_page=0`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(v2ErrorSchema.parse(await res.json()).code, path).toBe(400);
    }
  });

  it("answers a malformed address, fingerprint or time with the origin's own 422, before any Platform call", async () => {
    for (const path of [
      "/api/v2/certificates/not-a-fingerprint/hosts",
      "/api/v2/hosts/not-an-ip",
      `/api/v2/hosts/${facts.presented.ip}?at_time=garbage`,
      "/api/v2/hosts/not-an-ip/names",
      "/api/v2/experimental/hosts/not-an-ip/events",
      `/api/v2/hosts/${facts.presented.ip}/diff?ip_b=not-an-ip`,
    ]) {
      const res = await get(path);
      const origin = await askOrigin("GET", path);
      expect(res.status, path).toBe(422);
      expect(await res.json(), path).toEqual(await origin.json());
    }
  });

  it("lists the service names hosts run as the origin's v2 metadata", async () => {
    const res = await get("/api/v2/metadata/hosts");
    expect(res.status).toBe(200);
    const translated = v2Envelope(hostsMetadataResultSchema).parse(await res.json()).result;
    const legacy = v2Envelope(hostsMetadataResultSchema).parse(
      await origin("GET", "/api/v2/metadata/hosts"),
    ).result;
    expect(translated.services).toEqual(legacy.services);
  });
});

describe("a host over time from the Platform's timeline and lookups", () => {
  const events = async (ip: string, query = "") => {
    const res = await get(`/api/v2/experimental/hosts/${ip}/events?per_page=50${query}`);
    expect(res.status, query).toBe(200);
    return v2Envelope(hostEventsResultSchema).parse(await res.json()).result;
  };
  const eventKey = (event: HostEvent) => {
    const service = event.service_observed?.id ?? event.service_removed?.id;
    return [event.timestamp, event._event, service?.port, service?.transport_protocol];
  };

  it("tells a host's events as the origin's v2 events, in time order and reversed", async () => {
    const { ip } = facts.historic;
    const translated = await events(ip);
    const legacy = v2Envelope(hostEventsResultSchema).parse(
      await origin("GET", `/api/v2/experimental/hosts/${ip}/events?per_page=50`),
    ).result;
    expect(translated.events.length).toBeGreaterThan(1);
    expect(translated.events.map(eventKey)).toEqual(legacy.events.map(eventKey));
    const located = (list: HostEvent[]) =>
      list.flatMap((e) => (e.location_updated ? [e.location_updated] : []));
    expect(located(translated.events)).toEqual(located(legacy.events));
    expect((await events(ip, "&reversed=true")).events).toEqual([...translated.events].reverse());
    const [first, second] = [...new Set(translated.events.map((e) => e.timestamp))];
    const window = await events(ip, `&start_time=${first ?? ""}&end_time=${second ?? ""}`);
    expect(window.events).toEqual(translated.events.filter((e) => e.timestamp === first));
  });

  it("pages events with a cursor bound to its query, and refuses another's or a bad page size", async () => {
    const { ip } = facts.historic;
    const all = await events(ip);
    const res = await get(`/api/v2/experimental/hosts/${ip}/events?per_page=1`);
    const page = v2Envelope(hostEventsResultSchema).parse(await res.json()).result;
    expect(page.events).toEqual(all.events.slice(0, 1));
    const next = await get(`/api/v2/experimental/hosts/${ip}/events?per_page=1&cursor=${page.links.next}`);
    expect(v2Envelope(hostEventsResultSchema).parse(await next.json()).result.events).toEqual(
      all.events.slice(1, 2),
    );
    for (const query of [`per_page=2&cursor=${page.links.next}`, "per_page=500", "cursor=not-a-cursor"]) {
      const refused = await get(`/api/v2/experimental/hosts/${ip}/events?${query}`);
      expect(refused.status, query).toBe(400);
      expect(v2ErrorSchema.parse(await refused.json()).code, query).toBe(400);
    }
    const unknown = await get("/api/v2/experimental/hosts/10.255.255.254/events");
    expect(unknown.status).toBe(404);
  });

  it("diffs a host at two times and two hosts with a patch that turns the first view into the second", async () => {
    const { ip, atTime } = facts.historic;
    const view = async (path: string) =>
      v2Envelope(z.record(z.string(), z.unknown())).parse(await (await get(path)).json()).result;
    const older = await view(`/api/v2/hosts/${ip}?at_time=${encodeURIComponent(atTime)}`);
    const newer = await view(`/api/v2/hosts/${ip}`);
    const res = await get(`/api/v2/hosts/${ip}/diff?at_time=${encodeURIComponent(atTime)}`);
    expect(res.status).toBe(200);
    const diff = v2Envelope(hostDiffResultSchema).parse(await res.json()).result;
    expect(diff.a).toEqual({ ip, last_updated_at: older.last_updated_at });
    expect(diff.patch.length).toBeGreaterThan(0);
    expect(applyPatch(older, diff.patch)).toEqual(newer);
    const [first, second] = facts.hosts;
    const pair = v2Envelope(hostDiffResultSchema).parse(
      await (await get(`/api/v2/hosts/${first ?? ""}/diff?ip_b=${second ?? ""}`)).json(),
    ).result;
    expect(pair.patch).toContainEqual({ op: "replace", path: "/ip", value: second });
    expect(applyPatch(await view(`/api/v2/hosts/${first ?? ""}`), pair.patch)).toEqual(
      await view(`/api/v2/hosts/${second ?? ""}`),
    );
  });

  it("answers a diff with an unknown host 404 and one with a bad time 400, in the v2 shape", async () => {
    for (const [query, status] of [
      ["ip_b=10.255.255.254", 404],
      ["at_time=2000-01-01T00:00:00Z", 404],
      ["at_time=yesterday", 400],
    ] as const) {
      const res = await get(`/api/v2/hosts/${facts.hosts[0] ?? ""}/diff?${query}`);
      expect(res.status, query).toBe(status);
      expect(v2ErrorSchema.parse(await res.json()).code, query).toBe(status);
    }
  });
});

/** RFC 6902 add/remove/replace applied in order to a copy (what the official client's users do). */
function applyPatch(document: unknown, patch: readonly JsonPatchOperation[]): unknown {
  const root = { doc: structuredClone(document) } as Record<string, unknown>;
  for (const op of patch) {
    const parts = op.path
      .split("/")
      .slice(1)
      .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
    let parent: Record<string, unknown> | unknown[] = root;
    let key: string | number = "doc";
    for (const part of parts) {
      parent = (parent as Record<string | number, unknown>)[key] as Record<string, unknown> | unknown[];
      key = Array.isArray(parent) ? (part === "-" ? parent.length : Number(part)) : part;
    }
    if (Array.isArray(parent)) {
      const index = key as number;
      if (op.op === "remove") parent.splice(index, 1);
      else if (op.op === "add") parent.splice(index, 0, op.value);
      else parent[index] = op.value;
    } else if (op.op === "remove") delete parent[key as string];
    else parent[key as string] = op.value;
  }
  return root.doc;
}

describe("what the translated reads cost: the credits the origin's organization lost", () => {
  let billing: TestEdge;
  let tenant: string;
  beforeAll(async () => {
    billing = testEdge({ vars: VARS });
    tenant = tenantAuth(await createTenant({ allowance: 1_000, tier: "unlimited" }, billing.fetch));
  });

  const used = async () =>
    accountSchema.parse(
      await (await billing.fetch(buildRequest("GET", "/api/v1/account", { auth: tenant }))).json(),
    ).quota.used;

  /** One call: what the tenant was charged and what the organization lost, and its status. */
  async function costOf(method: string, path: string, body?: unknown) {
    const [tenantBefore, orgBefore] = [await used(), await originBalance()];
    const res = await billing.fetch(buildRequest(method, path, { auth: tenant, body }));
    await res.arrayBuffer();
    return {
      status: res.status,
      charged: (await used()) - tenantBefore,
      lost: orgBefore - (await originBalance()),
    };
  }

  it("charges each translated route what the organization lost, and the declared price", async () => {
    const { ip, certificate } = facts.presented;
    const calls: [method: string, path: string, body: unknown, credits: number][] = [
      ["GET", `/api/v1/view/ipv4/${facts.hosts[7] ?? ""}`, undefined, 1],
      ["GET", `/api/v1/view/websites/${facts.websites[4] ?? ""}`, undefined, 1],
      ["POST", "/api/v1/search/ipv4", { query: 'protocols: "22/ssh"' }, 1],
      ["POST", "/api/v1/search/websites", { query: "*" }, 1],
      ["POST", "/api/v1/report/ipv4", { query: "*", field: "location.country" }, 1],
      ["POST", "/api/v1/report/websites", { query: "*", field: "ports" }, 1],
      ["POST", "/api/v1/report/certificates", { query: "*", field: "parsed.issuer.organization" }, 1],
      ["GET", `/api/v2/hosts/${ip}/names?per_page=7`, undefined, 1],
      ["GET", `/api/v2/certificates/${certificate}/hosts?per_page=7`, undefined, 1],
      ["GET", "/api/v2/metadata/hosts", undefined, 1],
      ["GET", `/api/v2/experimental/hosts/${facts.historic.ip}/events`, undefined, 1],
      ["GET", `/api/v2/hosts/${facts.hosts[2] ?? ""}/diff?ip_b=${facts.hosts[3] ?? ""}`, undefined, 2],
    ];
    for (const [method, path, body, credits] of calls) {
      const cost = await costOf(method, path, body);
      expect(cost.status, path).toBe(200);
      expect(cost.charged, path).toBe(credits);
      expect(cost.lost, path).toBe(cost.charged);
    }
    // Twelve routes, each read with the tenant's and the organization's balances around it.
  }, 30_000);

  it("a v1 search page whose previous page was read costs one search; a cold page N costs N", async () => {
    const query = { query: "*" };
    const first = await costOf("POST", "/api/v1/search/ipv4", { ...query, page: 1 });
    expect(first).toMatchObject({ status: 200, charged: 1, lost: 1 });
    // Page 1 left the way to page 2.
    const next = await costOf("POST", "/api/v1/search/ipv4", { ...query, page: 2 });
    expect(next).toMatchObject({ status: 200, charged: 1, lost: 1 });
    // Another tenant's pages are its own: its page 2 walks from the first.
    const other = tenantAuth(await createTenant({ allowance: 100, tier: "unlimited" }, billing.fetch));
    const orgBefore = await originBalance();
    const res = await billing.fetch(
      buildRequest("POST", "/api/v1/search/ipv4", { auth: other, body: { ...query, page: 2 } }),
    );
    expect(res.status).toBe(200);
    const account = accountSchema.parse(
      await (await billing.fetch(buildRequest("GET", "/api/v1/account", { auth: other }))).json(),
    );
    expect(account.quota.used).toBe(2);
    expect(orgBefore - (await originBalance())).toBe(2);
  });

  it("refuses a cold page past the tenth with a 400 that costs nothing", async () => {
    const cost = await costOf("POST", "/api/v1/search/certificates", {
      query: "parsed.names: example",
      page: 11,
    });
    expect(cost).toEqual({ status: 400, charged: 0, lost: 0 });
  });

  it("a diff whose second host is unknown costs the one lookup the organization paid for", async () => {
    const cost = await costOf("GET", `/api/v2/hosts/${facts.hosts[4] ?? ""}/diff?ip_b=10.255.255.254`);
    expect(cost).toEqual({ status: 404, charged: 1, lost: 1 });
    const unknownFirst = await costOf("GET", "/api/v2/hosts/10.255.255.254/diff");
    expect(unknownFirst).toEqual({ status: 404, charged: 0, lost: 0 });
  });

  it("an unknown document a search looked for costs the search; one a lookup missed costs nothing", async () => {
    // The Platform bills a search that finds nothing, and no lookup it answers 404.
    for (const path of [
      "/api/v1/view/websites/nosuch.example",
      `/api/v2/certificates/${"1".repeat(64)}/hosts`,
    ]) {
      expect(await costOf("GET", path), path).toEqual({ status: 404, charged: 1, lost: 1 });
    }
    for (const path of ["/api/v1/view/ipv4/10.255.255.254", "/api/v2/hosts/10.255.255.254"]) {
      expect(await costOf("GET", path), path).toEqual({ status: 404, charged: 0, lost: 0 });
    }
  });

  it("a refused report or search costs nothing", async () => {
    for (const [path, body] of [
      ["/api/v1/report/ipv4", { query: "*", field: "protocols" }],
      ["/api/v1/search/ipv4", { query: "protocols: (" }],
    ] as const) {
      const cost = await costOf("POST", path, body);
      expect(cost, path).toEqual({ status: 400, charged: 0, lost: 0 });
    }
  });
});
