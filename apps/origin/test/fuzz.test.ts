/**
 * Property-based fuzzing of every origin route (ORIGIN_ROUTES) and of paths beside them,
 * through the worker's entry: valid requests, valid requests with one field made bad, valid
 * requests with a lone surrogate in one string field (every string field of every route; each
 * must be a 4xx), and raw junk. Every answer: no 5xx; JSON in the route version's error shape or the route's success
 * shape; no account secret in it. Requests go in concurrent batches, and the databases are
 * compared after every batch: a refused request changes no stored row. The edge's own suite is
 * test/reliability/fuzz.test.ts there; both run through fuzzRoutes in test/support/fuzz.ts.
 *
 * The seed is printed at the start ("origin fuzz seed N"); replay a failure with
 * `FUZZ_SEED=N npx vitest run test/fuzz.test.ts`.
 */
import { type z } from "zod";
import { lenientPath, versionOfPath } from "@scangate/core/http";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect } from "vitest";
import { ORIGIN_MUTABLE } from "./support/d1-snapshot";
import { D1Writes } from "./support/d1-writes";
import { ORIGIN_ROUTES } from "../src/routes";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts } from "./support/dataset-facts";
import {
  type Credentials,
  type FuzzRoute,
  fuzzRoutes,
  fuzzSeed,
  fuzzVersionOfPath,
  jsonSchemaOf,
  junkRequest,
  type Samples,
} from "./support/fuzz";
import { configuredAccount, defaultAuth, workerFetch } from "./support/requests";
import { platformAccount } from "./v3-requests";

/** Cases per route and kind, and of junk (see the edge README's "Tests" for the budget). */
const CASES = { valid: 30, mutated: 60, junk: 5000 } as const;
/**
 * Requests sent at once (one property run), then the databases compared. Requests go to the
 * worker's `fetch` handler directly (workerFetch): through `exports.default.fetch` every call
 * cost more than the last (cloudflare/workers-sdk#15446; the edge README's "Tests" has figures).
 */
const BATCH = { routes: 5, junk: 25 };

const seed = fuzzSeed(env.FUZZ_SEED);
const replay = `FUZZ_SEED=${seed} npx vitest run test/fuzz.test.ts`;
console.log(`origin fuzz seed ${seed} (replay: ${replay})`);

const BASE = "http://origin.test";

