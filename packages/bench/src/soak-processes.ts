// The local system's processes, for the soak: which `wrangler dev` (and its workerd) serves the
// origin and which the edge (from /proc: the descendants of start.mjs, told apart by their
// working folder), their memory (workerd's resident set; the isolate's heap through the
// inspector port start.mjs gave each wrangler), and the origin's crash and restart: every
// process of the origin killed at once, then the same command start.mjs ran started again on
// the same port and persisted state.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { EDGE_DIR, ORIGIN_DIR } from "./paths";
import { inspectWorker, type WorkerInspector } from "./inspector";

interface ProcessInfo {
  pid: number;
  ppid: number;
  comm: string;
}

export interface WorkerProcesses {
  worker: "origin" | "edge";
  /** The topmost process of the worker (the `wrangler dev` start.mjs started). */
  wrangler: number;
  /** Its workerd processes. */
  workerd: number[];
  /** Every process under it, itself included. */
  all: number[];
  command: string[];
  cwd: string;
  inspectorPort: number | null;
}

export interface WorkerMemory {
  worker: string;
  pids: number[];
  /** Resident set of its workerd processes, and its anonymous and file-backed parts. */
  rssBytes: number | null;
  rssAnonBytes: number | null;
  rssFileBytes: number | null;
  heapUsedBytes: number | null;
  note?: string;
}

function processes(): ProcessInfo[] {
  const list: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      list.push({ pid: Number(entry), ppid, comm });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}

function descendants(root: number, all: readonly ProcessInfo[]): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const next = all.filter((p) => frontier.includes(p.ppid));
    found.push(...next);
    frontier = next.map((p) => p.pid);
  }
  return found;
}

const cwdOf = (pid: number) => {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return "";
  }
};

const commandOf = (pid: number) =>
  readFileSync(`/proc/${pid}/cmdline`, "utf8")
    .split("\0")
    .filter((part) => part !== "");

/** The origin's and the edge's processes under `rootPid` (this process: start.mjs, and an origin it restarted). */
export function findWorkers(rootPid: number): { origin: WorkerProcesses; edge: WorkerProcesses } {
  const all = processes();
  const under = descendants(rootPid, all);
  const find = (worker: "origin" | "edge", dir: string): WorkerProcesses => {
    // The topmost descendant working in the app's folder whose command is `wrangler dev`.
    const top = under.find((p) => {
      if (cwdOf(p.pid) !== dir) return false;
      const parent = all.find((q) => q.pid === p.ppid);
      return parent === undefined || cwdOf(parent.pid) !== dir;
    });
    if (!top) throw new Error(`no ${worker} process under pid ${rootPid}`);
    const command = commandOf(top.pid);
    if (!command.includes("dev"))
      throw new Error(`the ${worker}'s process is not wrangler dev: ${command.join(" ")}`);
    const below = descendants(top.pid, all);
    const port = command[command.indexOf("--inspector-port") + 1];
    return {
      worker,
      wrangler: top.pid,
      workerd: below.filter((p) => p.comm === "workerd").map((p) => p.pid),
      all: [top.pid, ...below.map((p) => p.pid)],
      command,
      cwd: dir,
      inspectorPort: command.includes("--inspector-port") && port ? Number(port) : null,
    };
  };
  return { origin: find("origin", ORIGIN_DIR), edge: find("edge", EDGE_DIR) };
}

function rssOf(pids: readonly number[]): number | null {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) total += Number(match[1]) * 1024;
    } catch {
      return null;
    }
  }
  return pids.length > 0 ? total : null;
}

/** `work`, or a note that it did not finish in `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Open inspector sessions, by worker process: kept for later readings. */
const sessions = new Map<number, WorkerInspector>();

/**
 * The heap the worker's isolate keeps after a full collection, through its inspector port (a
 * session opened once per process and kept: wrangler's inspector proxy did not answer a second
 * session). When the collection does not answer, the heap as V8 has it, garbage included.
 */
async function heapOf(processes: WorkerProcesses): Promise<{ bytes: number | null; note?: string }> {
  const port = processes.inspectorPort;
  if (port === null) return { bytes: null, note: "no inspector port" };
  try {
    // By process: a restarted origin has the same port, not the same isolate.
    let inspector = sessions.get(processes.wrangler);
    if (!inspector) {
      const base = `127.0.0.1:${port}`;
      const targets = (await (
        await fetch(`http://${base}/json/list`, { signal: AbortSignal.timeout(5_000) })
      ).json()) as Array<{ webSocketDebuggerUrl?: string }>;
      const target = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (!target) return { bytes: null, note: `inspector lists no target (${JSON.stringify(targets)})` };
      inspector = await within(
        10_000,
        inspectWorker(new URL(`ws://${base}`), target.slice(target.lastIndexOf("/") + 1)),
      );
      sessions.set(processes.wrangler, inspector);
    }
    try {
      return { bytes: (await within(20_000, inspector.heapAfterCollection())).usedSize };
    } catch (error) {
      const peak = await within(10_000, inspector.watchHeap(60_000).stop());
      return {
        bytes: peak.usedSize,
        note: `heap without a collection (the collection: ${error instanceof Error ? error.message : String(error)})`,
      };
    }
  } catch (error) {
    return { bytes: null, note: `inspector: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Closes the inspector sessions (the process exits only once they are closed). */
export function closeInspectors(): void {
  for (const inspector of sessions.values()) inspector.close();
  sessions.clear();
}

function rssParts(pids: readonly number[]): { anon: number; file: number } | null {
  let anon = 0;
  let file = 0;
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      anon += Number(/RssAnon:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      file += Number(/RssFile:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return null;
    }
  }
  return pids.length > 0 ? { anon, file } : null;
}

export async function memoryOf(workers: {
  origin: WorkerProcesses;
  edge: WorkerProcesses;
}): Promise<WorkerMemory[]> {
  const out: WorkerMemory[] = [];
  for (const processes of [workers.edge, workers.origin]) {
    const heap = await heapOf(processes);
    const parts = rssParts(processes.workerd);
    out.push({
      worker: processes.worker,
      pids: processes.workerd,
      rssBytes: rssOf(processes.workerd),
      rssAnonBytes: parts?.anon ?? null,
      rssFileBytes: parts?.file ?? null,
      heapUsedBytes: heap.bytes,
      ...(heap.note ? { note: heap.note } : {}),
    });
  }
  return out;
}

/**
 * Kills every process of the origin at once (SIGKILL: a crash, nothing flushed), then starts
 * the same command in the same folder with start.mjs's environment for this state folder.
 * start.mjs sees its origin die by a signal and keeps the edge running.
 */
export function restartOrigin(origin: WorkerProcesses, stateDir: string): { stop(): Promise<void> } {
  for (const pid of origin.all) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  const [command, ...args] = origin.command;
  if (!command) throw new Error("the origin's command line is empty");
  const child = spawn(command, args, {
    cwd: origin.cwd,
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      // What start.mjs sets for a state folder of its own (scripts/start.mjs, workerEnv).
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
      WRANGLER_REGISTRY_PATH: `${stateDir}/registry`,
    },
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      process.kill(-child.pid, "SIGINT");
      const timer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }, 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
