// The references the edge is measured against: the runtime's own limit (a bare Hono worker
// answering the same bytes) and the origin answering the view itself. Each is a scenario of its
// own (a continuous load) and the reference side of the paired scenarios (scenario.ts).
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import {
  type BenchContext,
  preflight,
  type ReferenceScenario,
  type SlicedLoad,
  slicesOf,
  viewPath,
} from "../scenario";

/** A reference scenario from its load: run alone, it is `--duration` seconds of that load. */
function referenceScenario(
  id: string,
  title: string,
  load: (ctx: BenchContext) => Promise<SlicedLoad>,
): ReferenceScenario {
  return {
    id,
    title,
    load,
    async run(ctx) {
      const sliced = await load(ctx);
      const sample = await sliced.slice(ctx.options.duration);
      return { kind: "ran", sample, connections: sliced.connections, target: sliced.target };
    },
  };
}

/** A reference scenario that loads one route of the bare worker. */
function bareScenario(id: string, title: string, path: string, target: string): ReferenceScenario {
  return referenceScenario(id, title, async (ctx) => {
    await preflight(`${ctx.bareUrl}${path}`, { method: "GET" });
    const { connections } = ctx.options;
    return {
      target,
      connections,
      ...slicesOf({ baseUrl: ctx.bareUrl, headers: {}, requests: [{ method: "GET", path }], connections }),
    };
  });
}

export const bareWorker = bareScenario(
  "bare",
  "bare Hono worker, stored certificate document",
  "/",
  "GET / (the view document, stored)",
);

export const bareD1 = bareScenario(
  "bare-d1",
  "bare Hono worker, same document read from D1 by primary key",
  "/d1",
  "GET /d1 (one D1 read per request)",
);

export const bareBulk = bareScenario(
  "bare-bulk",
  `bare Hono worker, stored answer of ${BULK_MAX_FINGERPRINTS} documents`,
  "/bulk",
  `GET /bulk (the ${BULK_MAX_FINGERPRINTS} documents edge-bulk-hit asks for, stored)`,
);

export const bareD1Bulk = bareScenario(
  "bare-d1-bulk",
  `bare Hono worker, ${BULK_MAX_FINGERPRINTS} documents read from D1 in one query`,
  "/d1-bulk",
  `GET /d1-bulk (the ${BULK_MAX_FINGERPRINTS} documents edge-bulk-hit asks for)`,
);

export const bareV3Asset = bareScenario(
  "bare-v3-asset",
  "bare Hono worker, stored /v3 certificate answer",
  "/v3-asset",
  "GET /v3-asset (the origin's /v3 answer for the view certificate, stored)",
);

export const bareV3Bulk = bareScenario(
  "bare-v3-bulk",
  `bare Hono worker, stored /v3 bulk answer of ${BULK_MAX_FINGERPRINTS} certificates`,
  "/v3-bulk",
  `GET /v3-bulk (the origin's /v3 answer for the ${BULK_MAX_FINGERPRINTS} certificates edge-v3-bulk-hit asks for, stored)`,
);

export const originView = referenceScenario("origin-view", "origin direct: certificate view", async (ctx) => {
  const path = viewPath(ctx.probe.viewFingerprint);
  const headers = { authorization: ctx.originAuth };
  await preflight(`${ctx.cluster.originUrl}${path}`, { headers });
  const { connections } = ctx.options;
  return {
    target: `GET ${path}`,
    connections,
    ...slicesOf({
      baseUrl: ctx.cluster.originUrl,
      headers,
      requests: [{ method: "GET", path }],
      connections,
    }),
  };
});
