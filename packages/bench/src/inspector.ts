// The V8 inspector of one worker's isolate, through Miniflare's inspector proxy: the edge's heap
// after a workload (the memory target), and CPU profiles of a load for finding where a request's
// time goes. The DevTools protocol over a WebSocket; nothing is sent while no one asks.
import { writeFile } from "node:fs/promises";
import WebSocket from "ws";

interface ProtocolReply {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

/** What V8 reports of its heap (Runtime.getHeapUsage), in bytes. */
export interface HeapUsage {
  readonly usedSize: number;
  readonly totalSize: number;
}

/**
 * The largest heap readings while watching, in bytes, as V8 had them (garbage not yet collected
 * included), and how many times it looked.
 */
export interface HeapPeak {
  readonly usedSize: number;
  readonly totalSize: number;
  readonly readings: number;
}

export interface WorkerInspector {
  /**
   * Reads the heap every `intervalMs` until `stop`, which gives the largest readings. Nothing is
   * collected meanwhile: under load, forced collections left requests unanswered in workerd.
   */
  watchHeap(intervalMs: number): { stop(): Promise<HeapPeak> };
  /** Heap use after a full collection: what the isolate keeps, not what it has yet to free. */
  heapAfterCollection(): Promise<HeapUsage>;
  /** Runs `during` with the sampling profiler on and writes the profile (a .cpuprofile) to `file`. */
  profile(file: string, during: () => Promise<void>): Promise<void>;
  close(): void;
}

/** Connects to the named worker's isolate on Miniflare's inspector port. */
export async function inspectWorker(inspectorUrl: URL, workerName: string): Promise<WorkerInspector> {
  const listUrl = new URL("/json/list", inspectorUrl.href.replace(/^ws/, "http"));
  const targets = (await (await fetch(listUrl)).json()) as Array<{ webSocketDebuggerUrl?: string }>;
  const target = targets.find((t) => t.webSocketDebuggerUrl?.endsWith(`/${workerName}`));
  if (!target?.webSocketDebuggerUrl) {
    throw new Error(`no inspector target for worker ${workerName} (targets: ${JSON.stringify(targets)})`);
  }
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  socket.on("message", (data: Buffer) => {
    // A text frame, as a Buffer (the default binaryType).
    const reply = JSON.parse(data.toString("utf8")) as ProtocolReply;
    if (reply.id === undefined) return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.error) waiter.reject(new Error(`inspector: ${reply.error.message}`));
    else waiter.resolve(reply.result);
  });
  const send = (method: string, params: Record<string, unknown> = {}): Promise<unknown> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  };
  const heapUsage = async () => (await send("Runtime.getHeapUsage")) as HeapUsage;
  // Enabled once: workerd stopped answering collectGarbage after some enable/disable cycles.
  await send("HeapProfiler.enable");
  const collectedHeap = async () => {
    await send("HeapProfiler.collectGarbage");
    return heapUsage();
  };
  return {
    watchHeap(intervalMs) {
      let peak: HeapPeak = { usedSize: 0, totalSize: 0, readings: 0 };
      const read = async () => {
        const usage = await heapUsage();
        peak = {
          usedSize: Math.max(peak.usedSize, usage.usedSize),
          totalSize: Math.max(peak.totalSize, usage.totalSize),
          readings: peak.readings + 1,
        };
      };
      let reading = read();
      const timer = setInterval(() => {
        reading = reading.then(read);
      }, intervalMs);
      return {
        async stop() {
          clearInterval(timer);
          await reading.then(read);
          return peak;
        },
      };
    },
    heapAfterCollection: collectedHeap,
    async profile(file, during) {
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: 200 });
      await send("Profiler.start");
      try {
        await during();
      } finally {
        const { profile } = (await send("Profiler.stop")) as { profile: unknown };
        await send("Profiler.disable");
        await writeFile(file, JSON.stringify(profile));
      }
    },
    close: () => socket.close(),
  };
}
