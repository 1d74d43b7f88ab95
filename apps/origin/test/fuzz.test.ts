/**
 * Property-based fuzzing of every origin route (ORIGIN_ROUTES) and of paths beside them,
 * through the worker's entry: valid requests, valid requests with one field made bad, and raw
 * junk. Every answer: no 5xx; JSON in the route version's error shape or the route's success
 * shape; no account secret in it. A sample of cases compares the databases before and after:
 * a refused request changes no stored row. The edge's own suite is test/reliability/fuzz.test.ts
 * there; both share test/support/fuzz.ts.
 *
 * The seed is printed at the start ("origin fuzz seed N"); replay a failure with
 * `FUZZ_SEED=N npx vitest run test/fuzz.test.ts`.
 */
import { type z } from "zod";
import { versionOfPath } from "@scangate/core/http";
import { env, exports } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { changedTables, ORIGIN_MUTABLE, type Snapshot, snapshotDatabase } from "./support/d1-snapshot";
import { ORIGIN_ROUTES } from "../src/routes";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts } from "./support/dataset-facts";
import {
  answerProblem,
  type Credentials,
  type Expectation,
  type FuzzRequest,
  type FuzzRoute,
  fuzzSeed,
  fuzzVersionOfPath,
  jsonSchemaOf,
  junkRequest,
  mutatedRequest,
  type Samples,
  toRequest,
  validRequest,
} from "./support/fuzz";
import { configuredAccount, defaultAuth } from "./support/requests";
import { platformAccount } from "./v3-requests";

/** Cases per route and kind, and of junk (see the edge README's "Tests" for the budget). */
const RUNS = { valid: 5, mutated: 8, junk: 300 } as const;
/** One case in this many also compares the databases before and after. */
const D1_SAMPLE = 200;

const seed = fuzzSeed(env.FUZZ_SEED);
console.log(`origin fuzz seed ${seed} (replay: FUZZ_SEED=${seed} npx vitest run test/fuzz.test.ts)`);

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
}, 60_000);

let caseNumber = 0;

async function snapshot(): Promise<Record<string, Snapshot>> {
  return {
    origin: await snapshotDatabase(env.DB, ORIGIN_MUTABLE),
    originSnapshots: await snapshotDatabase(env.SNAPSHOTS, { tables: [], columns: {} }),
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

async function check(request: FuzzRequest, expected: Expectation, compareD1: boolean): Promise<void> {
  caseNumber += 1;
  if (compareD1) await jobsSettled();
  const before = compareD1 ? await snapshot() : undefined;
  const response = await exports.default.fetch(toRequest(BASE, request));
  const status = response.status;
  const problem = await answerProblem(request, response, expected, secrets);
  if (problem !== null)
    throw new Error(
      `${problem}: ${request.what}: ${request.method} ${request.path.slice(0, 300)} → ${status}`,
    );
  if (before && status >= 400) {
    const changed = changedTables(before, await snapshot());
    if (changed.length > 0)
      throw new Error(`a refused ${request.what} (${status}) changed stored rows: ${changed.join(", ")}`);
  }
}

const sampled = fc.nat({ max: D1_SAMPLE - 1 }).map((n) => n === 0);
/** Each property's own seed, fixed by its place (so `-t` or a changed route list replays the rest). */
const options = (numRuns: number, place: number) => ({ numRuns, seed: seed + place, endOnFailure: true });

describe("origin fuzz", () => {
  for (const [k, kind] of (["valid", "mutated"] as const).entries()) {
    it(`${kind} requests to every route: no 5xx, JSON in the route's shape, no refused write`, async () => {
      for (const [r, route] of routes.entries()) {
        const make = kind === "valid" ? validRequest : mutatedRequest;
        await fc.assert(
          fc.asyncProperty(make(route, samples, credentials), sampled, (request, compare) =>
            check(
              request,
              { version: route.version, ok: request.routeMayChange ? undefined : route.ok },
              compare,
            ),
          ),
          options(RUNS[kind], 1_000 * k + r),
        );
      }
    }, 600_000);
  }

  it("raw junk: any method, path, header and body", async () => {
    const prefixes = [
      "/",
      "/api",
      "/api/v1/",
      "/api/v2/",
      "/api/v2/hosts/",
      "/v3/global/asset/",
      "/health",
      "/x",
    ];
    await fc.assert(
      fc.asyncProperty(junkRequest(prefixes, credentials), sampled, (request, compare) =>
        check(
          request,
          { version: fuzzVersionOfPath(new URL(`${BASE}${request.path}`).pathname, versionOfPath) },
          compare,
        ),
      ),
      options(RUNS.junk, 2_000),
    );
  }, 600_000);

  it("ran every case", () => {
    expect(caseNumber).toBeGreaterThanOrEqual(routes.length * (RUNS.valid + RUNS.mutated) + RUNS.junk);
  });
});
