// The sweep that ends jobs whose work was lost: a consumer that died mid-job (its heartbeat
// stopped) or a queue message that never arrived. Runs every minute (wrangler.jsonc cron).
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_JOB_LIMITS } from "../src/jobs/config";
import { queueStaleMs } from "../src/jobs/expiry";
import {
  findJob,
  HEARTBEAT_STALE_MS,
  insertJob,
  markRetrying,
  markStarted,
  touchJob,
  type JobKind,
} from "../src/jobs/store";
import worker from "../src/index";
import { harness, publishedDays, seedDatasetAndSnapshots, type Harness } from "./snapshots-fixture";
import { configuredAccount } from "./support/requests";

const QUEUE_STALE_MS = queueStaleMs(DEFAULT_JOB_LIMITS);

/** A pending job of the default account, created at the harness's "now" (no queue message). */
async function pendingJob(h: Harness, kind: JobKind = "query"): Promise<string> {
  const id = `job_${crypto.randomUUID().replaceAll("-", "")}`;
  await insertJob(env.DB, {
    id,
    kind,
    owner: configuredAccount().api_id,
    query: "SELECT 1",
    checkedSql: "SELECT 1",
    options: kind === "export" ? { format: "csv" } : undefined,
    now: new Date(h.clock.now()),
  });
  return id;
}

async function jobStatus(h: Harness, kind: JobKind, id: string): Promise<Record<string, unknown>> {
  const res = await h.fetch("GET", `/api/v1/${kind}/${id}`);
  expect(res.status).toBe(200);
  return res.json<Record<string, unknown>>();
}

describe("lost job sweep", () => {
  it("ends a started job whose heartbeat stopped as error once the heartbeat is stale", async () => {
    const h = harness();
    const id = await pendingJob(h);
    expect(await markStarted(env.DB, id, new Date(h.clock.now()))).toBe(true);
    h.clock.advance(HEARTBEAT_STALE_MS - 1);
    await h.scheduled();
    expect((await jobStatus(h, "query", id)).status).toBe("pending");
    h.clock.advance(1);
    await h.scheduled();
    const status = await jobStatus(h, "query", id);
    expect(status).toMatchObject({
      status: "error",
      error_message: "the job's work was lost (the service restarted while it ran); please retry",
    });
    expect(status).not.toHaveProperty("error");
  });

  it("leaves a started job alone while its heartbeat goes on, however long it runs", async () => {
    const h = harness();
    const id = await pendingJob(h, "export");
    await markStarted(env.DB, id, new Date(h.clock.now()));
    for (let minute = 0; minute < 20; minute++) {
      h.clock.advance(30_000);
      await touchJob(env.DB, id, new Date(h.clock.now()));
      h.clock.advance(30_000);
      await h.scheduled();
    }
    expect((await jobStatus(h, "export", id)).status).toBe("pending");
  });

  it("ends a job that no consumer started within the queue's grace as error", async () => {
    const h = harness();
    const id = await pendingJob(h);
    h.clock.advance(QUEUE_STALE_MS - 1);
    await h.scheduled();
    expect((await jobStatus(h, "query", id)).status).toBe("pending");
    h.clock.advance(1);
    await h.scheduled();
    expect(await jobStatus(h, "query", id)).toMatchObject({
      status: "error",
      error_message: "the job's work was lost (its queue message was lost); please retry",
    });
  });

  it("gives a job handed back for a retry the queue's grace from the hand-back, not the heartbeat's", async () => {
    const h = harness();
    const id = await pendingJob(h);
    await markStarted(env.DB, id, new Date(h.clock.now()));
    h.clock.advance(60_000);
    await markRetrying(env.DB, id, new Date(h.clock.now()));
    h.clock.advance(QUEUE_STALE_MS - 1);
    await h.scheduled();
    expect((await jobStatus(h, "query", id)).status).toBe("pending");
    h.clock.advance(1);
    await h.scheduled();
    expect((await jobStatus(h, "query", id)).status).toBe("error");
  });

  it("has a consumer drop the message of a job the sweep already ended, without running it", async () => {
    const h = harness();
    const id = await pendingJob(h);
    h.clock.advance(QUEUE_STALE_MS);
    await h.scheduled();
    h.queue.sent.push({ job_id: id });
    const outcome = await h.deliver();
    expect(outcome.explicitAcks).toHaveLength(1);
    const job = await findJob(env.DB, id);
    expect(job).toMatchObject({ status: "error", startedAt: null });
    expect((await env.EXPORTS.list({ prefix: `query-results/${id}/` })).objects).toEqual([]);
  });

  it("lets one consumer claim a job: a duplicate delivery is refused until the heartbeat is stale", async () => {
    const h = harness();
    const id = await pendingJob(h);
    expect(await markStarted(env.DB, id, new Date(h.clock.now()))).toBe(true);
    h.clock.advance(HEARTBEAT_STALE_MS - 1);
    expect(await markStarted(env.DB, id, new Date(h.clock.now()))).toBe(false);
    h.clock.advance(1);
    expect(await markStarted(env.DB, id, new Date(h.clock.now()))).toBe(true);
  });

  it("runs from the worker's own scheduled handler (the cron)", async () => {
    const h = harness({}, new Date(Date.now() - QUEUE_STALE_MS - 60_000).toISOString());
    const id = await pendingJob(h);
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env);
    expect((await findJob(env.DB, id))?.status).toBe("error");
  });
});

describe("a consumer that outlives the sweep", () => {
  it("records when it starts a job, and its late success neither overwrites the error nor keeps results", async () => {
    await seedDatasetAndSnapshots(1);
    const [day] = await publishedDays();
    // The sweep runs while the consumer writes its first result page: the consumer looks dead.
    let swept = false;
    const bucket = new Proxy(env.EXPORTS, {
      get(target, property, receiver) {
        if (property !== "put") {
          const value = Reflect.get(target, property, receiver) as unknown;
          // The binding's methods need the binding itself as `this`.
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        }
        return async (...args: Parameters<R2Bucket["put"]>) => {
          if (!swept) {
            swept = true;
            const started = await findJob(env.DB, id);
            expect(started?.startedAt).toBe(h.clock.now());
            expect(started?.heartbeatAt).toBe(h.clock.now());
            h.clock.advance(HEARTBEAT_STALE_MS);
            await h.scheduled();
          }
          return target.put(...args);
        };
      },
    });
    const h = harness({ EXPORTS: bucket });
    const res = await h.fetch("POST", "/api/v1/query", { query: `SELECT ip FROM "ipv4.${day}"` });
    expect(res.status).toBe(200);
    const id = (await res.json<{ job_id: string }>()).job_id;
    const outcome = await h.deliver();
    expect(swept).toBe(true);
    expect(outcome.explicitAcks).toHaveLength(1);
    expect(await jobStatus(h, "query", id)).toMatchObject({
      status: "error",
      error_message: "the job's work was lost (the service restarted while it ran); please retry",
    });
    expect((await env.EXPORTS.list({ prefix: `query-results/${id}/` })).objects).toEqual([]);
  });
});