interface Definition {
  method: string;
  path: string;
  request?: {
    params?: z.ZodType;
    query?: z.ZodType;
    body?: { content: Record<string, { schema: z.ZodType }> };
  };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

function okOf(definition: Definition): FuzzRoute["ok"] {
  const [status, response] =
    Object.entries(definition.responses).find(([status]) => status.startsWith("2")) ?? [];
  if (status === "204" || !response?.content) return "empty";
  // JSON in `application/json` or a media type of its own (v3: `application/vnd...+json`).
  const json = Object.entries(response.content).find(([type]) =>
    /^application\/([\w.-]+\+)?json$/.test(type),
  );
  return json ? (json[1].schema as z.ZodType) : "file";
}

const routes: FuzzRoute[] = ORIGIN_ROUTES.map((route) => {
  const definition = route.definition as unknown as Definition;
  const path = definition.path.replace(/\{(\w+)\}/g, ":$1");
  const body = definition.request?.body?.content["application/json"]?.schema;
  const version = fuzzVersionOfPath(path, versionOfPath);
  return {
    method: definition.method.toUpperCase(),
    path,
    operation: route.operation,
    version,
    auth: version === "v3" ? "platform" : "tenant",
    params: definition.request?.params && jsonSchemaOf(definition.request.params),
    query: definition.request?.query && jsonSchemaOf(definition.request.query),
    body: body && jsonSchemaOf(body),
    ok: okOf(definition),
  };
});

const account = configuredAccount();
const { personal_access_token: token } = platformAccount();
const secrets = [account.api_secret, btoa(`${account.api_id}:${account.api_secret}`), token];
/** The origin has no admin API: its "admin" credential is just another wrong one. */
const credentials: Credentials = {
  tenant: defaultAuth(),
  admin: "Bearer not-an-origin-credential",
  platform: `Bearer ${token}`,
};
const samples: Samples = {};
const writes = new D1Writes({
  origin: { db: env.DB, mutable: ORIGIN_MUTABLE },
  originSnapshots: { db: env.SNAPSHOTS, mutable: { tables: [], columns: {} } },
});

beforeAll(async () => {
  await seedTestDataset();
  const hosts = (await hostFacts()).slice(0, 3).map((h) => h.ip);
  const certificates = (await certificateDocs()).slice(0, 2).map((c) => c.sha256);
  Object.assign(samples, {
    index: ["ipv4", "websites", "certificates"],
    id: [...hosts.slice(0, 2), ...certificates.slice(0, 1)],
    ip: hosts,
    sha256: certificates,
    fingerprint: certificates,
    series: ["ipv4"],
    job_id: [`job_${"0".repeat(32)}`],
    page: ["1"],
    query: ["*", `ip: ${hosts[0] ?? "1.1.1.1"}`, "location.country: US"],
    "query_start.query": ["select 1"],
    "export_start.query": ["select 1"],
    field: ["location.country", "services.port"],
    q: ["", "services.port: 22", "location.country: US"],
    fingerprints: [certificates],
    name: ["fuzz-tag"],
    contents: ["a note"],
    // v3 (the Platform API)
    host_id: hosts,
    host_ids: [hosts],
    certificate_id: certificates,
    certificate_ids: [certificates],
    webproperty_id: hosts.map((ip) => `${ip}:80`),
    webproperty_ids: [hosts.map((ip) => `${ip}:80`)],
    organization_id: [platformAccount().organization_id],
    user_id: [platformAccount().user_id],
    at_time: ["2026-10-15T00:00:00Z"],
    start_time: ["2030-01-01T00:00:00Z"],
    end_time: ["2020-01-01T00:00:00Z"],
    granularity: ["daily", "monthly"],
  } satisfies Samples);
  // The accounts' first contact writes their rows (the usage row with first_login, the
  // organization's credit grant) whatever the answer: made here, before the comparison starts.
  const firstContacts = [
    new Request(`${BASE}/api/v1/account`, { headers: { authorization: credentials.tenant } }),
    new Request(`${BASE}/v3/accounts/organizations/${platformAccount().organization_id}/credits`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  ];
  for (const request of firstContacts) expect((await workerFetch(request)).status).toBe(200);
  Object.assign(samples, await platformSamples(hosts, certificates));
  await writes.start();
}, 60_000);

/** Calls the Platform API as the fuzzed account, expecting success; the answer's `result`. */
async function platformCall(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await workerFetch(
    new Request(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  const answer: { result: Record<string, unknown> } = await res.json();
  return answer.result;
}

/**
 * Records of the Platform API for its routes to find (a collection, a tag and an assignment,
 * a comment, a scan, a CensEye job) and the bodies its writes take, made before the comparison
 * starts; the history index is built then too (the by-name DNS routes build it on first use).
 */
async function platformSamples(hosts: string[], certificates: string[]): Promise<Samples> {
  const [ip = "1.1.1.1"] = hosts;
  const host = (await hostFacts()).find((h) => h.ip === ip)!;
  const service = host.doc.services[0]!;
  const collection = await platformCall("POST", "/v3/collections", {
    name: "fuzz collection",
    query: "host.services.port: 22",
  });
  const tag = await platformCall("POST", "/v3/tags", { name: "fuzz platform tag", privacy: "shared" });
  const assignment = await platformCall("POST", `/v3/tags/${String(tag.id)}/assignments`, { asset_id: ip });
  const operation = await platformCall("POST", `/v3/tags/${String(tag.id)}/assignments/bulk-create`, {
    query: "host.services.port: 23",
  });
  const comment = await platformCall("POST", "/v3/comments", { asset_id: ip, body: "a fuzz note" });
  const rescan = {
    service_id: {
      ip,
      port: service.port,
      protocol: service.service_name,
      transport_protocol: service.transport_protocol.toLowerCase(),
    },
  };
  const scan = await platformCall("POST", "/v3/global/scans/rescan", { target: rescan });
  const job = await platformCall("POST", "/v3/threat-hunting/censeye/jobs", { target: { host_id: ip } });
  // A name some host resolves from: a host presenting a certificate answers for its names (not
  // every host has one, so the sampled hosts may not).
  const named = (await hostFacts())
    .filter((h) => h.doc.services.some((s) => "certificate" in s))
    .map((h) => h.ip);
  let dnsName: string | undefined;
  for (const address of named) {
    const ranges = await platformCall("GET", `/v3/global/dns/resolutions/ip/${address}/bounds`);
    dnsName = (ranges.records as { domain: string }[])[0]?.domain;
    if (dnsName !== undefined) break;
  }
  if (dnsName === undefined) throw new Error("no host resolves from a DNS name");
  await platformCall("GET", `/v3/global/dns/resolutions/${dnsName}/bounds`);
  return {
    host_ip: hosts,
    collection_uid: [String(collection.id)],
    tag_id: [String(tag.id), "-"],
    assignment_id: [String(assignment.id)],
    operation_id: [String(operation.id)],
    comment_id: [String(comment.id)],
    scan_id: [String(scan.tracked_scan_id)],
    "v3_censeye_job.job_id": [String(job.job_id)],
    "v3_censeye_job_results.job_id": [String(job.job_id)],
    "v3_dns_name_bounds.name": [dnsName],
    "v3_dns_name_ranges.name": [dnsName],
    "v3_collection_create.query": ["host.services.port: 22", "host.services.protocol=SSH"],
    "v3_collection_update.query": ["host.services.port: 22"],
    "v3_collection_search_query.query": ["host.services.port: *"],
    "v3_collection_search_aggregate.query": ["", "host.services.port: 22"],
    "v3_collection_search_aggregate.field": ["host.location.country"],
    "v3_tag_bulk_create.query": ["host.services.port: 23", "host.ip: 192.0.2.1"],
    "v3_search_query.query": ["host.services.port: 22", "cert.names: *"],
    "v3_search_aggregate.field": ["host.services.port"],
    "v3_search_aggregate.query": ["", "host.services.protocol=SSH"],
    "v3_tag_create.name": ["fuzz platform tag", "fuzz platform tag two"],
    "v3_collection_create.name": ["fuzz collection", "fuzz collection two"],
    privacy: ["shared", "private"],
    asset_id: [ip, `${certificates[0] ?? ""}`, `${ip}:80`],
    body: ["a note"],
    email: ["fuzz.invitee@scangate.test"],
    roles: [["admin", "api_access"], ["admin"]],
    "v3_scan_rescan.target": [rescan],
    "v3_scan_discovery.target": [
      { host_port: { ip, port: 65000 } },
      { hostname_port: { hostname: dnsName, port: 443 } },
    ],
    "v3_censeye_job_create.target": [{ host_id: ip }, { certificate_id: certificates[0] }],
    "v3_threats.query": ["", "*", "host.services.port: 443", "web.hostname: *"],
    and_count_conditions: [[{ field_value_pairs: [{ field: "host.services.port", value: "22" }] }]],
  };
}

/** Waits out the jobs valid cases started (their rows change in the background). */
async function jobsSettled(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const pending = await env.DB.prepare("select count(*) as n from jobs where status = 'pending'").first<{
      n: number;
    }>();
    if (!pending?.n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("jobs stayed pending");
}

describe("origin fuzz", () => {
  fuzzRoutes(
    {
      name: "origin",
      base: BASE,
      send: (request) => workerFetch(request),
      secrets,
      changes: async () => {
        await jobsSettled();
        return writes.changes();
      },
    },
    {
      routes,
      samples,
      credentials,
      cases: CASES,
      batch: BATCH,
      seed,
      junk: junkRequest(
        [
          "/",
          "/api",
          "/api/v1/",
          "/api/v2/",
          "/api/v2/hosts/",
          "/v3/global/asset/",
          "/v3/tags/",
          "/v3/collections/",
          "/v3/global/dns/resolutions/",
          "/health",
          "/x",
        ],
        credentials,
      ),
      // The version the worker gives a path: of the path it routes on (`//` collapsed, as it does).
      junkExpectation: (request) => ({
        version: fuzzVersionOfPath(lenientPath(new Request(`${BASE}${request.path}`)), versionOfPath),
      }),
      replay,
    },
  );
});
