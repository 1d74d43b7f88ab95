#!/usr/bin/env node
// Starts the whole system locally: the origin (seeded on first run) on :8788 and the edge in
// front of it on :8787, then prints the demo tenant and writes .scangate/local.env.
// Stays in the foreground until interrupted (Ctrl-C stops both workers).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { run, waitForHealth, wranglerBin } from "./lib/processes.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const persistTo = path.join(root, ".wrangler", "state");

const { values: args } = parseArgs({
  options: {
    "edge-port": { type: "string", default: process.env.EDGE_PORT ?? "8787" },
    "origin-port": { type: "string", default: process.env.ORIGIN_PORT ?? "8788" },
    hosts: { type: "string" },
    certs: { type: "string" },
    help: { type: "boolean", default: false },
  },
});

if (args.help) {
  console.log(`usage: pnpm start [--edge-port 8787] [--origin-port 8788] [--hosts N] [--certs M]

Starts the origin (seeding its dataset on first run) and the edge in front of it.
State lives in .wrangler/state; \`pnpm reset\` wipes it.`);
  process.exit(0);
}

const apps = {
  origin: path.join(root, "apps", "origin"),
  edge: path.join(root, "apps", "edge"),
};

async function main() {
  mkdirSync(path.join(root, ".scangate"), { recursive: true });

  const edgeSetup = await import("../apps/edge/scripts/local-setup.mjs");
  const local = await edgeSetup.ensureLocalSecrets({ root });

  log("applying D1 migrations");
  for (const dir of [apps.origin, apps.edge]) {
    await run(wranglerBin(root), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], {
      cwd: dir,
      quiet: true,
    });
  }

  const seedArgs = ["--persist-to", persistTo];
  if (args.hosts) seedArgs.push("--hosts", args.hosts);
  if (args.certs) seedArgs.push("--certs", args.certs);
  log("checking the origin dataset (seeded on first run)");
  await run(process.execPath, [path.join(apps.origin, "scripts", "seed.mjs"), ...seedArgs], { cwd: apps.origin });

  const originUrl = `http://127.0.0.1:${args["origin-port"]}`;
  const edgeUrl = `http://127.0.0.1:${args["edge-port"]}`;
  const children = [
    startWorker("origin", apps.origin, args["origin-port"]),
    startWorker("edge", apps.edge, args["edge-port"]),
  ];
  const stop = () => {
    for (const child of children) child.kill("SIGINT");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  for (const child of children) {
    child.on("exit", (code) => {
      if (code !== 0 && code !== null) {
        console.error(`a worker exited with code ${code}; stopping`);
        stop();
        process.exitCode = code;
      }
    });
  }

  await waitForHealth(`${originUrl}/health`);
  await waitForHealth(`${edgeUrl}/health`);

  const demo = await edgeSetup.ensureDemoTenant({ edgeUrl, adminToken: local.adminToken, root });
  const env = {
    EDGE_URL: edgeUrl,
    ORIGIN_URL: originUrl,
    DEMO_API_ID: demo.apiId,
    DEMO_API_SECRET: demo.apiSecret,
    ADMIN_TOKEN: local.adminToken,
    ORIGIN_API_ID: local.originApiId,
    ORIGIN_API_SECRET: local.originApiSecret,
  };
  writeFileSync(
    path.join(root, ".scangate", "local.env"),
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n",
  );
  printWelcome(env);
}

function startWorker(name, cwd, port) {
  const child = spawn(
    wranglerBin(root),
    ["dev", "--port", port, "--ip", "127.0.0.1", "--persist-to", persistTo, "--show-interactive-dev-session=false"],
    { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  const prefix = `[${name}] `;
  const forward = (stream, out) =>
    stream.on("data", (chunk) => {
      for (const line of chunk.toString().split("\n")) if (line.trim()) out.write(prefix + line + "\n");
    });
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
  return child;
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
  dashboard     ${env.EDGE_URL}/dashboard

These values are also in .scangate/local.env.

Try it:

  curl -u ${auth} ${env.EDGE_URL}/api/v1/account

  python3 -c 'from censys.search import CensysHosts; h = CensysHosts(url="${env.EDGE_URL}/api", api_id="${env.DEMO_API_ID}", api_secret="${env.DEMO_API_SECRET}"); print(h.search("services.service_name: HTTP", per_page=5)())'

  npx -y pnpm@10.34.9 --filter @scangate/client exec scangate account   # reads .scangate/local.env

Ctrl-C stops both workers.
`);
}

function log(message) {
  console.log(`scangate: ${message}`);
}

if (!existsSync(path.join(root, "node_modules"))) {
  console.error("dependencies are missing: run `npx -y pnpm@10.34.9 install` first");
  process.exit(1);
}

main().catch((error) => {
  console.error(`scangate: start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
