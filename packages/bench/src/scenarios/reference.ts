// The references the edge is measured against: the runtime's own limit (a bare Hono worker
// answering the same bytes) and the origin answering the view itself.
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { preflight, type Scenario, viewPath } from "../scenario";
import { runLoad } from "../load";

/** A scenario that loads one route of the bare worker. */
function bareScenario(id: string, title: string, path: string, target: string): Scenario {
  return {
    id,
    title,
    async run(ctx) {
      await preflight(`${ctx.bareUrl}${path}`, { method: "GET" });
      const sample = await runLoad({
        baseUrl: ctx.bareUrl,
        headers: {},
        requests: [{ method: "GET", path }],
        connections: ctx.options.connections,
        durationSeconds: ctx.options.duration,
      });
      return { kind: "ran", sample, connections: ctx.options.connections, target };
    },
  };
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

export const originView: Scenario = {
  id: "origin-view",
  title: "origin direct: certificate view",
  async run(ctx) {
    const path = viewPath(ctx.probe.viewFingerprint);
    const headers = { authorization: ctx.originAuth };
    await preflight(`${ctx.cluster.originUrl}${path}`, { headers });
    const sample = await runLoad({
      baseUrl: ctx.cluster.originUrl,
      headers,
      requests: [{ method: "GET", path }],
      connections: ctx.options.connections,
      durationSeconds: ctx.options.duration,
    });
    return { kind: "ran", sample, connections: ctx.options.connections, target: `GET ${path}` };
  },
};
