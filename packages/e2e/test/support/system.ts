// The whole product, started the way a person starts it: `node scripts/start.mjs` at the repo
// root, here with free ports, a temporary state dir and a small dataset, so it runs beside a
// developer's own `pnpm start` without touching it.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { REPO_ROOT } from "./paths";
import { copySeededOrigin } from "./seeded-origin";

export { REPO_ROOT };

const START_SCRIPT = path.join(REPO_ROOT, "scripts", "start.mjs");
/** A developer's own edge secrets, which a test run must leave alone. */
export const EDGE_DEV_VARS = path.join(REPO_ROOT, "apps", "edge", ".dev.vars");

export function fileDigest(file: string): string | null {
  return existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : null;
}

/** What start.mjs writes to its local-env file once both workers answer. */
export const LOCAL_ENV_KEYS = [
  "EDGE_URL",
  "ORIGIN_URL",
  "DEMO_API_ID",
  "DEMO_API_SECRET",
  "ADMIN_TOKEN",
  "ORIGIN_API_ID",
  "ORIGIN_API_SECRET",
] as const;
export type LocalEnv = Record<(typeof LOCAL_ENV_KEYS)[number], string>;

export interface StartOptions {
  hosts: number;
  certs: number;
  timeoutMs: number;
  /** Start from a copy of the seeded origin kept between runs (else start.mjs seeds, as on a first start). */
  reuseSeededOrigin: boolean;
  /** The edge's UPSTREAM_API (start.mjs --upstream-api); legacy unless given. */
  upstreamApi?: "legacy" | "platform";
}

export interface RunningSystem {
  env: LocalEnv;
  /** The local-env file start.mjs wrote. */
  envFile: string;
  /** Everything start.mjs printed so far (its own lines and both workers'). */
  output(): string;
  /** The file that output is written to, kept until the system stops. */
  logFile: string;
  /** With reuseSeededOrigin: copying (or, the first time, seeding) the origin's dataset into the fresh state dir. */
  template: { ms: number; reused: boolean } | null;
  /** From spawning start.mjs to its local-env file being complete. */
  readyMs: number;
  stop(): Promise<{ stopMs: number; killed: boolean }>;
}

/** `count` distinct ports nothing listens on (all held open at once, so they differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.on("error", reject);
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** KEY=value lines, as start.mjs writes them. */
export function parseLocalEnv(text: string): Partial<LocalEnv> & Partial<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line);
    if (match?.[1] && match[2] !== undefined) values[match[1]] = match[2];
  }
  return values;
}

function completeEnv(file: string): LocalEnv | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  // start.mjs ends the file with a newline: without one, it is still being written.
  if (!text.endsWith("\n")) return null;
  const values = parseLocalEnv(text);
  return LOCAL_ENV_KEYS.every((key) => values[key]) ? (values as LocalEnv) : null;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Stops start.mjs and everything it started (it leads its own process group): SIGINT, as
 * Ctrl-C would, then SIGKILL for whatever is left after `graceMs`.
 */
async function stopGroup(child: ChildProcess, graceMs: number): Promise<{ stopMs: number; killed: boolean }> {
  const pid = child.pid;
  const started = performance.now();
  if (pid === undefined) return { stopMs: 0, killed: false };
  signalGroup(pid, "SIGINT");
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  const killed = groupAlive(pid);
  if (killed) {
    signalGroup(pid, "SIGKILL");
    for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
  }
  return { stopMs: performance.now() - started, killed };
}

/** Starts the system and resolves once its local-env file is complete (both workers answer). */
export async function startSystem(options: StartOptions): Promise<RunningSystem> {
  const dir = mkdtempSync(path.join(tmpdir(), "scangate-e2e-"));
  const envFile = path.join(dir, "local.env");
  const logFile = path.join(dir, "start.log");
  const stateDir = path.join(dir, "state");
  const templateStarted = performance.now();
  const template = options.reuseSeededOrigin
    ? await copySeededOrigin(stateDir, options).then(
        ({ reused }) => ({ reused, ms: performance.now() - templateStarted }),
        (error: unknown) => {
          rmSync(dir, { recursive: true, force: true });
          throw error;
        },
      )
    : null;
  const [edgePort, originPort] = await freePorts(2);
  const args = [
    START_SCRIPT,
    "--state-dir",
    stateDir,
    "--local-env",
    envFile,
    "--edge-port",
    String(edgePort),
    "--origin-port",
    String(originPort),
    "--hosts",
    String(options.hosts),
    "--certs",
    String(options.certs),
    ...(options.upstreamApi ? ["--upstream-api", options.upstreamApi] : []),
  ];
  const log = openSync(logFile, "w");
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
  });
  closeSync(log);
  // Should the runner die without its teardown, the workers must not outlive it.
  const killOnExit = () => child.pid !== undefined && signalGroup(child.pid, "SIGKILL");
  process.once("exit", killOnExit);

  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const stop = async () => {
    const result = await stopGroup(child, 10_000);
    process.off("exit", killOnExit);
    rmSync(dir, { recursive: true, force: true });
    return result;
  };

  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const env = completeEnv(envFile);
    if (env) return { env, envFile, output, logFile, template, readyMs: performance.now() - started, stop };
    const exited = child.exitCode !== null || child.signalCode !== null;
    if (exited || Date.now() > deadline) {
      const tail = output().split("\n").slice(-40).join("\n");
      await stop();
      throw new Error(
        `${exited ? `start.mjs exited (${child.exitCode ?? child.signalCode})` : `start.mjs was not ready within ${options.timeoutMs / 1000} s`} before writing ${envFile}; its last output:\n${tail}`,
      );
    }
    await sleep(100);
  }
}
