#!/usr/bin/env node
// Starts the whole system locally: the origin (seeded on first run) on :8788 and the edge in
// front of it on :8787, then prints the demo tenant and writes .scangate/local.env.
// Stays in the foreground until interrupted (Ctrl-C stops both workers), firing each worker's
// cron triggers on schedule meanwhile (wrangler dev does not; see lib/schedule.mjs).
//
// `--state-dir DIR` runs a separate instance beside the default one (the system tests do):
// its D1/R2/queue state, the edge's secrets (DIR/edge.dev.vars instead of apps/edge/.dev.vars)
// and wrangler's dev registry (which wires the edge's ORIGIN binding to the origin by worker
// name, so two instances sharing it would cross-wire) all live under DIR.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { freePort, run, waitForHealth, wranglerBin } from "./lib/processes.mjs";
import { fireScheduled, readCronTriggers, scheduleCrons, withoutCronNotice } from "./lib/schedule.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_STATE_DIR = path.join(root, ".wrangler", "state");
const DEFAULT_ENV_FILE = path.join(root, ".scangate", "local.env");

const { values: args } = parseArgs({
  options: {
    "edge-port": { type: "string", default: process.env.EDGE_PORT ?? "8787" },
    "origin-port": { type: "string", default: process.env.ORIGIN_PORT ?? "8788" },
    hosts: { type: "string" },
    certs: { type: "string" },
    "state-dir": { type: "string" },
    // Not --env-file: Node 20 reads that flag even after the script name, loads the file into
    // process.env and exits when it is missing.
    "local-env": { type: "string" },
    // What the edge answers the legacy routes from (its UPSTREAM_API var): the origin's legacy
    // API, or its Platform API alone (translated; 501 where there is no Platform equivalent).
    "upstream-api": { type: "string", default: process.env.UPSTREAM_API ?? "legacy" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log(`usage: pnpm start [--edge-port 8787] [--origin-port 8788] [--hosts N] [--certs M]
                 [--state-dir .wrangler/state] [--local-env .scangate/local.env]
                 [--upstream-api legacy|platform]

Starts the origin (seeding its dataset on first run) and the edge in front of it.
State lives in .wrangler/state; \`pnpm reset\` wipes it. Another --state-dir starts a separate
instance: its own data, edge secrets (DIR/edge.dev.vars) and wrangler dev registry.
The URLs and credentials are written to the --local-env file.
--upstream-api platform answers the legacy API (/api/v1, /api/v2) from the origin's Platform
API (/v3) alone, as an edge in front of a Platform-only account does (the edge's UPSTREAM_API).
Both workers' cron triggers (their wrangler.jsonc) are fired on schedule while it runs.`);
  process.exit(0);
}

if (!["legacy", "platform"].includes(args["upstream-api"])) {
  console.error(`--upstream-api must be legacy or platform, not ${JSON.stringify(args["upstream-api"])}`);
  process.exit(2);
}

const persistTo = path.resolve(args["state-dir"] ?? DEFAULT_STATE_DIR);
const envFile = path.resolve(args["local-env"] ?? DEFAULT_ENV_FILE);
const separateInstance = persistTo !== DEFAULT_STATE_DIR;
const edgeSecretsFile = separateInstance ? path.join(persistTo, "edge.dev.vars") : undefined;
const workerEnv = {
  WRANGLER_SEND_METRICS: "false",
  // Neither worker reads request.cf: don't fetch its sample from the network on every start.
  CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
  ...(separateInstance ? { WRANGLER_REGISTRY_PATH: path.join(persistTo, "registry") } : {}),
};

const apps = {
  origin: path.join(root, "apps", "origin"),
  edge: path.join(root, "apps", "edge"),
};

async function main() {
  mkdirSync(path.dirname(envFile), { recursive: true });
  mkdirSync(persistTo, { recursive: true });

  // Read while the workers start (loading wrangler's config reader takes a couple of seconds).
  const triggers = readTriggers();
  triggers.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const edgeSetup = await import("../apps/edge/scripts/local-setup.mjs");
  const local = await edgeSetup.ensureLocalSecrets({ root, devVarsFile: edgeSecretsFile });

  // Two independent chains, side by side: the edge's migrations then the edge, and the origin's
  // seed (which applies the origin's migrations itself) then the origin.
  log("applying D1 migrations");
  const edgeUp = run(
    wranglerBin(root),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo],
    {
      cwd: apps.edge,
      quiet: true,
      env: workerEnv,
    },
  ).then(() =>
    launchWorker("edge", apps.edge, args["edge-port"], edgeSecretsFile, [
      "--var",
      `UPSTREAM_API:${args["upstream-api"]}`,
    ]),
  );
  if (args["upstream-api"] === "platform")
    log("the edge answers the legacy API from the origin's Platform API alone (UPSTREAM_API=platform)");
  const seedArgs = ["--persist-to", persistTo];
  if (args.hosts) seedArgs.push("--hosts", args.hosts);
  if (args.certs) seedArgs.push("--certs", args.certs);
  log("checking the origin dataset (seeded on first run)");
  const originUp = run(process.execPath, [path.join(apps.origin, "scripts", "seed.mjs"), ...seedArgs], {
    cwd: apps.origin,
    env: workerEnv,
  }).then(() => launchWorker("origin", apps.origin, args["origin-port"]));
  await Promise.all([edgeUp, originUp]);

  const originUrl = `http://127.0.0.1:${args["origin-port"]}`;
  const edgeUrl = `http://127.0.0.1:${args["edge-port"]}`;
  const options = { signal: stopped.signal };
  await Promise.all([
    waitForHealth(`${originUrl}/health`, 120_000, options),
    waitForHealth(`${edgeUrl}/health`, 120_000, options),
  ]);

  startScheduledWork(await triggers, { origin: originUrl, edge: edgeUrl });
  // Balances an older local state kept in D1 move into the tenants' ledger objects (once).
  const moved = await edgeSetup.importLedgers({ edgeUrl, adminToken: local.adminToken });
  if (moved > 0) log(`moved ${moved} tenant balance(s) from D1 into their ledger objects`);

  const known = edgeSetup.readLocalEnv(envFile);
  const demo = await edgeSetup.ensureDemoTenant({ edgeUrl, adminToken: local.adminToken, root, known });
  const demoToken = await edgeSetup.ensureDemoPlatformToken({
    edgeUrl,
    adminToken: local.adminToken,
    tenantId: demo.tenantId,
    known,
  });
  const env = {
    EDGE_URL: edgeUrl,
    ORIGIN_URL: originUrl,
    DEMO_API_ID: demo.apiId,
    DEMO_API_SECRET: demo.apiSecret,
    ADMIN_TOKEN: local.adminToken,
    ORIGIN_API_ID: local.originApiId,
    ORIGIN_API_SECRET: local.originApiSecret,
    // The organization the edge's local /v3 pool acts for (the edge accepts any the caller names).
    ...(demoToken
      ? {
          DEMO_PLATFORM_TOKEN: demoToken.token,
          PLATFORM_ORGANIZATION_ID: edgeSetup.ORIGIN_DEFAULT_PLATFORM_CREDENTIAL.organization_id,
        }
      : {}),
  };
  writeFileSync(
    envFile,
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  printWelcome(env);
  const stale = staleDataset();
  if (stale) log(stale);
}

/**
 * A reminder when the origin's dataset is more than a day old: its latest snapshot is the day
 * it was seeded (the seed step writes that day to DIR/dataset-day), so every host looks that
 * many days stale. Null when it is fresh or the day is unknown.
 */
function staleDataset() {
  let seeded;
  try {
    seeded = readFileSync(path.join(persistTo, "dataset-day"), "utf8").trim();
  } catch {
    return null;
  }
  const age = Math.floor(
    (Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(seeded)) / 86_400_000,
  );
  if (!(age > 1)) return null;
  const sizes = [
    ...(args.hosts ? ["--hosts", args.hosts] : []),
    ...(args.certs ? ["--certs", args.certs] : []),
  ];
  return (
    `the origin's data was seeded on ${seeded}, ${age} days ago, so every host looks ${age} days stale. ` +
    `To refresh it for today, stop scangate and run: ` +
    `node apps/origin/scripts/seed.mjs --force --persist-to ${displayPath(persistTo)}${sizes.length ? ` ${sizes.join(" ")}` : ""}`
  );
}

const workers = [];
const stopped = new AbortController();
const INTERRUPTED = "interrupted";
let scheduledWork;

/** Stops the workers (Ctrl-C, a worker that failed, a start that failed); one not started yet never starts. */
function stopWorkers(reason = new Error(INTERRUPTED)) {
  if (!stopped.signal.aborted) stopped.abort(reason);
  scheduledWork?.stop();
  for (const child of workers) child.kill("SIGINT");
}
process.on("SIGINT", () => stopWorkers());
process.on("SIGTERM", () => stopWorkers());

/** Both workers' cron triggers, from their wrangler.jsonc. */
function readTriggers() {
  const configs = Object.fromEntries(
    Object.entries(apps).map(([worker, dir]) => [worker, path.join(dir, "wrangler.jsonc")]),
  );
  return readCronTriggers(configs, { cwd: root });
}

/**
 * Fires each worker's cron triggers on their schedule, as Cloudflare would: the origin's job
 * expiry and lost-job sweep, the edge's cache and session cleanup. Quiet unless a run fails.
 */
function startScheduledWork(triggers, urls) {
  stopped.signal.throwIfAborted();
  scheduledWork = scheduleCrons(
    triggers,
    ({ worker, cron }, time) => fireScheduled(urls[worker], cron, time, { signal: stopped.signal }),
    {
      onError: (error, { worker, cron }) =>
        console.error(
          `scangate: the ${worker}'s scheduled run (${cron}) failed: ${error instanceof Error ? error.message : error}`,
        ),
    },
  );
  log(`scheduled work is on: ${triggers.map(({ worker, cron }) => `${worker} "${cron}"`).join(", ")}`);
}

/** Starts `wrangler dev` for one app; a worker that fails stops the other one and this script. */
async function launchWorker(name, cwd, port, secretsFile, extraArgs = []) {
  stopped.signal.throwIfAborted();
  // An inspector port of each worker's own: left to wrangler, both pick 9229 at the same moment.
  const inspectorPort = await freePort();
  const child = spawn(
    wranglerBin(root),
    [
      "dev",
      "--port",
      port,
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistTo,
      "--show-interactive-dev-session=false",
      // Instead of the app's .dev.vars (wrangler then reads only this file).
      ...(secretsFile ? ["--env-file", secretsFile] : []),
      ...extraArgs,
    ],
    { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...workerEnv } },
  );
  workers.push(child);
  const prefix = `[${name}] `;
  const forward = (stream, out) => {
    const shown = withoutCronNotice();
    createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
      if (line.trim() && shown(line)) out.write(prefix + line + "\n");
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  child.on("exit", (code) => {
    if (code !== 0 && code !== null) {
      console.error(`a worker exited with code ${code}; stopping`);
      process.exitCode = code;
      stopWorkers(new Error(`the ${name} worker exited with code ${code}`));
    }
  });
}

function printWelcome(env) {
  const auth = `${env.DEMO_API_ID}:${env.DEMO_API_SECRET}`;
  console.log(`
scangate is running.

  edge    ${env.EDGE_URL}      (the endpoint your team uses)
  origin  ${env.ORIGIN_URL}      (the Censys-compatible upstream over the local dataset)

  demo tenant   API ID ${env.DEMO_API_ID}
                secret ${env.DEMO_API_SECRET}
  admin token   ${env.ADMIN_TOKEN}
  dashboard     ${env.EDGE_URL}/dashboard${
    env.DEMO_PLATFORM_TOKEN ? `\n  /v3 token     ${env.DEMO_PLATFORM_TOKEN}` : ""
  }

These values are also in ${displayPath(envFile)}.

Try it:

  curl -u ${auth} ${env.EDGE_URL}/api/v1/account

  python3 -c 'from censys.search import CensysHosts; h = CensysHosts(url="${env.EDGE_URL}/api", api_id="${env.DEMO_API_ID}", api_secret="${env.DEMO_API_SECRET}"); print(h.search("services.service_name: HTTP", per_page=5)())'

  node packages/client/bin/scangate.mjs account   # the project's own CLI; reads .scangate/local.env
${
  env.DEMO_PLATFORM_TOKEN
    ? `
The Platform API (/v3), with the demo tenant's bearer token (any organization id is accepted):

  curl -H "Authorization: Bearer ${env.DEMO_PLATFORM_TOKEN}" -H "Content-Type: application/json" \\
    -d '{"query": "host.services.port=22", "page_size": 2}' ${env.EDGE_URL}/v3/global/search/query

  node packages/client/bin/scangate.mjs search "host.services.port=22" --api v3 --limit 5
`
    : ""
}
Ctrl-C stops both workers.
`);
}

function displayPath(file) {
  const relative = path.relative(root, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

function log(message) {
  console.log(`scangate: ${message}`);
}

if (!existsSync(path.join(root, "node_modules"))) {
  console.error("dependencies are missing: run `npx -y pnpm@10.34.9 install` first");
  process.exit(1);
}

main().catch((error) => {
  // What stopped the start first (a worker that exited, Ctrl-C) says more than what failed after it.
  const cause = stopped.signal.aborted ? stopped.signal.reason : error;
  const interrupted = cause?.message === INTERRUPTED;
  if (!interrupted)
    console.error(`scangate: start failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  stopWorkers(cause);
  process.exitCode ??= interrupted ? 130 : 1;
});
