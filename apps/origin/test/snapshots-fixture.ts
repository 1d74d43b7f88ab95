import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../src/app";
import type { Env } from "../src/env";
import { createJobHandlers } from "../src/jobs/handlers";
import type { JobMessage } from "../src/jobs/messages";
import type { Clock } from "../src/services/clock";
import { publishSnapshots } from "../src/snapshots/publish";
import { historyDays } from "../src/snapshots/build";
import { seedTestDataset } from "./seed-fixture";
import { defaultAuth } from "./support/requests";

/**
 * Shared set-up of the job tests: the generated test dataset in the main database, its snapshot
 * tables published into SNAPSHOTS, and a way to drive the worker's queue consumer by hand.
 */

/** Seeds the dataset and publishes the snapshot tables of its last `days` days (all by default). */
export async function seedDatasetAndSnapshots(days?: number): Promise<void> {
  const summary = await seedTestDataset();
  const { results } = await env.DB.prepare("SELECT valid_from AS validFrom FROM host_history").all<{
    validFrom: number;
  }>();
  // Through the seed day: the dataset's latest snapshot is the day it was seeded.
  const all = historyDays(results, summary.day.replace(/-/g, ""));
  await publishSnapshots(env.DB, env.SNAPSHOTS, { days: days === undefined ? all : all.slice(-days) });
}

/** The days whose snapshot tables are published (`snapshot_days`), oldest first. */
export async function publishedDays(): Promise<string[]> {
  const { results } = await env.SNAPSHOTS.prepare("SELECT day FROM snapshot_days ORDER BY day").all<{
    day: string;
  }>();
  return results.map((r) => r.day);
}

/** A JOBS binding that keeps what the routes send, so a test decides when the consumer runs. */
export function capturingQueue(): Queue<JobMessage> & { sent: JobMessage[] } {
  const sent: JobMessage[] = [];
  return {
    sent,
    send: (body: JobMessage) => {
      sent.push(body);
      return Promise.resolve();
    },
    sendBatch: (messages: Iterable<MessageSendRequest<JobMessage>>) => {
      for (const message of messages) sent.push(message.body);
      return Promise.resolve();
    },
  } as unknown as Queue<JobMessage> & { sent: JobMessage[] };
}

/** A clock the test moves by hand. */
export function movableClock(
  start: string,
): Clock & { set(at: string | number): void; advance(ms: number): void } {
  let now = Date.parse(start);
  return {
    now: () => now,
    set: (at) => {
      now = typeof at === "number" ? at : Date.parse(at);
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface Harness {
  env: Env;
  queue: ReturnType<typeof capturingQueue>;
  clock: ReturnType<typeof movableClock>;
  /** A request through the full app (auth, errors) with this harness's clock and queue. */
  fetch(method: string, path: string, body?: unknown, auth?: string | null): Promise<Response>;
  /** Delivers every captured message to the worker's queue handler; returns the batch outcome. */
  deliver(): Promise<QueueOutcome>;
  scheduled(): Promise<void>;
}

/** What getQueueResult reports (its declared type is not in the workers types used here). */
export interface QueueOutcome {
  explicitAcks: string[];
  retryMessages: { msgId: string }[];
}

export function harness(overrides: Partial<Env> = {}, start = "2024-06-01T00:00:00Z"): Harness {
  const queue = capturingQueue();
  const clock = movableClock(start);
  const testEnv: Env = { ...env, JOBS: queue, ...overrides };
  const app = createApp({ clock });
  const handlers = createJobHandlers({ clock });
  return {
    env: testEnv,
    queue,
    clock,
    async fetch(method, path, body, auth) {
      const headers: Record<string, string> = {};
      const authorization = auth === undefined ? defaultAuth() : auth;
      if (authorization !== null) headers.Authorization = authorization;
      const init: RequestInit = { method, headers };
      if (body !== undefined) {
        init.body = typeof body === "string" ? body : JSON.stringify(body);
        headers["Content-Type"] = "application/json";
      }
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(`http://origin.test${path}`, init), testEnv, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    },
    async deliver() {
      const messages = queue.sent.splice(0).map((body, i) => ({
        id: `message-${i}-${Math.random()}`,
        timestamp: clock.now(),
        attempts: 1,
        body,
      }));
      const batch = createMessageBatch<unknown>("scangate-origin-jobs", messages);
      const ctx = createExecutionContext();
      await handlers.queue(batch, testEnv);
      const outcome: unknown = await getQueueResult(batch, ctx);
      return outcome as QueueOutcome;
    },
    async scheduled() {
      const controller = createScheduledController({ cron: "* * * * *", scheduledTime: clock.now() });
      await handlers.scheduled(controller, testEnv);
    },
  };
}

/** Table names and row counts of both databases, to show a refused request changed nothing. */
export async function databaseState(): Promise<Record<string, number>> {
  const state: Record<string, number> = {};
  for (const [label, db] of [
    ["main", env.DB],
    ["snapshots", env.SNAPSHOTS],
  ] as const) {
    const { results } = await db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
      )
      .all<{ name: string }>();
    const counts = await db.batch<{ n: number }>(
      results.map(({ name }) => db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`)),
    );
    results.forEach(({ name }, i) => {
      state[`${label}:${name}`] = counts[i]?.results[0]?.n ?? -1;
    });
  }
  const objects = await env.EXPORTS.list();
  state["r2:objects"] = objects.objects.length;
  return state;
}
