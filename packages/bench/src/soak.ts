// pnpm --filter @scangate/bench soak: minutes of mixed traffic from many tenants through the
// local system (`node scripts/start.mjs`, as `pnpm start` runs it), with the origin killed and
// started again halfway. It reports: 5xx outside the restart window (must be none), the statuses
// inside it (only 502 and 504 allowed), every tenant's quota against the charges counted here,
// jobs left pending after a settle time, and the workers' memory at the start and the end.
// Progress on stderr, the table on stdout, everything in a JSON file; exit 1 when a target fails.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createTenant, type BenchTenant } from "./admin-client";
import { formatCount } from "./format";
import { startLocalSystem } from "./local-start";
import { REPO_ROOT, RESULTS_DIR, STATE_DIR } from "./paths";
import { sqlDataset } from "./scenarios/sql";
import { charged, type Traffic, trafficMix } from "./soak-traffic";
import { closeInspectors, findWorkers, memoryOf, restartOrigin, type WorkerMemory } from "./soak-processes";

const log = (message: string) => process.stderr.write(`soak: ${message}\n`);

const USAGE = `usage: pnpm --filter @scangate/bench soak [-- options]

  --minutes N        minutes of traffic (default 10); the origin is restarted halfway
  --tenants N        tenants sending it (default 20)
  --rate N           requests a second each tenant sends at most (default 3)
  --hosts N          hosts the local system seeds (default 5000, start.mjs's own default)
  --state-dir DIR    its state folder (default packages/bench/.state/local-system-h<hosts>; kept between runs)
  --settle-seconds S seconds jobs get to finish after the traffic (default 150: the origin's lost-job sweep runs each minute)
  --start-timeout S  seconds the start (seed included) may take (default 3600)
  --out FILE         results JSON (default packages/bench/bench-results/soak-<time>.json)
`;

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got "${value}")`);
  return n;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One answer (or its absence), as the figures need it. */
interface Outcome {
  /** When it was sent and answered (or given up). */
  at: number;
  end: number;
  tenant: number;
  kind: string;
  status: number | "no answer";
  charge: number;
}

interface Window {
  killedAt: number;
  originHealthyAt: number;
  edgeHealthyAt: number;
}

async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Polls `probe` every 200 ms until it says yes; the time it first did. */
async function firstYes(probe: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return Date.now();
    } catch {
      // Not yet.
    }
    await sleep(200);
  }
  throw new Error(`not healthy after ${timeoutMs / 1000} s`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== "--"),
    options: {
      minutes: { type: "string", default: "10" },
      tenants: { type: "string", default: "20" },
      rate: { type: "string", default: "3" },
      hosts: { type: "string", default: "5000" },
      "state-dir": { type: "string" },
      "settle-seconds": { type: "string", default: "150" },
      "start-timeout": { type: "string", default: "3600" },
      out: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error(`--minutes must be a positive number (got "${values.minutes}")`);
  const tenantCount = positiveInt("tenants", values.tenants);
  const rate = positiveInt("rate", values.rate);
  const hosts = positiveInt("hosts", values.hosts);
  const settleMs = positiveInt("settle-seconds", values["settle-seconds"]) * 1000;
  const stateDir = path.resolve(values["state-dir"] ?? path.join(STATE_DIR, `local-system-h${hosts}`));
  const startedAt = new Date();
  const system = await startLocalSystem(
    stateDir,
    hosts,
    positiveInt("start-timeout", values["start-timeout"]) * 1000,
    log,
  );
  let restarted: { stop(): Promise<void> } | undefined;
  const stopAll = async () => {
    closeInspectors();
    await restarted?.stop();
    await system.stop();
  };
  const stopOnSignal = () => void stopAll().finally(() => process.exit(130));
  process.on("SIGINT", stopOnSignal);
  process.on("SIGTERM", stopOnSignal);

  const outcomes: Outcome[] = [];
  const failures: string[] = [];
  let window: Window | undefined;
  const memory: { start?: WorkerMemory[]; end?: WorkerMemory[] } = {};
  const tenants: Array<BenchTenant & { name: string }> = [];
  let quota: Array<{ tenant: string; counted: number; admin: number; account: number }> = [];
  let jobs = { started: 0, states: {} as Record<string, number>, pending: [] as string[] };
  try {
    const admin = { authorization: `Bearer ${system.adminToken}` };
    const dataset = await sqlDataset(system.endpoint);
    const traffic: Traffic = await trafficMix(system.edgeUrl, system.endpoint, dataset.table);
    log(
      `dataset: ${traffic.ips.length} hosts and ${traffic.fingerprints.length} certificates to ask for, SQL table ${dataset.table}`,
    );
    for (let i = 0; i < tenantCount; i++) {
      const name = `soak ${startedAt.toISOString()} #${i + 1}`;
      // The high burst tier (600 a minute): real limits, above what --rate sends.
      tenants.push({ ...(await createTenant(system.edgeUrl, system.adminToken, name, "high")), name });
    }
    // A probe tenant of its own, for the restart window's health checks (free operations only).
    const probe = await createTenant(system.edgeUrl, system.adminToken, `soak probe ${Date.now()}`, "high");

    let workers = findWorkers(process.pid);
    // Every route built (wrangler dev builds on first request) before memory is read.
    await (
      await fetch(`${system.edgeUrl}/api/v1/account`, { headers: { authorization: probe.authorization } })
    ).text();
    memory.start = await memoryOf(workers);
    for (const m of memory.start) log(`memory at start: ${m.worker} ${JSON.stringify(m)}`);

    const durationMs = minutes * 60_000;
    const began = Date.now();
    const end = began + durationMs;
    const jobIds: Array<{ tenant: number; id: string }> = [];

    const tenantLoop = async (t: number) => {
      const tenant = tenants[t];
      if (!tenant) return;
      let lastAccount = 0;
      let lastJob = began - Math.random() * 60_000;
      const pause = 1000 / rate;
      while (Date.now() < end) {
        const tick = Date.now();
        const request = traffic.next({
          // Account reads have a bucket of 20 a minute: one each 6 s at most.
          account: tick - lastAccount > 6_000,
          // A SQL job a minute per tenant.
          job: tick - lastJob > 60_000,
        });
        if (request.kind === "account") lastAccount = tick;
        if (request.kind === "sql job") lastJob = tick;
        const at = Date.now();
        let outcome: Outcome;
        try {
          const response = await fetch(`${system.edgeUrl}${request.path}`, {
            method: request.method,
            headers: {
              authorization: tenant.authorization,
              ...(request.body === undefined ? {} : { "content-type": "application/json" }),
            },
            body: request.body,
            signal: AbortSignal.timeout(120_000),
          });
          const body = await answerOf(response);
          outcome = {
            at,
            end: Date.now(),
            tenant: t,
            kind: request.kind,
            status: response.status,
            charge: charged(request, response),
          };
          if (request.kind === "sql job" && response.ok) {
            const id = (body as { job_id?: unknown }).job_id;
            if (typeof id === "string") jobIds.push({ tenant: t, id });
          }
          if (response.status >= 500)
            log(
              `${response.status} at +${((at - began) / 1000).toFixed(1)} s: ${request.kind} ${request.method} ${request.path}: ${JSON.stringify(body).slice(0, 200)}`,
            );
        } catch (error) {
          outcome = { at, end: Date.now(), tenant: t, kind: request.kind, status: "no answer", charge: 0 };
          log(
            `no answer: ${request.kind} ${request.path}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        outcomes.push(outcome);
        const wait = pause - (Date.now() - tick);
        if (wait > 0) await sleep(wait);
      }
    };

    const restart = async () => {
      await sleep(durationMs / 2);
      workers = findWorkers(process.pid);
      log(
        `killing the origin (wrangler ${workers.origin.wrangler}, workerd ${workers.origin.workerd.join(", ")})`,
      );
      const killedAt = Date.now();
      restarted = restartOrigin(workers.origin, system.stateDir);
      const originHealthyAt = await firstYes(async () => {
        const response = await fetch(`${system.endpoint.originUrl}/health`, {
          signal: AbortSignal.timeout(2_000),
        });
        await response.arrayBuffer();
        return response.ok;
      }, 300_000);
      // Through the edge to the origin: a free forwarded read (the dataset's metadata).
      const edgeHealthyAt = await firstYes(async () => {
        const response = await fetch(`${system.edgeUrl}/api/v2/metadata/hosts`, {
          headers: { authorization: probe.authorization },
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        return response.ok;
      }, 300_000);
      window = { killedAt, originHealthyAt, edgeHealthyAt };
      log(
        `origin healthy ${((originHealthyAt - killedAt) / 1000).toFixed(1)} s after the kill; through the edge after ${((edgeHealthyAt - killedAt) / 1000).toFixed(1)} s`,
      );
    };

    const progress = setInterval(() => {
      const recent = outcomes.filter((o) => o.at > Date.now() - 30_000).length;
      log(
        `+${Math.round((Date.now() - began) / 1000)} s: ${formatCount(outcomes.length)} requests, ${(recent / 30).toFixed(1)}/s lately`,
      );
    }, 30_000);
    try {
      await Promise.all([...tenants.map((_, t) => tenantLoop(t)), restart()]);
    } finally {
      clearInterval(progress);
    }

    log(
      `traffic done: ${formatCount(outcomes.length)} requests; letting jobs settle (up to ${settleMs / 1000} s)`,
    );
    const settleDeadline = Date.now() + settleMs;
    const jobStates = async () => {
      const states: Record<string, number> = {};
      const pending: string[] = [];
      for (const { tenant, id } of jobIds) {
        const owner = tenants[tenant];
        if (!owner) continue;
        const response = await fetch(`${system.edgeUrl}/api/v1/query/${id}`, {
          headers: { authorization: owner.authorization },
        });
        const body = (await answerOf(response)) as { status?: string };
        const state = response.ok ? String(body.status) : `answer ${response.status}`;
        states[state] = (states[state] ?? 0) + 1;
        if (state === "pending" || !response.ok) pending.push(id);
      }
      return { started: jobIds.length, states, pending };
    };
    jobs = await jobStates();
    while (jobs.pending.length > 0 && Date.now() < settleDeadline) {
      await sleep(5_000);
      jobs = await jobStates();
    }
    // Usage and quota writes finish after the answer (waitUntil): a moment before reading them.
    await sleep(3_000);
    memory.end = await memoryOf(findWorkers(process.pid));
    for (const m of memory.end) log(`memory at end: ${m.worker} ${JSON.stringify(m)}`);

    for (const [t, tenant] of tenants.entries()) {
      const counted = outcomes.filter((o) => o.tenant === t).reduce((sum, o) => sum + o.charge, 0);
      const adminView = (await answerOf(
        await fetch(`${system.edgeUrl}/admin/tenants/${tenant.id}`, { headers: admin }),
      )) as { used?: number };
      const account = (await answerOf(
        await fetch(`${system.edgeUrl}/api/v1/account`, { headers: { authorization: tenant.authorization } }),
      )) as { quota?: { used?: number } };
      quota.push({
        tenant: tenant.id,
        counted,
        admin: Number(adminView.used),
        account: Number(account.quota?.used),
      });
    }
    quota = quota.sort((a, b) => a.tenant.localeCompare(b.tenant));
    for (const tenant of [...tenants, probe])
      await fetch(`${system.edgeUrl}/admin/tenants/${tenant.id}`, { method: "DELETE", headers: admin });
  } catch (error) {
    failures.push(
      `the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  } finally {
    log("stopping the local system");
    await stopAll();
  }

  // The figures.
  // A request in flight at any moment of the window (sent before the kill, answered after it, too).
  const inWindow = (o: Outcome) =>
    window !== undefined && o.end >= window.killedAt && o.at <= window.edgeHealthyAt;
  const statusCounts = (list: Outcome[]) => {
    const counts: Record<string, number> = {};
    for (const o of list) counts[String(o.status)] = (counts[String(o.status)] ?? 0) + 1;
    return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  };
  const outside = outcomes.filter((o) => !inWindow(o));
  const inside = outcomes.filter(inWindow);
  const outside5xx = outside.filter((o) => o.status === "no answer" || o.status >= 500);
  const insideBad = inside.filter(
    (o) => o.status === "no answer" || (o.status >= 500 && o.status !== 502 && o.status !== 504),
  );
  const quotaOff = quota.filter((q) => q.admin !== q.counted || q.account !== q.counted);
  const byKind: Record<string, Record<string, number>> = {};
  for (const o of outcomes) {
    const kind = (byKind[o.kind] ??= {});
    kind[String(o.status)] = (kind[String(o.status)] ?? 0) + 1;
  }
  if (!window) failures.push("the origin was not restarted (no restart window)");
  const targets = [
    { id: "5xx outside the restart window", value: outside5xx.length, pass: outside5xx.length === 0 },
    {
      id: "inside the window: only 502/504 (or a 2xx/4xx)",
      value: insideBad.length,
      pass: window !== undefined && insideBad.length === 0,
    },
    {
      id: "tenants whose quota differs from the charges counted",
      value: quotaOff.length,
      pass: quota.length === tenantCount && quotaOff.length === 0,
    },
    {
      id: "jobs left pending after the settle time",
      value: jobs.pending.length,
      pass: jobs.pending.length === 0,
    },
  ];
  const mb = (bytes: number | null | undefined) =>
    bytes === null || bytes === undefined ? "n/a" : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const memoryLines = (memory.start ?? []).map((start) => {
    const end = memory.end?.find((m) => m.worker === start.worker);
    return `  ${start.worker.padEnd(7)} workerd RSS ${mb(start.rssBytes).padStart(10)} → ${mb(end?.rssBytes).padStart(10)} (anonymous ${mb(start.rssAnonBytes)} → ${mb(end?.rssAnonBytes)}, file-backed ${mb(start.rssFileBytes)} → ${mb(end?.rssFileBytes)}); isolate heap (after a collection) ${mb(start.heapUsedBytes).padStart(10)} → ${mb(end?.heapUsedBytes).padStart(10)}${start.note || end?.note ? ` (${[start.note, end?.note].filter(Boolean).join("; ")})` : ""}`;
  });
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const load = os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  const out = [
    "",
    `scangate soak, ${startedAt.toISOString()}: ${os.cpus().length} CPUs, Node ${process.version}, load average ${load} at the end`,
    `the local system (node scripts/start.mjs: wrangler dev) with ${formatCount(hosts)} hosts (state ${path.relative(REPO_ROOT, stateDir)}); ` +
      `${minutes} min of traffic from ${tenantCount} tenants (at most ${rate}/s each), the origin killed and started again at ${minutes / 2} min`,
    "",
    `requests: ${formatCount(outcomes.length)}; statuses ${JSON.stringify(statusCounts(outcomes))}`,
    ...Object.entries(byKind)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, counts]) => `  ${kind.padEnd(22)} ${JSON.stringify(counts)}`),
    "",
    window
      ? `restart window: ${seconds(window.edgeHealthyAt - window.killedAt)} from the kill to the first healthy answer through the edge (the origin's own /health after ${seconds(window.originHealthyAt - window.killedAt)})`
      : "restart window: none (the restart failed)",
    `  inside it: ${inside.length} requests, statuses ${JSON.stringify(statusCounts(inside))}`,
    `  outside it: ${outside.length} requests, statuses ${JSON.stringify(statusCounts(outside))}`,
    "",
    `quota: ${quota.length} tenants; charges counted here vs admin API used vs /api/v1/account used:`,
    ...quota.map(
      (q) =>
        `  ${q.tenant} ${String(q.counted).padStart(6)} ${String(q.admin).padStart(6)} ${String(q.account).padStart(6)}${q.admin === q.counted && q.account === q.counted ? "" : "  ← differs"}`,
    ),
    "",
    `jobs: ${jobs.started} SQL jobs started; states after the settle time ${JSON.stringify(jobs.states)}`,
    "",
    "memory (start → end):",
    ...memoryLines,
    "",
    "targets:",
    ...targets.map((t) => `  ${t.pass ? "PASS" : "FAIL"}  ${t.id}: ${t.value}`),
    ...failures.map((f) => `  FAIL  ${f}`),
  ];
  const file = path.resolve(
    values.out ?? path.join(RESULTS_DIR, `soak-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`),
  );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        started_at: startedAt.toISOString(),
        system: "local (scripts/start.mjs)",
        hosts,
        minutes,
        tenants: tenantCount,
        rate,
        requests: outcomes.length,
        statuses: statusCounts(outcomes),
        by_kind: byKind,
        restart_window: window && {
          killed_at: new Date(window.killedAt).toISOString(),
          origin_healthy_after_ms: window.originHealthyAt - window.killedAt,
          edge_healthy_after_ms: window.edgeHealthyAt - window.killedAt,
          inside: statusCounts(inside),
          outside: statusCounts(outside),
        },
        quota,
        jobs,
        memory,
        targets,
        failures,
      },
      null,
      2,
    )}\n`,
  );
  out.push(`results: ${path.relative(process.cwd(), file)}`, "");
  process.stdout.write(out.join("\n"));
  return targets.every((t) => t.pass) && failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
