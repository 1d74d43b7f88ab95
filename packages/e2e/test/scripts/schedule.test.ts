// scripts/lib/schedule.mjs: how `pnpm start` fires the workers' cron triggers, on a clock the
// test moves (no real waiting, no system started).
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CronTrigger,
  nextRun,
  readCronTriggers,
  scheduleCrons,
  type ScheduleClock,
  withoutCronNotice,
} from "../../../../scripts/lib/schedule.mjs";
import { REPO_ROOT } from "../support/paths";

interface Timer {
  at: number;
  fn: () => void;
  order: number;
}

/** A clock whose timers run only when the test advances it. */
function fakeClock(start: string) {
  let now = Date.parse(start);
  let order = 0;
  const timers = new Set<Timer>();
  const clock: ScheduleClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const timer = { at: now + ms, fn, order: order++ };
      timers.add(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      timers.delete(timer as Timer);
    },
  };
  return {
    clock,
    pending: () => timers.size,
    /** Runs every timer due up to `iso`, in time order, letting each run's promises settle. */
    advanceTo: async (iso: string) => {
      const target = Date.parse(iso);
      for (;;) {
        const [due] = [...timers].sort((a, b) => a.at - b.at || a.order - b.order);
        if (!due || due.at > target) break;
        timers.delete(due);
        now = due.at;
        due.fn();
        await new Promise((resolve) => setImmediate(resolve));
      }
      now = target;
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

const ORIGIN: CronTrigger = { worker: "origin", cron: "* * * * *" };
const EDGE: CronTrigger = { worker: "edge", cron: "17 * * * *" };

describe("nextRun", () => {
  it("gives the next due time strictly after the given one, in UTC", () => {
    expect(iso(nextRun("* * * * *", Date.parse("2024-06-01T00:00:30Z")))).toBe("2024-06-01T00:01:00.000Z");
    expect(iso(nextRun("* * * * *", Date.parse("2024-06-01T00:01:00Z")))).toBe("2024-06-01T00:02:00.000Z");
    expect(iso(nextRun("17 * * * *", Date.parse("2024-06-01T00:17:00Z")))).toBe("2024-06-01T01:17:00.000Z");
    expect(iso(nextRun("0 3 * * *", Date.parse("2024-06-01T05:00:00Z")))).toBe("2024-06-02T03:00:00.000Z");
  });
});

describe("scheduleCrons", () => {
  it("fires each worker's trigger at each due time, with that time as the scheduled time", async () => {
    const { clock, advanceTo } = fakeClock("2024-06-01T00:00:30Z");
    const fired: string[] = [];
    const schedule = scheduleCrons(
      [ORIGIN, EDGE],
      (trigger, time) => {
        fired.push(`${trigger.worker} ${iso(time)}`);
        return Promise.resolve();
      },
      { clock },
    );
    await advanceTo("2024-06-01T00:00:59.999Z");
    expect(fired).toEqual([]);
    await advanceTo("2024-06-01T01:20:00Z");
    schedule.stop();
    const origin = fired.filter((line) => line.startsWith("origin"));
    expect(origin).toHaveLength(80);
    expect(origin[0]).toBe("origin 2024-06-01T00:01:00.000Z");
    expect(origin.at(-1)).toBe("origin 2024-06-01T01:20:00.000Z");
    expect(fired.filter((line) => line.startsWith("edge"))).toEqual([
      "edge 2024-06-01T00:17:00.000Z",
      "edge 2024-06-01T01:17:00.000Z",
    ]);
  });

  it("reports a failed run and keeps the schedule going", async () => {
    const { clock, advanceTo } = fakeClock("2024-06-01T00:00:00Z");
    const errors: string[] = [];
    let runs = 0;
    const schedule = scheduleCrons(
      [ORIGIN],
      () => {
        runs += 1;
        return runs === 1 ? Promise.reject(new Error("HTTP 500 exception")) : Promise.resolve();
      },
      { clock, onError: (error, trigger) => errors.push(`${trigger.worker}: ${(error as Error).message}`) },
    );
    await advanceTo("2024-06-01T00:03:00Z");
    schedule.stop();
    expect(errors).toEqual(["origin: HTTP 500 exception"]);
    expect(runs).toBe(3);
  });

  it("does not overlap a run that outlasts its interval: the next is the first due time after it ends", async () => {
    const { clock, advanceTo } = fakeClock("2024-06-01T00:00:00Z");
    const started: string[] = [];
    const schedule = scheduleCrons(
      [ORIGIN],
      (_trigger, time) => {
        started.push(iso(time));
        // The first run takes 150 s of the test's clock.
        return started.length === 1
          ? new Promise<void>((resolve) => clock.setTimeout(resolve, 150_000))
          : Promise.resolve();
      },
      { clock },
    );
    await advanceTo("2024-06-01T00:05:00Z");
    schedule.stop();
    expect(started).toEqual([
      "2024-06-01T00:01:00.000Z",
      "2024-06-01T00:04:00.000Z",
      "2024-06-01T00:05:00.000Z",
    ]);
  });

  it("stops: no timer left, no further run, and a run failing after the stop is not reported", async () => {
    const { clock, advanceTo, pending } = fakeClock("2024-06-01T00:00:00Z");
    const errors: unknown[] = [];
    let runs = 0;
    let failInFlight: (error: Error) => void = () => {};
    const schedule = scheduleCrons(
      [ORIGIN, EDGE],
      () => {
        runs += 1;
        return new Promise<void>((_resolve, reject) => (failInFlight = reject));
      },
      { clock, onError: (error) => errors.push(error) },
    );
    expect(pending()).toBe(2);
    await advanceTo("2024-06-01T00:01:00Z");
    schedule.stop();
    failInFlight(new Error("aborted by the shutdown"));
    await advanceTo("2024-06-01T02:00:00Z");
    expect(runs).toBe(1);
    expect(errors).toEqual([]);
    expect(pending()).toBe(0);
  });

  it("refuses a trigger it cannot parse at once, not at its first run", () => {
    const { clock } = fakeClock("2024-06-01T00:00:00Z");
    expect(() =>
      scheduleCrons([{ worker: "origin", cron: "every minute" }], () => Promise.resolve(), { clock }),
    ).toThrow();
  });
});

describe("readCronTriggers", () => {
  it("reads each worker's triggers as wrangler does: the origin every minute, the edge hourly and its job sweep every 2 minutes", async () => {
    const configs = {
      origin: path.join(REPO_ROOT, "apps", "origin", "wrangler.jsonc"),
      edge: path.join(REPO_ROOT, "apps", "edge", "wrangler.jsonc"),
    };
    expect(await readCronTriggers(configs, { cwd: REPO_ROOT })).toEqual([
      ORIGIN,
      EDGE,
      { worker: "edge", cron: "*/2 * * * *" },
    ]);
  });
});

describe("withoutCronNotice", () => {
  it("drops wrangler dev's notice that crons do not run locally, and nothing else", () => {
    const shown = withoutCronNotice();
    const lines = [
      "Your Worker has access to the following bindings:",
      "▲ [WARNING] Scheduled Workers are not automatically triggered during local development.",
      "  To manually trigger a scheduled event, run:",
      '    curl "http://127.0.0.1:8788/cdn-cgi/handler/scheduled"',
      "  For more details, see https://developers.cloudflare.com/workers/configuration/cron-triggers/#test-cron-triggers-locally",
      "⎔ Starting local server...",
      "[wrangler:info] Ready on http://127.0.0.1:8788",
    ];
    expect(lines.filter(shown)).toEqual([
      "Your Worker has access to the following bindings:",
      "⎔ Starting local server...",
      "[wrangler:info] Ready on http://127.0.0.1:8788",
    ]);
  });
});
