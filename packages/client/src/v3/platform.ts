import {
  V3_BULK_IDS_MAX,
  V3_MEDIA_TYPES,
  v3CertificateAssetSchema,
  v3CreditUsageReportSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3HostTimelineSchema,
  v3OrganizationCreditsSchema,
  v3OrganizationDetailsSchema,
  v3SearchAggregateResponseSchema,
  v3SearchConvertResponseSchema,
  v3SearchQueryResponseSchema,
  v3WebpropertyAssetSchema,
  type V3CertificateAsset,
  type V3CreditUsageReport,
  type V3Granularity,
  type V3HostAsset,
  type V3HostTimeline,
  type V3OrganizationCredits,
  type V3OrganizationDetails,
  type V3SearchAggregateResponse,
  type V3SearchConvertResult,
  type V3SearchQueryHit,
  type V3SearchQueryResponse,
  type V3WebpropertyAsset,
} from "@scangate/core";
import { mapWithConcurrency } from "../bounded-concurrency";
import { chunk, uniqueInOrder } from "../bulk-chunks";
import type { QueryValue, Transport, WireSchema } from "../transport";

// The Censys Platform API (v3), as the official SDK (`censys-platform`) sends it: paths from the
// service root (`/v3/...`), the bearer token set on the transport, `organization_id` as a query
// parameter of global data calls (and in the path of account calls), the vendor media type of
// each asset in `Accept`. Success bodies are `{result}`; the client hands back `result`.

const hostEnvelope = v3Envelope(v3HostAssetSchema);
const hostsEnvelope = v3Envelope(v3HostAssetSchema.array());
const timelineEnvelope = v3Envelope(v3HostTimelineSchema);
const certificateEnvelope = v3Envelope(v3CertificateAssetSchema);
const certificatesEnvelope = v3Envelope(v3CertificateAssetSchema.array());
const webpropertyEnvelope = v3Envelope(v3WebpropertyAssetSchema);
const webpropertiesEnvelope = v3Envelope(v3WebpropertyAssetSchema.array());
const searchEnvelope = v3Envelope(v3SearchQueryResponseSchema);
const aggregateEnvelope = v3Envelope(v3SearchAggregateResponseSchema);
const convertEnvelope = v3Envelope(v3SearchConvertResponseSchema);
const organizationEnvelope = v3Envelope(v3OrganizationDetailsSchema);
const creditsEnvelope = v3Envelope(v3OrganizationCreditsSchema);
const usageEnvelope = v3Envelope(v3CreditUsageReportSchema);

export interface PlatformCallOptions {
  signal?: AbortSignal;
}

export interface PlatformAtTimeOptions extends PlatformCallOptions {
  /** The asset as it was at this instant: a Date, or an RFC 3339 string. */
  atTime?: Date | string;
}

export interface PlatformBulkOptions extends PlatformCallOptions {
  /** Requests of 100 ids in flight at once; default 4. */
  concurrency?: number;
}

export interface PlatformSearchPageOptions extends PlatformCallOptions {
  /** Fields of each hit to return (CenQL field names); all by default. */
  fields?: string[];
  /** Hits per page, 1..100 (the Platform's default and maximum is 100). */
  pageSize?: number;
  /** A `next_page_token` of an earlier page of the same query. */
  pageToken?: string;
}

export interface PlatformSearchOptions extends PlatformSearchPageOptions {
  /** Stop after this many pages (each page is a credit). */
  maxPages?: number;
  /** Stop after this many hits (search only). */
  maxResults?: number;
}

export interface PlatformAggregateOptions extends PlatformCallOptions {
  /** CenQL restricting what is counted; all records by default. */
  query?: string;
  /** Buckets to return; default 50. */
  numberOfBuckets?: number;
  /** The document level counted per bucket (e.g. `host.services`). */
  countByLevel?: string;
  /** Count only the values that themselves match the query. */
  filterByQuery?: boolean;
}

