import { QUERY_RESULTS_PAGE_SIZE, type QueryResultRow } from "@scangate/core";
import { describeSqlError, SqlRunError } from "@scangate/sql";
import { cellText, createRowEncoder, type EncodeOptions } from "@scangate/sql/export";
import {
  planPlatformQuery,
  runPlatformPlan,
  type PlatformPlan,
  type PlatformRunStats,
  type PlatformSearch,
} from "@scangate/sql/platform";
import { JobFailure } from "./platform-search";
import type { PlatformJobRow } from "../db/schema";
import type { ExportFile, JobOutcome } from "./platform-store";

// Runs one query or export job over the Platform's search: plans its SQL again (as it was
// planned when submitted: same instant, same maximum of pages), reads what the plan needs, and
// stores the result in R2: a query's rows as pages of QUERY_RESULTS_PAGE_SIZE, an export's as
// files. `stats` counts every Platform call as it answers, so a failed job knows what it spent.

/** Export options as stored with the job (the request's, defaults applied). */
export interface ExportOptions extends EncodeOptions {
  compress: boolean;
  /** Whether the request gave `delimeter` (the job's configuration shows null when not). */
  delimiterGiven: boolean;
}

export interface RunDeps {
  search: PlatformSearch;
  files: R2Bucket;
  /** Called between pages and slices of work, with the credits spent so far. */
  heartbeat: (spent: number) => Promise<void>;
  now: () => number;
}

/** How long a job may run: every call within the upstream deadline, the whole well within the sweep's patience. */
const JOB_TIME_LIMIT_MS = 10 * 60 * 1000;
/**
 * An export file holds at most this much text before compression: a job reads at most
 * JOB_MAX_PAGES_LIMIT pages, so its files are few, and each is built in memory and stored whole.
 */
export const EXPORT_FILE_TEXT_BYTES = 16 * 1024 * 1024;
/** Result rows a query job may return (the origin's bound; a flattened record gives several per document). */
export const QUERY_MAX_ROWS = 100_000;
/** Rows an export job may write. */
export const EXPORT_MAX_ROWS = 1_000_000;

/** Every page and file of a job is under this prefix. */
export const jobFilesPrefix = (jobId: string) => `jobs/${jobId}/`;
export const resultPageKey = (jobId: string, page: number) => `${jobFilesPrefix(jobId)}pages/${page}.json`;

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  json: "application/x-ndjson; charset=utf-8",
} as const;
const encoder = new TextEncoder();

/** Credits spent: each Platform call costs one (core's cost table: a search page, an aggregate). */
export const creditsOf = (stats: PlatformRunStats) => stats.calls.length;

function planOf(job: PlatformJobRow): PlatformPlan {
  const planned = planPlatformQuery(job.query, { now: job.plannedAt, maxPages: job.maxPages });
  if (!planned.ok) throw new JobFailure(`query could not be planned: ${describeSqlError(planned.error)}`);
  return planned.value;
}

async function* results(job: PlatformJobRow, plan: PlatformPlan, deps: RunDeps, stats: PlatformRunStats) {
  let lastBeat = deps.now();
  const started = lastBeat;
  const pause = async () => {
    // A timer lets requests that arrived meanwhile be served before the next slice of work.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    if (deps.now() - lastBeat >= 5_000) {
      lastBeat = deps.now();
      await deps.heartbeat(creditsOf(stats));
    }
  };
  try {
    yield* runPlatformPlan(
      plan,
      deps.search,
      {
        deadline: started + JOB_TIME_LIMIT_MS,
        timeLimitMs: JOB_TIME_LIMIT_MS,
        now: deps.now,
        maxRows: job.kind === "query" ? QUERY_MAX_ROWS : EXPORT_MAX_ROWS,
        pause,
      },
      stats,
    );
  } catch (error) {
    if (error instanceof SqlRunError) throw new JobFailure(error.message);
    throw error;
  }
}

const schemaOf = (plan: PlatformPlan) =>
  plan.plan.columns.map(({ name, type, mode }) => ({ name, type, mode }));

export async function runQueryJob(
  job: PlatformJobRow,
  deps: RunDeps,
  stats: PlatformRunStats,
): Promise<JobOutcome> {
  const started = deps.now();
  const plan = planOf(job);
  let rows = 0;
  let pages = 0;
  let dataProcessed = 0;
  let pending: QueryResultRow[] = [];
  const flush = async () => {
    pages += 1;
    await deps.files.put(resultPageKey(job.id, pages), JSON.stringify({ rows: pending }), {
      httpMetadata: { contentType: "application/json" },
    });
    pending = [];
  };
  for await (const batch of results(job, plan, deps, stats)) {
    for (const row of batch) {
      pending.push({
        f: row.map((value) => {
          const v = cellText(value);
          if (v !== null) dataProcessed += encoder.encode(v).byteLength;
          return { v };
        }),
      });
      rows += 1;
      if (pending.length === QUERY_RESULTS_PAGE_SIZE) await flush();
    }
  }
  // An empty result still has its page 1 (with no rows), so clients can always read it.
  if (pending.length > 0 || pages === 0) await flush();
  return { rows, pages, dataProcessed, schema: schemaOf(plan), backendTimeMs: deps.now() - started };
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function runExportJob(
  job: PlatformJobRow,
  deps: RunDeps,
  stats: PlatformRunStats,
): Promise<JobOutcome> {
  if (job.options === null) throw new JobFailure("the export's options are missing");
  const options = JSON.parse(job.options) as ExportOptions;
  const started = deps.now();
  const plan = planOf(job);
  const rowEncoder = createRowEncoder(options, plan.plan.columns);
  const files: ExportFile[] = [];
  let rows = 0;
  let text: string[] = [];
  let textBytes = 0;
  const store = async () => {
    const body = encoder.encode(rowEncoder.header + text.join(""));
    const name = `${job.id}-${String(files.length + 1).padStart(3, "0")}.${options.format}${options.compress ? ".gz" : ""}`;
    const stored = options.compress ? await gzip(body) : body;
    const key = `${jobFilesPrefix(job.id)}${name}`;
    await deps.files.put(key, stored, {
      httpMetadata: {
        contentType: options.compress ? "application/gzip" : CONTENT_TYPES[options.format],
        contentDisposition: `attachment; filename="${name}"`,
      },
    });
    files.push({ key, size: stored.byteLength });
    text = [];
    textBytes = 0;
  };
  for await (const batch of results(job, plan, deps, stats)) {
    for (const row of batch) {
      const record = rowEncoder.encode(row);
      const size = encoder.encode(record).byteLength;
      if (textBytes > 0 && textBytes + size > EXPORT_FILE_TEXT_BYTES) await store();
      text.push(record);
      textBytes += size;
      rows += 1;
    }
  }
  // An empty result still gets one file (its header only).
  if (textBytes > 0 || files.length === 0) await store();
  return {
    rows,
    pages: files.length,
    dataProcessed: files.reduce((sum, file) => sum + file.size, 0),
    schema: schemaOf(plan),
    backendTimeMs: deps.now() - started,
    files,
  };
}

/** Deletes every stored page and file of a job. */
export async function deleteJobFiles(bucket: R2Bucket, jobId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: jobFilesPrefix(jobId), ...(cursor ? { cursor } : {}) });
    if (listed.objects.length > 0) await bucket.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}
