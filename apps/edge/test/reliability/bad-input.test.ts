import {
  exportJobSchema,
  hostsSearchResultSchema,
  queryJobSchema,
  rawSeriesDetailsSchema,
  reasonPhrase,
  seriesDetailsSchema,
  v1ErrorSchema,
  v1UnauthorizedErrorSchema,
  v2ErrorSchema,
  v2Envelope,
  v2InvalidQueryErrorSchema,
  platformTokenWithSecretSchema,
  V3_PROBLEM_MEDIA_TYPE,
  v3ProblemSchema,
} from "@scangate/core";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, type ExpectStatic, it } from "vitest";
import { askOrigin, ORIGIN_CREDENTIAL, seedOrigin } from "../support/origin-data";
import { createTenant, type Fetch, tenantAuth, workerFetch } from "../support/requests";
import {
  API_ROWS,
  type BadRequest,
  type Caller,
  EDGE_ROWS,
  type Expected,
  ORIGIN_ROWS,
  PLATFORM_ROWS,
  type Shape,
  type TableContext,
} from "./bad-input-table";
import { changedTables, snapshotAll } from "./d1-snapshot";
import { watchForUpstreamSecrets } from "./secret-watch";

const secrets = watchForUpstreamSecrets();

interface Target {
  name: "edge" | "origin";
  base: string;
  fetch: Fetch;
  caller: Caller;
}

const BODY_SCHEMAS: Record<Shape, { parse(value: unknown): unknown }> = {
  v1: v1ErrorSchema,
  v1_unauthorized: v1UnauthorizedErrorSchema,
  v2: v2ErrorSchema,
  v2_invalid_query: v2InvalidQueryErrorSchema,
  problem: v3ProblemSchema,
};

function resolve<T>(value: T | ((ctx: TableContext) => T), ctx: TableContext): T {
  return typeof value === "function" ? (value as (ctx: TableContext) => T)(ctx) : value;
}

function toRequest(
  target: Target,
  row: BadRequest,
  ctx: TableContext,
  defaultAuth: (c: Caller) => string,
): Request {
  const headers = new Headers();
  const auth = row.auth ? row.auth(target.caller) : defaultAuth(target.caller);
  if (auth !== null) headers.set("authorization", auth);
  const body = resolve(row.body, ctx);
  let payload: Uint8Array | undefined;
  if (body !== undefined) {
    // Bytes, never a string: a string body would get a text/plain type the row did not ask for.
    payload =
      body instanceof Uint8Array
        ? body
        : new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
    const type = row.type ?? "application/json";
    if (type !== "") headers.set("content-type", type);
  }
  return new Request(`${target.base}${resolve(row.path, ctx)}`, {
    method: row.method,
    headers,
    body: payload,
  });
}

