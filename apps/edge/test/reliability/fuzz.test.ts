/**
 * Property-based fuzzing of every edge route (API_ROUTES, ADMIN_ROUTES) and of paths beside
 * them, through the real app in front of the real origin. Four kinds of case: valid requests,
 * valid requests with one field made bad, valid requests with a lone surrogate in one string
 * field (every string field of every route; each must be a 4xx), and raw junk. Every answer: no 5xx; JSON in the
 * route version's error shape, or the route's own success shape; no upstream secret or admin
 * token in it (nor in any log line). Requests go in concurrent batches; after every batch both
 * workers' databases are compared with the last batch's: a refused request changes no stored row
 * (the shared driver: fuzzRoutes in the origin's test/support/fuzz.ts).
 *
 * The seed is printed at the start ("edge fuzz seed N"); replay a failure with
 * `FUZZ_SEED=N npx vitest run test/reliability/fuzz.test.ts`. fast-check's own failure message
 * also gives the failing property's seed and path.
 */
import { platformTokenWithSecretSchema, type TenantWithSecret } from "@scangate/core";
import { lenientPath, versionOfPath } from "@scangate/core/http";
import { env } from "cloudflare:workers";
import { beforeAll, describe } from "vitest";
import { D1Writes } from "../../../origin/test/support/d1-writes";
import {
  type Credentials,
  type FuzzPlan,
  type FuzzRoute,
  fuzzRoutes,
  fuzzSeed,
  fuzzVersionOfPath,
  jsonSchemaOf,
  junkRequest,
  type Samples,
} from "../../../origin/test/support/fuzz";
import { ADMIN_ROUTES } from "../../src/routes/admin";
import { API_ROUTES } from "../../src/routes/api";
import { ORIGIN_PLATFORM, originFacts, seedOrigin } from "../support/origin-data";
import { admin, adminAuth, createTenant, tenantAuth } from "../support/requests";
import { testEdge } from "../support/test-edge";
import { EDGE_MUTABLE, ORIGIN_MUTABLE } from "./d1-snapshot";
import { PLATFORM_FUZZ_ROUTES } from "./platform-routes";
import { configuredUpstreamCredentials, suiteSecretWatch } from "./secret-watch";

/** Cases per route and kind, and of junk (the budget: README "Tests"). */
const CASES = { valid: 20, mutated: 80, junk: 13_300 } as const;
/** Requests sent at once (one property run). */
const BATCH = { routes: 10, junk: 25 };

const seed = fuzzSeed(env.FUZZ_SEED);
const replay = `FUZZ_SEED=${seed} npx vitest run test/reliability/fuzz.test.ts`;
console.log(`edge fuzz seed ${seed} (replay: ${replay})`);

// The Platform API (/v3) goes to the origin's own, with its local account as the pool.
const edge = testEdge({ vars: { PLATFORM_CREDENTIALS: JSON.stringify([ORIGIN_PLATFORM]) } });
const BASE = "http://edge.test";

const routes: FuzzRoute[] = [
  ...API_ROUTES.map(
    (route): FuzzRoute => ({
      method: route.method,
      path: route.path,
      operation: route.operation,
      version: route.api,
      auth: "tenant",
      query: route.query && jsonSchemaOf(route.query),
      body: route.body && jsonSchemaOf(route.body.schema),
      ok: typeof route.ok === "string" ? route.ok : route.ok.schema,
    }),
  ),
  ...ADMIN_ROUTES.map(
    (route): FuzzRoute => ({
      method: route.method,
      path: route.path,
      operation: `admin_${route.path.split("/")[2] ?? ""}`,
      version: "v2",
      auth: "admin",
      query: route.query && jsonSchemaOf(route.query),
      body: route.body && jsonSchemaOf(route.body.schema),
      ok: typeof route.ok === "string" ? route.ok : route.ok.schema,
    }),
  ),
  ...PLATFORM_FUZZ_ROUTES,
];

/** What no answer or log line may carry: the upstream credentials and the admin token. */
const secrets = [
  ...configuredUpstreamCredentials().flatMap((c) => [c.api_secret, btoa(`${c.api_id}:${c.api_secret}`)]),
  env.ADMIN_TOKEN ?? "",
  ORIGIN_PLATFORM.token,
].filter((s) => s !== "");
suiteSecretWatch.addMarkers(secrets);

const credentials: Credentials = { tenant: "", admin: adminAuth(), platform: "" };
const samples: Samples = {};
let tenant: TenantWithSecret;
/** Both workers' databases: the edge's, and the origin's two (dataset and published snapshots). */
const writes = new D1Writes({
  // A view the upstream answered 404 stores a negative cache row (a refused request's one write
  // by design); every other cached document is compared.
  edge: { db: env.DB, mutable: EDGE_MUTABLE, compared: { documents: "negative = 0" } },
  origin: { db: env.ORIGIN_DB, mutable: ORIGIN_MUTABLE },
  originSnapshots: { db: env.ORIGIN_SNAPSHOTS, mutable: { tables: [], columns: {} } },
});

