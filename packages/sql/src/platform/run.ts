import {
  V3_AGGREGATE_BUCKETS_MAX,
  V3_PAGE_SIZE_MAX,
  type V3SearchAggregateInput,
  type V3SearchAggregateResponse,
  type V3SearchQueryInput,
  type V3SearchQueryResponse,
} from "@scangate/core";
import { runPlan, type ResultBatch, type RunOptions } from "../execute";
import { SqlRunError } from "../run-error";
import type { FieldDef, RowSource, ScanRequest, SourceRow } from "../source";
import { parseTimestamp } from "../values";
import { bucketRow } from "./buckets";
import type { PlatformField } from "./fields";
import type { PlatformAnswer, PlatformPlan } from "./plan";
import { flushWebsites, hitRows } from "./rows";

/**
 * Runs a Platform plan: the calls its answer needs, through `search` (the caller's client of
 * the Platform's global search), then the engine over the rows they give. Every call made is
 * recorded in `stats` as it is made, so a job that fails still knows what it spent.
 */

export interface PlatformSearch {
  query(input: V3SearchQueryInput): Promise<V3SearchQueryResponse>;
  aggregate(input: V3SearchAggregateInput): Promise<V3SearchAggregateResponse>;
}

export type PlatformOperation = "v3_search_query" | "v3_search_aggregate";

export interface PlatformRunStats {
  /**
   * Each Platform call that answered, in order: each costs its operation's credits. One the
   * Platform refused (a 400) or that failed is not billed, and is not here.
   */
  calls: PlatformOperation[];
  /** Pages of search hits read. */
  pages: number;
  /** Series rows built from them. */
  rowsRead: number;
}

export function newPlatformRunStats(): PlatformRunStats {
  return { calls: [], pages: 0, rowsRead: 0 };
}

class Calls {
  constructor(
    private readonly search: PlatformSearch,
    readonly stats: PlatformRunStats,
  ) {}

  async query(input: V3SearchQueryInput): Promise<V3SearchQueryResponse> {
    const page = await this.search.query(input);
    this.stats.calls.push("v3_search_query");
    return page;
  }

  async aggregate(input: V3SearchAggregateInput): Promise<V3SearchAggregateResponse> {
    const aggregate = await this.search.aggregate(input);
    this.stats.calls.push("v3_search_aggregate");
    return aggregate;
  }

  async total(query: string): Promise<number> {
    return (await this.query({ query, page_size: 1 })).total_hits;
  }
}

/** Pages of hits as series rows, at most `maxPages` of them. */
function searchSource(plan: PlatformPlan, calls: Calls, maxPages: number): RowSource {
  const definitions = plan.catalog.definitions;
  const pending = new Map<string, unknown[]>();
  let flushed: SourceRow[] | null = null;
  return {
    async scan(request: ScanRequest) {
      const after = request.after;
      if (after?.startsWith("rows:")) {
        // Websites read whole, handed out a batch at a time.
        const offset = Number(after.slice(5));
        const rows = (flushed ?? []).slice(offset, offset + request.batchRows);
        const end = offset + rows.length;
        return { rows, next: end < (flushed?.length ?? 0) ? `rows:${end}` : null };
      }
      if (after !== null && calls.stats.pages >= maxPages) {
        throw new SqlRunError(
          `the query needs more pages of Platform search results than its maximum of ${maxPages} (${maxPages * V3_PAGE_SIZE_MAX} documents); it read ${calls.stats.rowsRead} rows. Narrow its WHERE or lower its LIMIT`,
        );
      }
      const response = await calls.query({
        query: plan.query,
        page_size: V3_PAGE_SIZE_MAX,
        ...(after === null ? {} : { page_token: after }),
      });
      calls.stats.pages += 1;
      const next = response.next_page_token === "" ? null : response.next_page_token;
      let rows = hitRows(plan.series, definitions, response.hits, plan.now, pending);
      if (plan.series === "websites") {
        if (next !== null) return { rows: [], next };
        flushed = flushWebsites(definitions, pending);
        calls.stats.rowsRead = flushed.length;
        rows = flushed.slice(0, request.batchRows);
        return { rows, next: rows.length < flushed.length ? `rows:${rows.length}` : null };
      }
      calls.stats.rowsRead += rows.length;
      return { rows, next };
    },
  };
}