export interface PlatformAccountOptions extends PlatformCallOptions {
  /** The organization, when the client was made without one (or to ask about another). */
  organizationId?: string;
}

export interface CreditUsageOptions extends PlatformAccountOptions {
  /** Report periods: days or calendar months (default `monthly`). */
  granularity?: V3Granularity;
  /** First day, `YYYY-MM-DD` (default: the first of this month). */
  startDate?: string;
  /** Last day, `YYYY-MM-DD` (default: today). */
  endDate?: string;
  /** Add what each member spent. */
  includeConsumerBreakdown?: boolean;
}

export const DEFAULT_AGGREGATE_BUCKETS = 50;
export const DEFAULT_PLATFORM_BULK_CONCURRENCY = 4;

/** The Platform API's operations over `transport` (which carries the bearer token). */
export function v3Platform(transport: Transport, organizationId: string | undefined) {
  const orgQuery = (): Record<string, QueryValue> =>
    organizationId === undefined ? {} : { organization_id: organizationId };
  const atTimeText = (atTime: Date | string | undefined) =>
    atTime instanceof Date ? atTime.toISOString() : atTime;

  function get<T>(
    path: string,
    schema: WireSchema<{ result: T }>,
    accept: string,
    query: Record<string, QueryValue>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return transport
      .call({ method: "GET", path, query, schema, accept, idempotent: true, signal })
      .then((body) => body.result);
  }

  /** A POST that reads (lookups and searches): safe to send twice, so retried like a GET. */
  function post<T>(
    path: string,
    body: unknown,
    schema: WireSchema<{ result: T }>,
    accept: string,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return transport
      .call({ method: "POST", path, query: orgQuery(), body, schema, accept, idempotent: true, signal })
      .then((answer) => answer.result);
  }

  /**
   * Ids once each in first-seen order, sent 100 at a time with bounded concurrency; the assets
   * found come back in the order asked (unknown ids are left out, as the Platform does).
   */
  async function bulk<T>(
    ids: Iterable<string>,
    options: PlatformBulkOptions,
    send: (part: string[], signal: AbortSignal) => Promise<T[]>,
  ): Promise<T[]> {
    const parts = chunk(uniqueInOrder(ids), V3_BULK_IDS_MAX);
    const answers = await mapWithConcurrency(
      parts,
      options.concurrency ?? DEFAULT_PLATFORM_BULK_CONCURRENCY,
      (part, _index, signal) => send(part, signal),
      options.signal,
    );
    return answers.flat();
  }

  function organizationPath(options: PlatformAccountOptions, rest = ""): string {
    const id = options.organizationId ?? organizationId;
    if (id === undefined || id === "") {
      throw new TypeError(
        "account calls name an organization: pass organizationId to the client or the call",
      );
    }
    return `/v3/accounts/organizations/${encodeURIComponent(id)}${rest}`;
  }

  const hosts = {
    /** One host (an IP address) with its services, now or at `atTime`. */
    view(hostId: string, options: PlatformAtTimeOptions = {}): Promise<V3HostAsset> {
      return get(
        `/v3/global/asset/host/${encodeURIComponent(hostId)}`,
        hostEnvelope,
        V3_MEDIA_TYPES.host,
        { at_time: atTimeText(options.atTime), ...orgQuery() },
        options.signal,
      );
    },
    /** Hosts by IP address, any number (100 per request); those found, in the order asked. */
    bulk(
      hostIds: Iterable<string>,
      options: PlatformBulkOptions & { atTime?: Date | string } = {},
    ): Promise<V3HostAsset[]> {
      const atTime = atTimeText(options.atTime);
      return bulk(hostIds, options, (part, signal) =>
        post(
          "/v3/global/asset/host",
          { host_ids: part, ...(atTime === undefined ? {} : { at_time: atTime }) },
          hostsEnvelope,
          V3_MEDIA_TYPES.host,
          signal,
        ),
      );
    },
    /** What changed on a host between `endTime` (earlier) and `startTime` (later). */
    timeline(
      hostId: string,
      options: PlatformCallOptions & { startTime: Date | string; endTime: Date | string },
    ): Promise<V3HostTimeline> {
      return get(
        `/v3/global/asset/host/${encodeURIComponent(hostId)}/timeline`,
        timelineEnvelope,
        V3_MEDIA_TYPES.hostTimeline,
        { start_time: atTimeText(options.startTime), end_time: atTimeText(options.endTime), ...orgQuery() },
        options.signal,
      );
    },
  };

  const certificates = {
    /** One certificate by SHA-256 fingerprint. */
    view(certificateId: string, options: PlatformCallOptions = {}): Promise<V3CertificateAsset> {
      return get(
        `/v3/global/asset/certificate/${encodeURIComponent(certificateId)}`,
        certificateEnvelope,
        V3_MEDIA_TYPES.certificate,
        orgQuery(),
        options.signal,
      );
    },
    /** Certificates by fingerprint, any number (100 per request); those found, in the order asked. */
    bulk(certificateIds: Iterable<string>, options: PlatformBulkOptions = {}): Promise<V3CertificateAsset[]> {
      return bulk(certificateIds, options, (part, signal) =>
        post(
          "/v3/global/asset/certificate",
          { certificate_ids: part },
          certificatesEnvelope,
          V3_MEDIA_TYPES.certificate,
          signal,
        ),
      );
    },
  };

  const webproperties = {
    /** One web property, `hostname:port` (e.g. `example.com:443`), now or at `atTime`. */
    view(webpropertyId: string, options: PlatformAtTimeOptions = {}): Promise<V3WebpropertyAsset> {
      return get(
        `/v3/global/asset/webproperty/${encodeURIComponent(webpropertyId)}`,
        webpropertyEnvelope,
        V3_MEDIA_TYPES.webproperty,
        { at_time: atTimeText(options.atTime), ...orgQuery() },
        options.signal,
      );
    },
    /** Web properties by id, any number (100 per request); those found, in the order asked. */
    bulk(
      webpropertyIds: Iterable<string>,
      options: PlatformBulkOptions & { atTime?: Date | string } = {},
    ): Promise<V3WebpropertyAsset[]> {
      const atTime = atTimeText(options.atTime);
      return bulk(webpropertyIds, options, (part, signal) =>
        post(
          "/v3/global/asset/webproperty",
          { webproperty_ids: part, ...(atTime === undefined ? {} : { at_time: atTime }) },
          webpropertiesEnvelope,
          V3_MEDIA_TYPES.webproperty,
          signal,
        ),
      );
    },
  };

  /** One page of a CenQL search, with `next_page_token` (`""` on the last page). */
  function searchPage(
    query: string,
    options: PlatformSearchPageOptions = {},
  ): Promise<V3SearchQueryResponse> {
    return post(
      "/v3/global/search/query",
      {
        query,
        ...(options.fields === undefined ? {} : { fields: options.fields }),
        ...(options.pageSize === undefined ? {} : { page_size: options.pageSize }),
        ...(options.pageToken === undefined || options.pageToken === ""
          ? {}
          : { page_token: options.pageToken }),
      },
      searchEnvelope,
      V3_MEDIA_TYPES.json,
      options.signal,
    );
  }

  /**
   * Pages in turn along `next_page_token` until it is empty (or `maxPages`). A token that
   * repeats ends the walk too, so a misbehaving server cannot make it loop.
   */
  async function* searchPages(
    query: string,
    options: PlatformSearchOptions = {},
  ): AsyncGenerator<V3SearchQueryResponse, void, undefined> {
    const seen = new Set<string>();
    let pageToken = options.pageToken;
    for (let pages = 1; ; pages += 1) {
      const page = await searchPage(query, { ...options, ...(pageToken === undefined ? {} : { pageToken }) });
      yield page;
      if (pageToken !== undefined) seen.add(pageToken);
      pageToken = page.next_page_token;
      const end = pageToken === "" || seen.has(pageToken) || page.hits.length === 0;
      if (end || (options.maxPages !== undefined && pages >= options.maxPages)) return;
    }
  }

  /** Every hit of every page, one at a time; stops early at `maxResults` or `maxPages`. */
  async function* search(
    query: string,
    options: PlatformSearchOptions = {},
  ): AsyncGenerator<V3SearchQueryHit, void, undefined> {
    if (options.maxResults !== undefined && options.maxResults <= 0) return;
    let count = 0;
    for await (const page of searchPages(query, options)) {
      for (const hit of page.hits) {
        yield hit;
        count += 1;
        if (options.maxResults !== undefined && count >= options.maxResults) return;
      }
    }
  }

  /** Records matching `query` bucketed by `field` (bucket keys are strings). */
  function aggregate(
    field: string,
    options: PlatformAggregateOptions = {},
  ): Promise<V3SearchAggregateResponse> {
    return post(
      "/v3/global/search/aggregate",
      {
        query: options.query ?? "",
        field,
        number_of_buckets: options.numberOfBuckets ?? DEFAULT_AGGREGATE_BUCKETS,
        ...(options.countByLevel === undefined ? {} : { count_by_level: options.countByLevel }),
        ...(options.filterByQuery === undefined ? {} : { filter_by_query: options.filterByQuery }),
      },
      aggregateEnvelope,
      V3_MEDIA_TYPES.json,
      options.signal,
    );
  }

  /** Legacy (v1/v2) search queries converted to CenQL, one result per query in order. */
  function convert(queries: string[], options: PlatformCallOptions = {}): Promise<V3SearchConvertResult[]> {
    return post(
      "/v3/global/search/convert",
      { queries },
      convertEnvelope,
      V3_MEDIA_TYPES.json,
      options.signal,
    );
  }

  const accounts = {
    /** The organization (member counts on request). Free. */
    organization(
      options: PlatformAccountOptions & { includeMemberCounts?: boolean } = {},
    ): Promise<V3OrganizationDetails> {
      return get(
        organizationPath(options),
        organizationEnvelope,
        V3_MEDIA_TYPES.json,
        { include_member_counts: options.includeMemberCounts },
        options.signal,
      );
    },
    /** The organization's credit balance and its grants. Free. */
    credits(options: PlatformAccountOptions = {}): Promise<V3OrganizationCredits> {
      return get(
        organizationPath(options, "/credits"),
        creditsEnvelope,
        V3_MEDIA_TYPES.json,
        {},
        options.signal,
      );
    },
    /** The organization's credit usage per day or month. Free. */
    creditUsage(options: CreditUsageOptions = {}): Promise<V3CreditUsageReport> {
      return get(
        organizationPath(options, "/credits/usage"),
        usageEnvelope,
        V3_MEDIA_TYPES.json,
        usageQuery(options),
        options.signal,
      );
    },
    /** One member's credit usage per day or month. Free. */
    memberCreditUsage(userId: string, options: CreditUsageOptions = {}): Promise<V3CreditUsageReport> {
      return get(
        organizationPath(options, `/members/${encodeURIComponent(userId)}/credits/usage`),
        usageEnvelope,
        V3_MEDIA_TYPES.json,
        usageQuery(options),
        options.signal,
      );
    },
  };

  return {
    hosts,
    certificates,
    webproperties,
    search,
    searchPages,
    searchPage,
    aggregate,
    convert,
    accounts,
  };
}

function usageQuery(options: CreditUsageOptions): Record<string, QueryValue> {
  return {
    granularity: options.granularity ?? "monthly",
    start_date: options.startDate,
    end_date: options.endDate,
    include_consumer_breakdown: options.includeConsumerBreakdown,
  };
}

export type PlatformApi = ReturnType<typeof v3Platform>;
