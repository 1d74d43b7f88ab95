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
  await writes.start();
}, 60_000);

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
        ["/", "/api", "/api/v1/", "/api/v2/", "/api/v2/hosts/", "/v3/global/asset/", "/health", "/x"],
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