/** A bucket's key in the field's type, spelled as the series spells it; null when it is not one. */
function keyValue(field: FieldDef, platform: PlatformField, key: string): unknown {
  switch (field.type) {
    case "STRING":
      return platform.caseless ? platform.caseless.fromPlatform(key) : key;
    case "INTEGER":
    case "FLOAT": {
      const n = Number(key);
      return key.trim() !== "" && Number.isFinite(n) ? n : null;
    }
    case "BOOLEAN":
      return key === "true" || key === "1" ? true : key === "false" || key === "0" ? false : null;
    case "TIMESTAMP": {
      const ms = parseTimestamp(key);
      return ms === null ? null : new Date(ms).toISOString();
    }
  }
}

const sum = (response: V3SearchAggregateResponse) => response.buckets.reduce((n, b) => n + b.count, 0);

/** The bucket rows of an aggregate answer, its NULL group included. */
async function bucketRows(
  plan: PlatformPlan,
  answer: Extract<PlatformAnswer, { kind: "aggregate" }>,
  calls: Calls,
): Promise<SourceRow[]> {
  const { field, platform, filterByQuery, nullGroup } = answer;
  const ask = (name: string) =>
    calls.aggregate({
      query: plan.query,
      field: name,
      number_of_buckets: V3_AGGREGATE_BUCKETS_MAX,
      ...(filterByQuery ? { filter_by_query: true } : {}),
    });
  const response = await ask(platform.cenql);
  if (response.other_count > 0) {
    throw new SqlRunError(
      `GROUP BY ${field.name} has more than ${V3_AGGREGATE_BUCKETS_MAX} groups, more than the Platform's aggregate returns; narrow the WHERE`,
    );
  }
  const rows: SourceRow[] = [];
  for (const bucket of response.buckets) {
    const value = keyValue(field, platform, bucket.key);
    if (value !== null) rows.push(bucketRow(field, value, bucket.count));
  }
  let nulls = 0;
  if (nullGroup.kind === "totals") nulls = response.total_count - sum(response);
  if (nullGroup.kind === "record") {
    const elements = nullGroup.elements === null ? null : await ask(nullGroup.elements);
    if (elements) nulls += sum(elements) + elements.other_count - sum(response);
    nulls += await calls.total(nullGroup.emptyDocuments);
  }
  if (nulls > 0) rows.push(bucketRow(field, null, nulls));
  calls.stats.rowsRead = rows.length;
  return rows;
}

function memorySource(rows: SourceRow[]): RowSource {
  return {
    scan: (request) => {
      const offset = request.after === null ? 0 : Number(request.after);
      const batch = rows.slice(offset, offset + request.batchRows);
      const end = offset + batch.length;
      return Promise.resolve({ rows: batch, next: end < rows.length ? String(end) : null });
    },
  };
}

/** Runs `plan`, yielding batches of output rows (values per `plan.plan.columns`). */
export async function* runPlatformPlan(
  plan: PlatformPlan,
  search: PlatformSearch,
  options: RunOptions,
  stats: PlatformRunStats = newPlatformRunStats(),
): AsyncGenerator<ResultBatch> {
  const calls = new Calls(search, stats);
  const answer = plan.answer;
  switch (answer.kind) {
    case "count":
      yield [[await calls.total(plan.query)]];
      return;
    case "aggregate":
      yield* runPlan(answer.buckets, memorySource(await bucketRows(plan, answer, calls)), options);
      return;
    case "rows":
      yield* runPlan(plan.plan, searchSource(plan, calls, answer.maxPages), options);
      return;
  }
}
