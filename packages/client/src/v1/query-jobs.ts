import {
  queryJobSchema,
  queryResultsPageSchema,
  seriesDetailsSchema,
  seriesListSchema,
  type QueryJob,
  type QueryResultsPage,
  type SchemaField,
  type SeriesDetails,
  type SeriesList,
} from "@scangate/core";
import { JobFailedError, JobNotReadyError } from "../errors";
import { waitForJob, type PollDeps, type WaitOptions } from "../job-polling";
import { typeRow, type TypedRow } from "../query-rows";
import type { Transport, WireSchema } from "../transport";

type Signal = { signal?: AbortSignal };

export interface QueryRunOptions extends WaitOptions {
  /** Stop reading result pages once this many rows are in. */
  maxRows?: number;
}

export interface QueryRunResult {
  jobId: string;
  query: string;
  /** The result schema: one entry per column, in order. */
  schema: SchemaField[];
  /** Rows typed by the schema (see `CellValue`). */
  rows: TypedRow[];
  /** Total rows of the result, which is more than `rows.length` when `maxRows` cut it short. */
  totalRows: number;
}

/** Pages of finished jobs hold rows; an unfinished job answers with its status body instead. */
const resultsOrJobSchema: WireSchema<QueryResultsPage | QueryJob> = {
  safeParse: (data) =>
    typeof data === "object" && data !== null && "rows" in data
      ? queryResultsPageSchema.safeParse(data)
      : queryJobSchema.safeParse(data),
};

/** SQL query jobs (`/api/v1/query`) and the series they can read (`/api/v1/query_definitions`). */
export function v1QueryJobs(transport: Transport, deps: PollDeps) {
  /** Starts a job. Never retried after a 5xx or network error: it might have started. */
  function start(sql: string, options: Signal = {}): Promise<QueryJob> {
    return transport.call({
      method: "POST",
      path: "/api/v1/query",
      body: { query: sql },
      schema: queryJobSchema,
      idempotent: false,
      signal: options.signal,
    });
  }

  function status(jobId: string, options: Signal = {}): Promise<QueryJob> {
    return transport.call({
      method: "GET",
      path: `/api/v1/query/${encodeURIComponent(jobId)}`,
      schema: queryJobSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** One page (1-indexed) of a finished job; JobNotReadyError while it runs. */
  async function results(jobId: string, page = 1, options: Signal = {}): Promise<QueryResultsPage> {
    const body = await transport.call({
      method: "GET",
      path: `/api/v1/query/${encodeURIComponent(jobId)}/${page}`,
      schema: resultsOrJobSchema,
      idempotent: true,
      signal: options.signal,
    });
    if ("rows" in body) return body;
    throwIfFailed(body);
    throw new JobNotReadyError(
      `query job ${jobId} is still ${body.status}; wait for it before reading results`,
      {
        status: 200,
        body,
        jobId,
      },
    );
  }

  /** Waits (polling with growing delays) until the job succeeds; JobFailedError if it fails. */
  async function wait(job: string | QueryJob, options: WaitOptions = {}): Promise<QueryJob> {
    const first = typeof job === "string" ? await status(job, options) : job;
    const done = await waitForJob(
      first,
      (signal) => status(first.job_id, signal ? { signal } : {}),
      options,
      deps,
    );
    throwIfFailed(done);
    return done;
  }

  /** Every row of a finished job, typed by its schema, page by page. */
  async function* rows(jobId: string, options: Signal = {}): AsyncGenerator<TypedRow, void, undefined> {
    for (let page = 1; ; page += 1) {
      const body = await results(jobId, page, options);
      for (const row of body.rows) yield typeRow(body.configuration.schema.fields, row);
      if (page >= body.statistics.pages || body.rows.length === 0) return;
    }
  }

  /** Starts `sql`, waits for it, and reads its rows (all, or the first `maxRows`). */
  async function run(sql: string, options: QueryRunOptions = {}): Promise<QueryRunResult> {
    const job = await wait(await start(sql, options), options);
    const typed: TypedRow[] = [];
    let schema: SchemaField[] = [];
    let totalRows = 0;
    for (let page = 1; ; page += 1) {
      const body = await results(job.job_id, page, options);
      schema = body.configuration.schema.fields;
      totalRows = body.statistics.rows;
      for (const row of body.rows) {
        if (options.maxRows !== undefined && typed.length >= options.maxRows) break;
        typed.push(typeRow(schema, row));
      }
      const full = options.maxRows !== undefined && typed.length >= options.maxRows;
      if (full || page >= body.statistics.pages || body.rows.length === 0) break;
    }
    return { jobId: job.job_id, query: job.configuration.query, schema, rows: typed, totalRows };
  }

  /** Series that SQL can read. */
  function series(options: Signal = {}): Promise<SeriesList> {
    return transport.call({
      method: "GET",
      path: "/api/v1/query_definitions",
      schema: seriesListSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** A series' field definitions and its daily tables. */
  function seriesDetails(seriesId: string, options: Signal = {}): Promise<SeriesDetails> {
    return transport.call({
      method: "GET",
      path: `/api/v1/query_definitions/${encodeURIComponent(seriesId)}`,
      schema: seriesDetailsSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  return { start, status, results, wait, rows, run, series, seriesDetails };
}

function throwIfFailed(job: QueryJob): void {
  if (job.status !== "error") return;
  throw new JobFailedError(`query job ${job.job_id} failed: ${job.error_message ?? "no reason given"}`, {
    status: 200,
    body: job,
    jobId: job.job_id,
    jobStatus: job.status,
  });
}
