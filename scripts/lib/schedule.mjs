// Runs the workers' cron triggers during local development: `wrangler dev` never fires a
// scheduled handler by itself, so `pnpm start` does, on each worker's own schedule.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CronExpressionParser } from "cron-parser";

const execFileAsync = promisify(execFile);

/** Node's longest timer; a run further off is reached in several waits. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const systemClock = {
  now: () => Date.now(),
  // Never what keeps the process alive: the workers are.
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer),
};

/**
 * The first time strictly after `after` (epoch ms) that `cron` is due, in UTC as Cloudflare
 * evaluates triggers. Numeric days of week are read as standard cron reads them (0 or 7 =
 * Sunday); name the days (SUN-SAT) in a trigger so it means the same here and on Cloudflare.
 */
export function nextRun(cron, after) {
  return CronExpressionParser.parse(cron, { currentDate: new Date(after), tz: "UTC" })
    .next()
    .getTime();
}

/**
 * Calls `fire(trigger, scheduledTime)` each time one of `triggers` (`{ worker, cron }`) is due,
 * until `stop()`. A run still going when its next time comes is not overlapped: the trigger's
 * next run is the first due time after it ends. A run that throws is reported to
 * `onError(error, trigger)` (unless stopped meanwhile) and the schedule goes on.
 * `clock` (`{ now, setTimeout, clearTimeout }`) is injectable for tests.
 */
export function scheduleCrons(triggers, fire, { onError = () => {}, clock = systemClock } = {}) {
  // Parse every expression now, so a bad one fails the start instead of a timer later.
  for (const trigger of triggers) nextRun(trigger.cron, clock.now());
  const timers = new Set();
  let stopped = false;

  const waitFor = (trigger, at) => {
    const delay = Math.min(Math.max(at - clock.now(), 0), MAX_TIMER_MS);
    const timer = clock.setTimeout(async () => {
      timers.delete(timer);
      if (stopped) return;
      if (clock.now() < at) return waitFor(trigger, at);
      try {
        await fire(trigger, at);
      } catch (error) {
        if (!stopped) onError(error, trigger);
      }
      if (!stopped) waitFor(trigger, nextRun(trigger.cron, Math.max(at, clock.now())));
    }, delay);
    timers.add(timer);
  };

  for (const trigger of triggers) waitFor(trigger, nextRun(trigger.cron, clock.now()));
  return {
    stop() {
      stopped = true;
      for (const timer of timers) clock.clearTimeout(timer);
      timers.clear();
    },
  };
}

/**
 * The cron triggers of each worker (`{ worker: configPath }`), as wrangler reads their config
 * files. Read in a child process: importing wrangler installs a SIGINT handler that exits the
 * importing process at once, which would leave the workers running after Ctrl-C.
 */
export async function readCronTriggers(configs, { cwd } = {}) {
  const script = `
    const { unstable_readConfig } = await import("wrangler");
    const configs = JSON.parse(process.argv[1]);
    const crons = Object.entries(configs).flatMap(([worker, config]) =>
      (unstable_readConfig({ config }).triggers?.crons ?? []).map((cron) => ({ worker, cron })));
    process.stdout.write(JSON.stringify(crons));`;
  const { stdout } = await execFileAsync(
    process.execPath,
    ["--input-type=module", "-e", script, JSON.stringify(configs)],
    { cwd, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  return JSON.parse(stdout);
}

/**
 * Runs one scheduled event on a `wrangler dev` server through Miniflare's trigger endpoint,
 * which every local dev server has (and no deployed worker): it answers once the handler and
 * its waitUntil work are done, 200 `ok` or 500 `exception`.
 */
export async function fireScheduled(baseUrl, cron, scheduledTime, { signal } = {}) {
  const url = new URL("/cdn-cgi/handler/scheduled", baseUrl);
  url.searchParams.set("cron", cron);
  url.searchParams.set("time", String(scheduledTime));
  const res = await fetch(url, { signal });
  const body = (await res.text()).trim();
  if (!res.ok) throw new Error(`HTTP ${res.status}${body ? ` ${body.slice(0, 200)}` : ""}`);
}

/**
 * A filter over a worker's output lines that drops wrangler dev's notice that scheduled
 * handlers are not triggered locally (untrue under this script). It drops at most the notice's
 * few lines, so a reworded notice cannot swallow anything else.
 */
export function withoutCronNotice() {
  let left = 0;
  return (line) => {
    if (line.includes("Scheduled Workers are not automatically triggered")) {
      left = 4;
      return false;
    }
    if (left > 0) {
      left -= 1;
      if (line.includes("cron-triggers")) left = 0;
      return false;
    }
    return true;
  };
}