/** A clear refusal: the expected 4xx, JSON in the route's shape, never a 5xx. */
async function expectRefused(
  expect: ExpectStatic,
  res: Response,
  [status, shape]: Expected,
  method: string,
): Promise<void> {
  const text = await res.text();
  expect(res.status, `never a 5xx; body: ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.status, `body: ${text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get("content-type")?.split(";")[0]).toBe(
    shape === "problem" ? V3_PROBLEM_MEDIA_TYPE : "application/json",
  );
  const body: unknown = JSON.parse(text);
  BODY_SCHEMAS[shape].parse(body);
  if (shape === "problem") expect(body).toMatchObject({ status });
  if (shape === "v1") expect(body).toMatchObject({ error_code: status });
  if (shape === "v2" || shape === "v2_invalid_query")
    expect(body).toMatchObject({ code: status, status: reasonPhrase(status) });
  if (status === 405) {
    const allow = res.headers.get("allow") ?? "";
    expect(allow).not.toBe("");
    expect(allow.split(/,\s*/)).not.toContain(method);
  }
}

async function okJson(res: Response): Promise<unknown> {
  if (res.status !== 200) throw new Error(`setup call failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Polls a job through the edge until the origin's queue consumer has finished it. */
async function finished(fetch: Fetch, auth: string, path: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const body = (await okJson(
      await fetch(new Request(`http://edge.test${path}`, { headers: { authorization: auth } })),
    )) as { status: string };
    if (body.status !== "pending") return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${path} stayed pending`);
}

const ctx = {} as TableContext;
const edge: Target = {
  name: "edge",
  base: "http://edge.test",
  fetch: secrets.watch(workerFetch),
  caller: { apiId: "", secret: "", adminToken: "", platformToken: "" },
};
const origin: Target = {
  name: "origin",
  base: "http://scangate-origin.internal",
  fetch: secrets.watch((request) => (env.ORIGIN as Fetcher).fetch(request)),
  caller: {
    apiId: ORIGIN_CREDENTIAL.api_id,
    secret: ORIGIN_CREDENTIAL.api_secret,
    adminToken: "",
    platformToken: "",
  },
};
let before: Awaited<ReturnType<typeof snapshotAll>>;

beforeAll(async () => {
  await seedOrigin();
  // Unlimited tier: the table sends hundreds of requests, more than any burst tier allows.
  const tenant = await createTenant({ allowance: 1_000_000, tier: "unlimited" });
  const adminToken = env.ADMIN_TOKEN ?? "";
  const issued = await edge.fetch(
    new Request(`http://edge.test/admin/tenants/${tenant.id}/platform-token`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ grace_seconds: 0 }),
    }),
  );
  if (issued.status !== 201) throw new Error(`Platform token: ${issued.status} ${await issued.text()}`);
  const { token: platformToken } = platformTokenWithSecretSchema.parse(await issued.json());
  edge.caller = { apiId: tenant.api_id, secret: tenant.api_secret, adminToken, platformToken };
  origin.caller.adminToken = adminToken;
  const auth = tenantAuth(tenant);
  const get = async (path: string) =>
    okJson(await edge.fetch(new Request(`http://edge.test${path}`, { headers: { authorization: auth } })));
  const post = async (path: string, body: unknown) =>
    okJson(
      await edge.fetch(
        new Request(`http://edge.test${path}`, {
          method: "POST",
          headers: { authorization: auth, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      ),
    );

  const search = v2Envelope(hostsSearchResultSchema).parse(
    await okJson(await askOrigin("GET", "/api/v2/hosts/search?per_page=1")),
  );
  const table = seriesDetailsSchema.parse(await get("/api/v1/query_definitions/ipv4")).tables.at(-1) ?? "";
  const rawResult = rawSeriesDetailsSchema.parse(await get("/api/v1/data/ipv4")).results.latest.id;
  // Raw-data files are generated on first use; make them now so the table sees a settled origin.
  await get(`/api/v1/data/ipv4/${rawResult}`);
  const queryJob = queryJobSchema.parse(
    await post("/api/v1/query", { query: `select ip from "${table}"` }),
  ).job_id;
  const exportJob = exportJobSchema.parse(
    await post("/api/v1/export", { query: `select ip from "${table}"`, format: "json" }),
  ).job_id;
  await finished(edge.fetch, auth, `/api/v1/query/${queryJob}`);
  await finished(edge.fetch, auth, `/api/v1/export/${exportJob}`);
  Object.assign(ctx, {
    cursor: search.result.links.next,
    table,
    rawResult,
    queryJob,
    exportJob,
    tenantId: tenant.id,
  } satisfies TableContext);
  expect(ctx.cursor).not.toBe("");
  before = await snapshotAll();
}, 60_000);

const basicOf = (c: Caller) => `Basic ${btoa(`${c.apiId}:${c.secret}`)}`;
const bearerOf = (c: Caller) => `Bearer ${c.adminToken}`;
const platformOf = (c: Caller) => `Bearer ${c.platformToken}`;

interface Case {
  target: Target;
  row: BadRequest;
  expected: Expected;
  auth: (c: Caller) => string;
  defect: string | undefined;
}

const cases: Case[] = [
  ...API_ROWS.flatMap((row): Case[] => [
    { target: edge, row, expected: row.expect, auth: basicOf, defect: row.defect?.edge },
    { target: origin, row, expected: row.origin ?? row.expect, auth: basicOf, defect: row.defect?.origin },
  ]),
  ...EDGE_ROWS.map(
    (row): Case => ({ target: edge, row, expected: row.expect, auth: bearerOf, defect: row.defect?.edge }),
  ),
  ...PLATFORM_ROWS.map(
    (row): Case => ({ target: edge, row, expected: row.expect, auth: platformOf, defect: row.defect?.edge }),
  ),
  ...ORIGIN_ROWS.map(
    (row): Case => ({ target: origin, row, expected: row.expect, auth: basicOf, defect: row.defect?.origin }),
  ),
];
const title = ({ target, row, expected }: Case) =>
  `${target.name}: ${row.method} with ${row.what} → ${expected[0]}`;

it("has at least 200 malformed requests across both workers", () => {
  expect(cases.length).toBeGreaterThanOrEqual(200);
});

// Rows run a few at a time (they touch no shared state: each only reads); the D1 comparison
// and the known defects follow once every row has answered. Each row waits for its request's
// background work too; on a machine loaded far past its cores (a load average of 18: the whole
// CI beside a dataset seed) the first edge row took 10 s, so rows get more than the default 5 s.
describe.concurrent("bad input gets a clear 4xx in its route's shape", { timeout: 30_000 }, () => {
  for (const c of cases.filter((c) => !c.defect)) {
    it(title(c), async ({ expect }) => {
      const res = await c.target.fetch(toRequest(c.target, c.row, ctx, c.auth));
      await expectRefused(expect, res, c.expected, c.row.method);
    });
  }
});

describe("after the whole table", () => {
  it("every D1 row of both workers is as it was (tenants, cache, jobs, audit log, dataset)", async () => {
    expect(changedTables(before, await snapshotAll())).toEqual([]);
  });

  // Known defects run last, each with its own before/after, so one cannot mask the others.
  for (const c of cases.filter((c) => c.defect)) {
    it.fails(`${title(c)} [defect: ${c.defect}]`, async () => {
      const start = await snapshotAll();
      await expectRefused(
        expect,
        await c.target.fetch(toRequest(c.target, c.row, ctx, c.auth)),
        c.expected,
        c.row.method,
      );
      expect(changedTables(start, await snapshotAll())).toEqual([]);
    });
  }
});
