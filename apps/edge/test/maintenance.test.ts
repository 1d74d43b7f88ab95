import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1DocumentCache } from "../src/cache/d1";
import { edgeDb } from "../src/db/client";
import type { Env } from "../src/env";
import worker from "../src/index";

const DAY = 86_400_000;

const documents = new D1DocumentCache(edgeDb(env.DB));

async function insertDocument(id: string, fetchedAt: number, expiresAt: number | null): Promise<void> {
  await documents.put([
    { key: { index: "ipv4", id, atTime: "" }, doc: { body: "{}", negative: false, fetchedAt, expiresAt } },
  ]);
}

async function runCleanup(testEnv: Env): Promise<void> {
  const ctx = createExecutionContext();
  worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }),
    testEnv,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** Which of `ids` the cache still holds, in order. */
async function documentIds(ids: readonly string[]): Promise<string[]> {
  return [...(await documents.getMany("ipv4", ids)).keys()].sort();
}

describe("scheduled cleanup", () => {
  it("forgets signed-out sessions whose cookies have expired, keeps the others", async () => {
    const now = Date.now();
    await env.DB.prepare(
      "insert into ended_sessions (sid, expires_at) values ('expired-session-0001', ?), ('live-session-000001', ?)",
    )
      .bind(now - 1000, now + DAY)
      .run();
    await runCleanup(env);
    const { results } = await env.DB.prepare("select sid from ended_sessions order by sid").all<{
      sid: string;
    }>();
    expect(results.map((r) => r.sid)).toEqual(["live-session-000001"]);
  });

  it("drops documents stale beyond stale-if-error, keeps usable and never-expiring ones", async () => {
    await env.DB.prepare("delete from documents").run();
    const now = Date.now();
    await insertDocument("10.0.0.1", now - 30 * DAY, now - 8 * DAY);
    await insertDocument("10.0.0.2", now - 2 * DAY, now - DAY);
    await insertDocument("10.0.0.3", now, now + DAY);
    await insertDocument("10.0.0.4", now - 900 * DAY, null);
    await runCleanup(env);
    expect(await documentIds(["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"])).toEqual([
      "10.0.0.2",
      "10.0.0.3",
      "10.0.0.4",
    ]);
  });

  it("bounds the table to CACHE_MAX_ROWS, dropping the least recently fetched", async () => {
    await env.DB.prepare("delete from documents").run();
    const now = Date.now();
    for (let i = 1; i <= 5; i++) await insertDocument(`10.0.1.${i}`, now - i * 1000, now + DAY);
    await runCleanup({ ...env, CACHE_MAX_ROWS: "2" });
    expect(await documentIds([1, 2, 3, 4, 5].map((i) => `10.0.1.${i}`))).toEqual(["10.0.1.1", "10.0.1.2"]);
  });

  it("forgets job ownership once the upstream has dropped the job", async () => {
    const now = Date.now();
    await env.DB.prepare(
      "insert into tenants (id, name, api_id, secret_hash, allowance, period, tier, created_at, updated_at) values ('tnt_jobs', 'j', 'jobs-api-id', 'h', 1, 'never', 'standard', 0, 0)",
    ).run();
    await env.DB.prepare(
      "insert into jobs (kind, job_id, tenant_id, upstream_credential, created_at) values ('query', 'old', 'tnt_jobs', 'u', ?), ('query', 'new', 'tnt_jobs', 'u', ?)",
    )
      .bind(now - 3 * DAY, now - DAY)
      .run();
    await runCleanup(env);
    const { results } = await env.DB.prepare("select job_id from jobs").all<{ job_id: string }>();
    expect(results.map((r) => r.job_id)).toEqual(["new"]);
  });
});
