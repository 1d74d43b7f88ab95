import {
  reportResponseSchema,
  searchResponseSchema,
  type ReportResponse,
  type SearchResponse,
  type V1Index,
} from "@scangate/core";
import type { Transport } from "../transport";

export interface SearchOptions {
  /** Fields to return, in dot notation; the index's default set when absent. */
  fields?: string[];
  /** Nested fields as `a.b` keys (true, the service default) or as nested objects. */
  flatten?: boolean;
  /** One-indexed page; the first when absent. */
  page?: number;
  signal?: AbortSignal;
}

export interface SearchAllOptions extends Omit<SearchOptions, "page"> {
  /** Page to start from; default 1. */
  startPage?: number;
  /** Stop after this many pages. */
  maxPages?: number;
  /** Stop after this many results (searchAll only). */
  maxResults?: number;
}

export interface ReportOptions {
  /** Number of buckets, 1..500; the service default is 50. */
  buckets?: number;
  signal?: AbortSignal;
}

/** v1 search (`POST /api/v1/search/:index`) page by page, and report. */
export function v1Search(transport: Transport) {
  /** One page of results. */
  function search(index: V1Index, query: string, options: SearchOptions = {}): Promise<SearchResponse> {
    return transport.call({
      method: "POST",
      path: `/api/v1/search/${encodeURIComponent(index)}`,
      body: { query, page: options.page, fields: options.fields, flatten: options.flatten },
      schema: searchResponseSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** Every page in turn, until `metadata.pages` (or `maxPages`). */
  async function* searchPages(
    index: V1Index,
    query: string,
    options: SearchAllOptions = {},
  ): AsyncGenerator<SearchResponse, void, undefined> {
    let page = options.startPage ?? 1;
    for (let seen = 1; ; seen += 1, page += 1) {
      const response = await search(index, query, { ...options, page });
      yield response;
      const last = page >= response.metadata.pages || response.results.length === 0;
      if (last || (options.maxPages !== undefined && seen >= options.maxPages)) return;
    }
  }

  /** Every result of every page, one at a time; stops early at `maxResults`. */
  async function* searchAll(
    index: V1Index,
    query: string,
    options: SearchAllOptions = {},
  ): AsyncGenerator<Record<string, unknown>, void, undefined> {
    if (options.maxResults !== undefined && options.maxResults <= 0) return;
    let count = 0;
    for await (const page of searchPages(index, query, options)) {
      for (const result of page.results) {
        yield result;
        count += 1;
        if (options.maxResults !== undefined && count >= options.maxResults) return;
      }
    }
  }

  /** Breakdown of `field` over the results of `query` (`POST /api/v1/report/:index`). */
  function report(
    index: V1Index,
    query: string,
    field: string,
    options: ReportOptions = {},
  ): Promise<ReportResponse> {
    return transport.call({
      method: "POST",
      path: `/api/v1/report/${encodeURIComponent(index)}`,
      body: { query, field, buckets: options.buckets },
      schema: reportResponseSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  return { search, searchPages, searchAll, report };
}
