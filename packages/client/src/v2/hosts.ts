import {
  hostDocumentSchema,
  hostsAggregateResultSchema,
  hostsSearchResultSchema,
  v2Envelope,
  type HostDocument,
  type HostHit,
  type HostsAggregateResult,
  type HostsSearchResult,
} from "@scangate/core";
import type { Transport } from "../transport";

// v2 success bodies come wrapped in `{code, status, result}`; the client hands back `result`.
const searchEnvelope = v2Envelope(hostsSearchResultSchema);
const aggregateEnvelope = v2Envelope(hostsAggregateResultSchema);
const hostEnvelope = v2Envelope(hostDocumentSchema);

export interface HostsSearchPageOptions {
  /** Hits per page, 0..100; the service default is 50. */
  perPage?: number;
  /** Extra fields of each hit, in dot notation. */
  fields?: string[];
  /** A `links.next` or `links.prev` value of an earlier page made with the same query. */
  cursor?: string;
  signal?: AbortSignal;
}

export interface HostsSearchOptions extends HostsSearchPageOptions {
  /** Follow `links.next` (default) or walk backwards along `links.prev` from `cursor`. */
  direction?: "next" | "prev";
  /** Stop after this many pages. */
  maxPages?: number;
  /** Stop after this many hits (search only). */
  maxResults?: number;
}

export interface AggregateOptions {
  q?: string;
  /** Buckets, at least 1; the service default is 50. */
  numBuckets?: number;
  signal?: AbortSignal;
}

export interface HostViewOptions {
  /** The host as it was at this instant: a Date, or an RFC 3339 string (nanoseconds allowed). */
  atTime?: Date | string;
  signal?: AbortSignal;
}

/** v2 hosts: cursor search, aggregate, and view. */
export function v2Hosts(transport: Transport) {
  /** One page of hits with the cursors (`links.prev`, `links.next`; `""` at either end). */
  async function searchPage(
    q: string | undefined,
    options: HostsSearchPageOptions = {},
  ): Promise<HostsSearchResult> {
    const body = await transport.call({
      method: "GET",
      path: "/api/v2/hosts/search",
      query: { q, per_page: options.perPage, cursor: options.cursor, fields: options.fields },
      schema: searchEnvelope,
      idempotent: true,
      signal: options.signal,
    });
    return body.result;
  }

  /**
   * Pages in turn along the cursors, until the link in `direction` is empty. A cursor that
   * repeats ends the walk too, so a misbehaving server cannot make it loop.
   */
  async function* searchPages(
    q: string | undefined,
    options: HostsSearchOptions = {},
  ): AsyncGenerator<HostsSearchResult, void, undefined> {
    const direction = options.direction ?? "next";
    const seen = new Set<string>();
    let cursor = options.cursor;
    for (let pages = 1; ; pages += 1) {
      const page = await searchPage(q, { ...options, ...(cursor === undefined ? {} : { cursor }) });
      yield page;
      if (cursor !== undefined) seen.add(cursor);
      cursor = page.links[direction];
      const end = cursor === "" || seen.has(cursor) || page.hits.length === 0;
      if (end || (options.maxPages !== undefined && pages >= options.maxPages)) return;
    }
  }

  /** Every hit of every page, one at a time; stops early at `maxResults`. */
  async function* search(
    q?: string,
    options: HostsSearchOptions = {},
  ): AsyncGenerator<HostHit, void, undefined> {
    if (options.maxResults !== undefined && options.maxResults <= 0) return;
    let count = 0;
    for await (const page of searchPages(q, options)) {
      for (const hit of page.hits) {
        yield hit;
        count += 1;
        if (options.maxResults !== undefined && count >= options.maxResults) return;
      }
    }
  }

  /** Hosts matching `q` bucketed by `field` (bucket keys are strings). */
  async function aggregate(field: string, options: AggregateOptions = {}): Promise<HostsAggregateResult> {
    const body = await transport.call({
      method: "GET",
      path: "/api/v2/hosts/aggregate",
      query: { field, q: options.q, num_buckets: options.numBuckets },
      schema: aggregateEnvelope,
      idempotent: true,
      signal: options.signal,
    });
    return body.result;
  }

  /** One host with its services, now or at `atTime`. */
  async function view(ip: string, options: HostViewOptions = {}): Promise<HostDocument> {
    const atTime = options.atTime instanceof Date ? options.atTime.toISOString() : options.atTime;
    const body = await transport.call({
      method: "GET",
      path: `/api/v2/hosts/${encodeURIComponent(ip)}`,
      query: { at_time: atTime },
      schema: hostEnvelope,
      idempotent: true,
      signal: options.signal,
    });
    return body.result;
  }

  return { search, searchPages, searchPage, aggregate, view };
}
