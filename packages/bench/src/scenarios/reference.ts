// The references the edge is measured against: the runtime's own limit (a bare Hono worker
// answering the same bytes) and the origin answering the view itself.
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { preflight, type Scenario, viewPath } from "../scenario";
import { runLoad } from "../load";

export const bareWorker: Scenario = {
  id: "bare",
  title: "bare Hono worker, stored certificate document",
  async run(ctx) {
    await preflight(`${ctx.bareUrl}/`, { method: "GET" });
    const sample = await runLoad({
      baseUrl: ctx.bareUrl,
      headers: {},
      requests: [{ method: "GET", path: "/" }],
      connections: ctx.options.connections,
      durationSeconds: ctx.options.duration,
    });
    return {
      kind: "ran",
      sample,
      connections: ctx.options.connections,
      target: `GET / (${ctx.probe.viewBytes} bytes)`,
    };
  },
};

export const bareD1: Scenario = {
  id: "bare-d1",
  title: "bare Hono worker, same document read from D1 by primary key",
  async run(ctx) {
    await preflight(`${ctx.bareUrl}/d1`, { method: "GET" });
    const sample = await runLoad({
      baseUrl: ctx.bareUrl,
      headers: {},
      requests: [{ method: "GET", path: "/d1" }],
      connections: ctx.options.connections,
      durationSeconds: ctx.options.duration,
    });
    return {
      kind: "ran",
      sample,
      connections: ctx.options.connections,
      target: "GET /d1 (one D1 read per request)",
    };
  },
};

export const bareD1Bulk: Scenario = {
  id: "bare-d1-bulk",
  title: `bare Hono worker, ${BULK_MAX_FINGERPRINTS} documents read from D1 in one query`,
  async run(ctx) {
    await preflight(`${ctx.bareUrl}/d1-bulk`, { method: "GET" });
    const sample = await runLoad({
      baseUrl: ctx.bareUrl,
      headers: {},
      requests: [{ method: "GET", path: "/d1-bulk" }],
      connections: ctx.options.connections,
      durationSeconds: ctx.options.duration,
    });
    return {
      kind: "ran",
      sample,
      connections: ctx.options.connections,
      target: `GET /d1-bulk (the ${BULK_MAX_FINGERPRINTS} documents edge-bulk-hit asks for)`,
    };
  },
};

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
