// The local system newcomers run, started for a measurement: the repository's own start script
// (`node scripts/start.mjs`: wrangler dev for the origin and the edge, the origin's dataset and
// snapshot tables seeded on first start) in a state folder of its own, on free ports. Used by
// local-system.ts (SQL job measurements) and soak.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { basicAuth } from "./admin-client";
import { REPO_ROOT } from "./paths";
import type { SqlEndpoint } from "./sql-jobs";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function readEnvFile(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

export interface LocalSystem {
  readonly endpoint: SqlEndpoint;
  readonly edgeUrl: string;
  readonly adminToken: string;
  readonly stateDir: string;
  readonly edgePort: number;
  readonly originPort: number;
  /** start.mjs's process (the leader of its own process group). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** `node scripts/start.mjs` in its own process group; resolves once it wrote its local env file. */
export async function startLocalSystem(
  stateDir: string,
  hosts: number,
  timeoutMs: number,
  log: (message: string) => void,
): Promise<LocalSystem> {
  const envFile = path.join(stateDir, "local.env");
  rmSync(envFile, { force: true });
  mkdirSync(stateDir, { recursive: true });
  const [edgePort, originPort] = [await freePort(), await freePort()];
  const args = [
    path.join(REPO_ROOT, "scripts", "start.mjs"),
    "--state-dir",
    stateDir,
    "--edge-port",
    String(edgePort),
    "--origin-port",
    String(originPort),
    "--hosts",
    String(hosts),
    "--local-env",
    envFile,
  ];
  log(`node ${path.relative(REPO_ROOT, args[0] ?? "")} ${args.slice(1).join(" ")}`);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const started = performance.now();
  const at = () => `[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s]`;
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on("line", (line) => {
      if (line.trim()) process.stderr.write(`  ${at()} ${line}\n`);
    });
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      exited = code;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited !== undefined || child.pid === undefined) return;
    // start.mjs stops both workers on SIGINT (as on Ctrl-C); the group, so nothing is left over.
    process.kill(-child.pid, "SIGINT");
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, 20_000);
    await exit;
    clearTimeout(timer);
  };
  const deadline = performance.now() + timeoutMs;
  while (!existsSync(envFile)) {
    if (exited !== undefined) throw new Error(`the local system exited with ${exited} before it was up`);
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`the local system was not up after ${timeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const env = readEnvFile(envFile);
  const {
    ORIGIN_URL: originUrl,
    ORIGIN_API_ID: id,
    ORIGIN_API_SECRET: secret,
    EDGE_URL: edgeUrl,
    ADMIN_TOKEN: adminToken,
  } = env;
  if (!originUrl || !id || !secret || !edgeUrl || !adminToken)
    throw new Error(`${envFile} lacks ORIGIN_URL, ORIGIN_API_ID, ORIGIN_API_SECRET, EDGE_URL or ADMIN_TOKEN`);
  log(`up after ${Math.round((performance.now() - started) / 1000)} s: origin ${originUrl}, edge ${edgeUrl}`);
  return {
    endpoint: { originUrl, authorization: basicAuth(id, secret) },
    edgeUrl,
    adminToken,
    stateDir,
    edgePort,
    originPort,
    pid: child.pid ?? 0,
    stop,
  };
}
