import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { v1ErrorSchema, type RawResultDetails, type RawSeriesList } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import type { AppDeps } from "../src/infrastructure";
import { snapshotCatalog } from "../src/snapshots/catalog";
import { seedTestDataset } from "./seed-fixture";
import { failingJobQueue, memoryJobStore, memoryResultStore } from "./support/fakes";
import { defaultAuth } from "./support/requests";

beforeAll(() => seedTestDataset());

/** A request through an app built with `deps` in place of the bindings' implementations. */
async function fetchWith(deps: AppDeps, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Authorization: defaultAuth() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`http://origin.test${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const res = await createApp(deps).fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

async function jobsInDatabase(): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM jobs").first<{ n: number }>();
  return row?.n ?? 0;
}

describe("services swapped in by tests", () => {
  const snapshots = { load: () => Promise.resolve(snapshotCatalog([])) };

  it.each([
    ["/api/v1/query", { query: "SELECT 1" }],
    ["/api/v1/export", { query: "SELECT 1" }],
  ])("POST %s answers a v1 503 and ends its job when the queue refuses it", async (path, body) => {
    const jobQueue = failingJobQueue();
    const jobs = memoryJobStore();
    const before = await jobsInDatabase();
    const res = await fetchWith({ jobQueue, jobs, snapshots }, "POST", path, body);
    expect(res.status).toBe(503);
    expect(v1ErrorSchema.parse(await res.json())).toEqual({
      error_code: 503,
      error: "the job could not be queued; please retry",
    });
    // The job that could not be queued is ended at once: nothing is left pending for the sweep.
    expect(jobQueue.attempts).toHaveLength(1);
    const [job] = [...jobs.rows.values()];
    expect(job).toMatchObject({
      id: jobQueue.attempts[0],
      status: "error",
      errorMessage: "the job could not be queued; please retry",
    });
    // Everything went through the swapped services: the bindings were not touched.
    expect(await jobsInDatabase()).toBe(before);
  });

  it("writes a raw-data result's files once to the result store and serves them from it", async () => {
    const results = memoryResultStore();
    const list = await fetchWith({ results }, "GET", "/api/v1/data");
    const latest = (await list.json<RawSeriesList>()).primary_series.ipv4?.latest_result.name;
    expect(latest).toBeDefined();

    const details = await fetchWith({ results }, "GET", `/api/v1/data/ipv4/${latest}`);
    expect(details.status).toBe(200);
    const files = (await details.json<RawResultDetails>()).files;
    expect(results.writes).toEqual([`raw/ipv4/${latest}/hosts.json`]);
    expect(await env.EXPORTS.get(`raw/ipv4/${latest}/hosts.json`)).toBeNull();

    const download = await fetchWith({ results }, "GET", `/api/v1/data/ipv4/${latest}/files/hosts`);
    expect(download.status).toBe(200);
    const bytes = await download.arrayBuffer();
    expect(bytes.byteLength).toBe(files.hosts?.size);
    expect(download.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
    // Listed files are not written again.
    expect(results.writes).toHaveLength(1);
  });
});
