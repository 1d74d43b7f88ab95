#!/usr/bin/env node
// Runs the official Censys Python client (compat/censys_client_check.py) against the origin.
//
// By default it starts its own origin: `wrangler dev` on a free port over a fresh local D1
// (migrated, then seeded by scripts/seed.mjs with a small dataset) and stops it afterwards.
// With ORIGIN_URL, ORIGIN_API_ID and ORIGIN_API_SECRET set (e.g. from .scangate/local.env),
// it checks that running origin instead. `--persist-to DIR` reuses an already seeded state.
//
// Exit codes: 0 passed (or skipped: python3-censys is not installed), 1 failed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import { freePort, run, waitForHealth, wranglerBin } from "../../../scripts/lib/processes.mjs";

const originDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const checkScript = path.join(originDir, "compat", "censys_client_check.py");

const { values: args } = parseArgs({
  options: {
    "persist-to": { type: "string" },
    hosts: { type: "string", default: "300" },
    certs: { type: "string", default: "250" },
  },
});

function log(message) {
  console.log(`compat: ${message}`);
}

/**
 * A Python that can import the client, with its version. The client is a Debian package, so it
 * lives in the system Python, which a pyenv or venv `python3` earlier on PATH does not see.
 */
function findCensysPython() {
  for (const python of [process.env.PYTHON, "python3", "/usr/bin/python3"].filter(Boolean)) {
    const probe = spawnSync(
      python,
      ["-c", "import censys.search, censys.common.version as v; print(v.__version__)"],
      {
        encoding: "utf8",
      },
    );
    if (probe.status === 0) return { python, version: probe.stdout.trim() };
  }
  return null;
}

/** Credentials of the first account the origin is configured with (wrangler.jsonc vars). */
function configuredAccount() {
  const config = unstable_readConfig({ config: path.join(originDir, "wrangler.jsonc") });
  const [account] = JSON.parse(config.vars.ORIGIN_ACCOUNTS);
  if (!account) throw new Error("wrangler.jsonc declares no ORIGIN_ACCOUNTS");
  return { apiId: account.api_id, apiSecret: account.api_secret };
}

async function prepareState() {
  if (args["persist-to"]) return { persistTo: path.resolve(args["persist-to"]), temporary: false };
  const persistTo = mkdtempSync(path.join(tmpdir(), "scangate-compat-"));
  log(`fresh local D1 in ${persistTo}`);
  await run(
    wranglerBin(originDir),
    ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo],
    {
      cwd: originDir,
      quiet: true,
    },
  );
  const seed = path.join(originDir, "scripts", "seed.mjs");
  if (!existsSync(seed)) throw new Error(`the dataset seed script ${seed} is missing`);
  log(`seeding ${args.hosts} hosts and ${args.certs} certificates`);
  await run(
    process.execPath,
    [seed, "--persist-to", persistTo, "--hosts", args.hosts, "--certs", args.certs],
    {
      cwd: originDir,
    },
  );
  return { persistTo, temporary: true };
}

function startOrigin(persistTo, port) {
  const child = spawn(
    wranglerBin(originDir),
    [
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persistTo,
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: originDir,
      stdio: ["ignore", "pipe", "pipe"],
      // A registry of its own: in the shared one this origin would answer a running edge's
      // ORIGIN binding (they are wired by worker name).
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        WRANGLER_REGISTRY_PATH: path.join(persistTo, "registry"),
      },
    },
  );
  let output = "";
  child.on("error", (error) => (output += `could not start wrangler: ${error.message}\n`));
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGINT");
    setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5000).unref();
  });
}

/** Runs the check against the origin at `url` (named SCANGATE_* so a SCANGATE_URL of the caller's does not win). */
function runCheck(python, { url, apiId, apiSecret }) {
  const env = { SCANGATE_URL: url, SCANGATE_API_ID: apiId, SCANGATE_API_SECRET: apiSecret };
  return new Promise((resolve) => {
    const child = spawn(python, [checkScript], { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

async function main() {
  const client = findCensysPython();
  if (!client) {
    console.log("skipped: python3-censys not installed");
    return 0;
  }
  log(`censys-python ${client.version} (${client.python})`);

  if (process.env.ORIGIN_URL && process.env.ORIGIN_API_ID && process.env.ORIGIN_API_SECRET) {
    log(`checking the running origin at ${process.env.ORIGIN_URL}`);
    return runCheck(client.python, {
      url: process.env.ORIGIN_URL,
      apiId: process.env.ORIGIN_API_ID,
      apiSecret: process.env.ORIGIN_API_SECRET,
    });
  }

  const { persistTo, temporary } = await prepareState();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const account = configuredAccount();
  const origin = startOrigin(persistTo, port);
  try {
    await waitForHealth(`${url}/health`);
    log(`origin up at ${url}`);
    return await runCheck(client.python, { url, ...account });
  } catch (error) {
    console.error(origin.output());
    throw error;
  } finally {
    await stop(origin.child);
    if (temporary) rmSync(persistTo, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`compat: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
