import type { JobQueue } from "../../src/jobs/queue";
import type { JobRow, JobStore } from "../../src/jobs/store";
import type { ResultStore, StoredObject } from "../../src/storage/result-store";

/**
 * Test implementations of the origin's service interfaces (src/infrastructure.ts), for
 * `createApp({ ... })`: each keeps what it was given so a test can look.
 */

/** A queue that refuses every job, as a queue that is down would. */
export function failingJobQueue(): JobQueue & { attempts: string[] } {
  const attempts: string[] = [];
  return {
    attempts,
    enqueue(jobId) {
      attempts.push(jobId);
      return Promise.reject(new Error("queue unavailable"));
    },
  };
}

/** Job records in memory. */
export function memoryJobStore(): JobStore & { rows: Map<string, JobRow> } {
  const rows = new Map<string, JobRow>();
  return {
    rows,
    insert(job) {
      const row: JobRow = {
        id: job.id,
        kind: job.kind,
        status: "pending",
        owner: job.owner,
        query: job.query,
        checkedSql: job.checkedSql,
        options: job.options === undefined ? null : JSON.stringify(job.options),
        createdAt: job.now.getTime(),
        startedAt: null,
        heartbeatAt: null,
        completedAt: null,
        resultRows: null,
        resultPages: null,
        dataProcessed: null,
        resultSchema: null,
        backendTimeMs: null,
        errorMessage: null,
        files: null,
      };
      rows.set(row.id, row);
      return Promise.resolve(row);
    },
    find: (id) => Promise.resolve(rows.get(id) ?? null),
    markFailed(id, message, now) {
      const row = rows.get(id);
      if (row?.status !== "pending") return Promise.resolve(false);
      rows.set(id, { ...row, status: "error", errorMessage: message, completedAt: now.getTime() });
      return Promise.resolve(true);
    },
    markExpired(id) {
      const row = rows.get(id);
      if (row?.kind !== "export" || row.status !== "success") return Promise.resolve(false);
      rows.set(id, { ...row, status: "expired" });
      return Promise.resolve(true);
    },
  };
}

interface MemoryObject {
  bytes: Uint8Array;
  contentType: string;
}

/** A result store in memory that records every write. */
export function memoryResultStore(): ResultStore & {
  objects: Map<string, MemoryObject>;
  writes: string[];
} {
  const objects = new Map<string, MemoryObject>();
  const writes: string[] = [];
  const stored = ({ bytes, contentType }: MemoryObject): StoredObject => ({
    body: new Blob([bytes]).stream(),
    size: bytes.byteLength,
    httpEtag: `"${bytes.byteLength}"`,
    writeHttpMetadata: (headers) => headers.set("Content-Type", contentType),
    json: <T>() => Promise.resolve(JSON.parse(new TextDecoder().decode(bytes)) as T),
  });
  return {
    objects,
    writes,
    get(key) {
      const object = objects.get(key);
      return Promise.resolve(object ? stored(object) : null);
    },
    put(key, value, contentType) {
      writes.push(key);
      const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
      objects.set(key, { bytes, contentType });
      return Promise.resolve();
    },
    deletePrefix(prefix) {
      const keys = [...objects.keys()].filter((key) => key.startsWith(prefix));
      for (const key of keys) objects.delete(key);
      return Promise.resolve(keys.length);
    },
  };
}