beforeAll(async () => {
  await seedOrigin();
  // Unlimited tier: the suite sends thousands of requests, more than any burst tier allows.
  tenant = await createTenant({ allowance: 1_000_000_000, tier: "unlimited" }, edge.fetch);
  credentials.tenant = tenantAuth(tenant);
  const issued = await admin("POST", `/admin/tenants/${tenant.id}/platform-token`, {}, edge.fetch);
  credentials.platform = `Bearer ${platformTokenWithSecretSchema.parse(await issued.json()).token}`;
  // The admin routes' target: never the fuzzing tenant (a valid PATCH may disable its target).
  const victim = await createTenant({}, edge.fetch);
  const facts = await originFacts();
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await edge.fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers: { authorization: credentials.tenant, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const rawSeries = (await call("GET", "/api/v1/data/ipv4")) as { results: { latest: { id: string } } };
  const tables = (await call("GET", "/api/v1/query_definitions/ipv4")) as { tables: string[] };
  const search = (await call("GET", "/api/v2/hosts/search?per_page=1")) as {
    result: { links: { next: string } };
  };
  const tag = (await call("POST", "/api/v2/tags", { name: "fuzz-tag" })) as { result: { id: string } };
  const host = facts.hosts[0] ?? "1.1.1.1";
  const comment = (await call("POST", `/api/v2/hosts/${host}/comments`, { contents: "fuzz" })) as {
    result: { id: string };
  };
  const table = tables.tables.at(-1) ?? "ipv4";
  Object.assign(samples, {
    index: ["ipv4", "websites", "certificates"],
    id: [...facts.hosts.slice(0, 2), ...facts.certificates.slice(0, 1), ...facts.websites.slice(0, 1)],
    ip: [...facts.hosts.slice(0, 2), facts.historic.ip],
    sha256: facts.certificates.slice(0, 2),
    fingerprint: facts.certificates.slice(0, 2),
    series: ["ipv4", "certificates"],
    result: [rawSeries.results.latest.id],
    label: ["1", "hosts"],
    file: ["1"],
    job_id: [`job_${"0".repeat(32)}`],
    page: ["1"],
    tag_id: [tag.result.id],
    comment_id: [comment.result.id],
    "tag_view.id": [tag.result.id],
    "tag_update.id": [tag.result.id],
    "tag_delete.id": [`tag_${"0".repeat(32)}`],
    "tag_hosts.id": [tag.result.id],
    "tag_certificates.id": [tag.result.id],
    "admin_tenants.id": [victim.id],
    "admin_comments.id": [`cmt_${"0".repeat(32)}`],
    "admin_cache.id": facts.hosts.slice(0, 1),
    query: ["*", `ip: ${host}`, "location.country: US"],
    "query_start.query": [`select ip from "${table}" limit 3`, "select 1"],
    "export_start.query": [`select ip from "${table}" limit 3`],
    field: ["location.country", "services.port"],
    q: ["", "services.port: 22", "location.country: US"],
    cursor: [search.result.links.next],
    at_time: [facts.historic.atTime],
    fingerprints: [facts.certificates.slice(0, 2)],
    name: ["fuzz-tag-2", "another tag"],
    contents: ["a note"],
    tenant_id: [tenant.id],
    // v3 (the Platform API)
    host_id: facts.hosts.slice(0, 3),
    host_ids: [facts.hosts.slice(0, 3)],
    certificate_id: facts.certificates.slice(0, 2),
    certificate_ids: [facts.certificates.slice(0, 2)],
    webproperty_id: facts.hosts.slice(0, 2).map((ip) => `${ip}:80`),
    webproperty_ids: [facts.hosts.slice(0, 2).map((ip) => `${ip}:80`)],
    organization_id: [ORIGIN_PLATFORM.organization_id, "any-organization"],
    start_time: ["2030-01-01T00:00:00Z"],
    end_time: ["2020-01-01T00:00:00Z"],
    granularity: ["daily", "monthly"],
  } satisfies Samples);
  // The origin's first contact with its Platform account writes the organization's credit
  // grant whatever the answer: made here, before the comparison starts.
  const credits = await edge.fetch(
    new Request(`${BASE}/v3/accounts/organizations/any/credits`, {
      headers: { authorization: credentials.platform },
    }),
  );
  if (credits.status !== 200) throw new Error(`setup /v3 credits: ${credits.status} ${await credits.text()}`);
  await writes.start();
}, 60_000);

/**
 * Waits until the origin has finished every job valid cases started: its queue consumer writes
 * their rows in the background, which a before/after comparison would blame on the next batch.
 */
async function jobsSettled(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const pending = await env.ORIGIN_DB.prepare(
      "select count(*) as n from jobs where status = 'pending'",
    ).first<{ n: number }>();
    if (!pending?.n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("origin jobs stayed pending");
}

/** The version the workers give a path: of the path they route on (`//` collapsed, as they do). */
const versionOf = (target: string) =>
  fuzzVersionOfPath(lenientPath(new Request(`${BASE}${target}`)), versionOfPath);
function isPagePath(target: string): boolean {
  // The path the edge routes on (`//` collapsed, a trailing `/` dropped).
  const path = lenientPath(new Request(`${BASE}${target}`));
  return (
    path === "/admin" ||
    path === "/admin/login" ||
    path === "/admin/logout" ||
    /^\/(dashboard|admin\/console)(\/|$)/.test(path)
  );
}
const plan: FuzzPlan = {
  routes,
  samples,
  credentials,
  cases: CASES,
  batch: BATCH,
  seed,
  // The people-facing pages (dashboard, admin console: register.ts PAGE_PATHS) answer HTML and
  // redirects by design, so junk stays off exactly those paths.
  junk: junkRequest(
    [
      "/",
      "/api",
      "/api/v1/",
      "/api/v2/",
      "/api/v2/hosts/",
      "/admin/",
      "/admin/tenants/",
      "/v3/global/asset/",
      "/x",
    ],
    credentials,
  ).filter((request) => !isPagePath(request.path)),
  junkExpectation: (request) => ({ version: versionOf(request.path) }),
  replay,
};

describe("edge fuzz", () => {
  fuzzRoutes(
    {
      name: "edge",
      base: BASE,
      send: (request) => {
        // The fault-injecting network records what it forwards; nothing here reads it.
        edge.upstream.requests.length = 0;
        return edge.unwatchedFetch(request);
      },
      secrets,
      changes: async () => {
        await jobsSettled();
        return writes.changes();
      },
    },
    plan,
  );
});
