import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptySample, mergeSamples, quantile, runLoad } from "../src/load";

// A plain Node server that records what it was asked: the load generator's own behaviour, with
// nothing of ours behind it.
let server: Server;
let baseUrl = "";
const seen: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push(`${request.method} ${request.url}`);
      if (body) bodies.push(body);
      response.writeHead(request.url === "/missing" ? 404 : 200, { "content-type": "text/plain" });
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// Each load is bounded by its own durationSeconds (10 s); on a busy machine that is past
// vitest's default 5 s, which would fail the test for slowness alone.
describe("runLoad", { timeout: 30_000 }, () => {
  it("walks a list of requests exactly once with amount = its length, over many connections", async () => {
    seen.length = 0;
    const paths = Array.from({ length: 300 }, (_, i) => `/item/${i}`);
    const sample = await runLoad({
      baseUrl,
      headers: {},
      requests: paths.map((path) => ({ method: "GET" as const, path })),
      amount: paths.length,
      connections: 50,
      durationSeconds: 10,
    });
    expect(sample.requests).toBe(300);
    expect(sample.latenciesMs).toHaveLength(300);
    expect([...seen].sort()).toEqual(paths.map((p) => `GET ${p}`).sort());
  });

  it("goes on where the last load stopped when the loads share a cursor (slices of one walk)", async () => {
    seen.length = 0;
    const paths = Array.from({ length: 10 }, (_, i) => `/walk/${i}`);
    const cursor = { next: 0 };
    const slice = (amount: number) =>
      runLoad({
        baseUrl,
        headers: {},
        requests: paths.map((path) => ({ method: "GET" as const, path })),
        cursor,
        amount,
        connections: 1,
        durationSeconds: 10,
      });
    await slice(4);
    await slice(8);
    expect(cursor.next).toBe(12);
    expect(seen).toEqual([...paths, ...paths.slice(0, 2)].map((p) => `GET ${p}`));
  });

  it("sends bodies, counts non-2xx answers, and never opens more connections than requests", async () => {
    seen.length = 0;
    bodies.length = 0;
    const sample = await runLoad({
      baseUrl,
      headers: { "content-type": "application/json" },
      requests: [
        { method: "POST", path: "/bulk", body: '{"n":1}' },
        { method: "GET", path: "/missing" },
      ],
      amount: 4,
      connections: 50,
      durationSeconds: 10,
    });
    expect(sample.requests).toBe(4);
    expect(sample.non2xx).toBe(2);
    expect(sample.statuses).toEqual({ "200": 2, "404": 2 });
    expect(bodies).toEqual(['{"n":1}', '{"n":1}']);
  });

  it("runs for a duration when no amount is given", async () => {
    const started = performance.now();
    const sample = await runLoad({
      baseUrl,
      headers: {},
      requests: [{ method: "GET", path: "/" }],
      connections: 2,
      durationSeconds: 1,
    });
    expect(sample.requests).toBeGreaterThan(10);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(sample.elapsedMs).toBeGreaterThanOrEqual(950);
  });
});

describe("samples", () => {
  it("merge counts, statuses, latencies, time and workerd CPU time", () => {
    const a = {
      ...emptySample(),
      requests: 2,
      non2xx: 1,
      statuses: { "200": 1, "500": 1 },
      latenciesMs: [1, 2],
      elapsedMs: 10,
      workerdCpuMs: 40,
    };
    const b = {
      ...emptySample(),
      requests: 1,
      socketErrors: 1,
      statuses: { "200": 1 },
      latenciesMs: [3],
      elapsedMs: 5,
    };
    expect(mergeSamples(a, b)).toEqual({
      requests: 3,
      non2xx: 1,
      socketErrors: 1,
      statuses: { "200": 2, "500": 1 },
      latenciesMs: [1, 2, 3],
      elapsedMs: 15,
      workerdCpuMs: 40,
    });
    // A sample that measured no CPU time adds none; one that did counts from zero.
    expect(mergeSamples(emptySample(), { ...emptySample(), workerdCpuMs: 7 }).workerdCpuMs).toBe(7);
    expect(mergeSamples(emptySample(), emptySample()).workerdCpuMs).toBeNull();
  });

  it("take nearest-rank quantiles", () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantile(sorted, 0.5)).toBe(5);
    expect(quantile(sorted, 0.99)).toBe(10);
    expect(quantile(sorted, 0)).toBe(1);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
