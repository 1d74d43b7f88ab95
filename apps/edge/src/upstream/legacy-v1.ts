import {
  bulkBodySchema,
  bulkLookupIds,
  legacyCertificate,
  legacyIpv4,
  legacyWebsite,
  projectLegacyFields,
  reportBodySchema,
  searchBodySchema,
  V1_SEARCH_PAGE_SIZE,
  type V3SearchQueryHit,
} from "@scangate/core";
import { convertLegacyQuery, convertLegacyReportField } from "@scangate/search";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../cache/bulk-merge";
import type { V1Paging } from "./interface";
import { legacyError, type LegacyCall, type PlatformSession, v1Body } from "./legacy-session";

// The v1 indexes (ipv4, websites, certificates) searched and reported from the Platform's global
// search and aggregate; ipv4 and websites documents viewed from the host asset and the web
// properties of a name, certificates (view, bulk) from the certificate asset and its raw (PEM)
// form. Documents are reshaped by core's v3/legacy-*.ts.

/**
 * The most Platform searches one v1 page may walk: the Platform pages by token, so page N
 * costs a search for every page from where its walk starts (v1WalkStart) up to N. A page
 * further than that is refused with a 400 that says to page in order or narrow the query.
 */
export const V1_SEARCH_PAGE_MAX = 10;

/** Where the walk to a v1 page starts: a page, and the token that starts it (none for the first). */
export interface V1WalkStart {
  readonly page: number;
  readonly token: string | null;
}

/**
 * Where the walk to `page` starts: the highest of the V1_SEARCH_PAGE_MAX pages up to it whose
 * token an earlier request of the same tenant and query kept (pipeline/page-tokens.ts), else
 * the first page. A kept page further down would need a longer walk than is allowed, so at most
 * that many keys are read, concurrently, however deep the page asked.
 */
export async function v1WalkStart(page: number, paging: V1Paging | undefined): Promise<V1WalkStart> {
  const lowest = Math.max(2, page - V1_SEARCH_PAGE_MAX + 1);
  const pages = Array.from({ length: Math.max(0, page - lowest + 1) }, (_, i) => page - i);
  const tokens = paging ? await Promise.all(pages.map((p) => paging.tokenOf(p))) : [];
  for (const [i, token] of tokens.entries()) if (token !== null) return { page: page - i, token };
  return { page: 1, token: null };
}

/** The Platform searches the walk to `page` from `start` makes, at most (fewer if the results end). */
export function v1WalkSearches(page: number, start: V1WalkStart): number {
  return page - start.page + 1;
}

type V1Index = "ipv4" | "websites" | "certificates";

interface IndexTranslation {
  /** The index as `@scangate/search` names it. */
  readonly converted: "hosts" | "websites" | "certificates";
  /** Every document: `*` (v1's "all") in CenQL, which says it with a field. */
  readonly all: string;
  readonly defaultFields: readonly string[];
  /** A search hit as the v1 document, or null when the hit is of another kind. */
  readonly document: (hit: V3SearchQueryHit, now: number) => unknown;
}

const INDEXES: Readonly<Record<V1Index, IndexTranslation>> = {
  ipv4: {
    converted: "hosts",
    all: "host.ip: *",
    defaultFields: ["ip", "protocols"],
    document: (hit) => (hit.host_v1 ? legacyIpv4(hit.host_v1.resource) : null),
  },
  websites: {
    converted: "websites",
    all: "web.hostname: *",
    defaultFields: ["domain"],
    // A web property is one name at one port: one result each.
    document: (hit) => {
      const resource = hit.webproperty_v1?.resource as { hostname?: unknown } | undefined;
      return typeof resource?.hostname === "string" ? legacyWebsite(resource.hostname, [resource]) : null;
    },
  },
  certificates: {
    converted: "certificates",
    all: "cert.fingerprint_sha256: *",
    defaultFields: ["parsed.fingerprint_sha256", "parsed.subject_dn", "parsed.issuer_dn"],
    document: (hit, now) =>
      hit.certificate_v1 ? legacyCertificate(hit.certificate_v1.resource, undefined, { now }) : null,
  },
};

function indexOf(name: string): IndexTranslation {
  if (name === "ipv4" || name === "websites" || name === "certificates") return INDEXES[name];
  throw legacyError("not_found", "v1", `no index ${JSON.stringify(name)} (ipv4, websites, certificates)`);
}

/** A v1 query as CenQL; one that does not parse or convert is the v1 400 that says where. */
function v1Query(query: string, index: IndexTranslation): string {
  if (query.trim() === "*") return index.all;
  const converted = convertLegacyQuery(query, "v1", index.converted);
  if (!converted.ok) {
    const { message, position, token } = converted.error;
    throw legacyError("invalid_query", "v1", `query could not be parsed: ${message}`, { position, token });
  }
  return converted.value;
}

async function searchPage(session: PlatformSession, query: string, token: string | null) {
  return session.search({ query, page_size: V1_SEARCH_PAGE_SIZE }, token, "invalid_query");
}

/**
 * POST /v1/search/{index} ← POST /v3/global/search/query. v1 pages are numbered (100 results
 * each), the Platform's are tokens: page N starts from the nearest page below it whose token an
 * earlier page of the same query left (`call.paging`), else from the first page, and follows
 * the tokens from there, keeping each.
 */
export async function translateV1Search({ session, id: name, call }: LegacyCall) {
  const index = indexOf(name);
  const { query, page = 1, fields, flatten } = v1Body(searchBodySchema, call);
  const cenql = v1Query(query, index);
  const paging = call.paging;
  const start = await v1WalkStart(page, paging);
  if (v1WalkSearches(page, start) > V1_SEARCH_PAGE_MAX) {
    throw legacyError(
      "bad_request",
      "v1",
      `page ${page} is more than ${V1_SEARCH_PAGE_MAX} pages past the start and past every page of this query read lately: on a Platform upstream this gateway walks to a page, ${V1_SEARCH_PAGE_MAX} pages at most; ask the pages in order (each keeps the way to the next) or narrow the query`,
    );
  }
  let at = start.page;
  let result = await searchPage(session, cenql, start.token);
  for (;;) {
    const next = result.next_page_token;
    if (next !== "") paging?.keep(at + 1, next);
    if (at === page) break;
    // Past the last page: the page asked for is empty.
    if (next === "") {
      result = { ...result, hits: [] };
      break;
    }
    result = await searchPage(session, cenql, next);
    at += 1;
  }
  const picked = fields && fields.length > 0 ? fields : index.defaultFields;
  const now = session.now();
  const results = result.hits.flatMap((hit) => {
    const document = index.document(hit, now);
    return document === null ? [] : [projectLegacyFields(document, picked, flatten)];
  });
  const count = result.total_hits;
  return Response.json({
    status: "ok",
    metadata: {
      count,
      query,
      backend_time: result.query_duration_millis,
      page,
      pages: Math.ceil(count / V1_SEARCH_PAGE_SIZE),
    },
    results,
  });
}

/**
 * POST /v1/report/{index} ← POST /v3/global/search/aggregate: the field converted by
 * `@scangate/search` (a per-port field counts only that port's values), `count` the query's
 * hits, `nonnull_count` what the buckets and the rest hold, at most `count`: the Platform counts
 * a document once per value, so a field of several values (ports) would count some twice.
 */
export async function translateV1Report({ session, id: name, call }: LegacyCall) {
  const index = indexOf(name);
  const { query, field, buckets } = v1Body(reportBodySchema, call);
  const cenql = v1Query(query, index);
  const breakdown = convertLegacyReportField(field, index.converted);
  if (!breakdown.ok) throw legacyError("bad_request", "v1", breakdown.error.message);
  const { condition, countByLevel, filterByQuery, legacyKey } = breakdown.value;
  const body = {
    query: condition === null ? cenql : `(${cenql}) and ${condition}`,
    field: breakdown.value.field,
    number_of_buckets: buckets,
    ...(countByLevel === "" ? {} : { count_by_level: countByLevel }),
    ...(filterByQuery ? { filter_by_query: true } : {}),
  };
  const aggregate = await session.aggregate(body, "invalid_query");
  const results = aggregate.buckets.map(({ key, count }) => ({ key: legacyKey(key), doc_count: count }));
  const listed = results.reduce((sum, bucket) => sum + bucket.doc_count, 0);
  return Response.json({
    status: "ok",
    results,
    metadata: {
      count: aggregate.total_count,
      backend_time: aggregate.query_duration_millis,
      nonnull_count: Math.min(listed + aggregate.other_count, aggregate.total_count),
      other_result_count: aggregate.other_count,
      buckets: results.length,
      error_bound: 0,
      query,
    },
  });
}

/** GET /v1/view/ipv4/{ip} ← GET /v3/global/asset/host/{ip}. */
export async function translateIpv4View({ session, id: ip }: LegacyCall) {
  return Response.json(legacyIpv4(await session.host(ip, undefined)));
}

/**
 * GET /v1/view/websites/{domain} ← the web properties of that name, one search (a name is on
 * at most a handful of ports). The host at its address is not read: it would be a second
 * credit per view, so the website's place is left out (README).
 */
export async function translateWebsiteView({ session, id: name }: LegacyCall) {
  const domain = decodeURIComponent(name).toLowerCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(domain)) throw legacyError("not_found", "v1");
  const page = await searchPage(session, `web.hostname = "${domain}"`, null);
  const properties = page.hits.flatMap((hit) => (hit.webproperty_v1 ? [hit.webproperty_v1.resource] : []));
  if (properties.length === 0) throw legacyError("not_found", "v1");
  return Response.json(legacyWebsite(domain, properties));
}

/** GET /v1/view/certificates/{sha256} ← the certificate asset and its PEM. */
export async function translateCertificateView({ session, id }: LegacyCall) {
  const [asset, raw] = await Promise.all([
    session.result("GET", `/v3/global/asset/certificate/${id}`),
    session.send("GET", `/v3/global/asset/certificate/${id}/raw`),
  ]);
  const pem = raw.status === 200 ? raw.text : undefined;
  return Response.json(
    legacyCertificate((asset as { resource?: unknown }).resource, pem, { now: session.now() }),
  );
}

/**
 * POST /v1/bulk/certificates ← the certificate assets and their PEMs, one call each: every
 * requested fingerprint keyed as asked, the unknown ones as the legacy unknown entry. Strings
 * that are not SHA-256 fingerprints are unknown without asking: the Platform refuses a whole
 * call for one bad certificate id.
 */
export async function translateCertificateBulk({ session, call }: LegacyCall) {
  const requested = v1Body(bulkBodySchema, call).fingerprints;
  const ids = bulkLookupIds(requested);
  const [assets, raws] =
    ids.length === 0
      ? [[], []]
      : await Promise.all([
          session.result("POST", "/v3/global/asset/certificate", { certificate_ids: ids }),
          session.result("POST", "/v3/global/asset/certificate/raw", { certificate_ids: ids }),
        ]);
  const pems = new Map<string, string>();
  for (const entry of Array.isArray(raws) ? raws : []) {
    const { certificate_id: id, pem } = entry as { certificate_id?: unknown; pem?: unknown };
    if (typeof id === "string" && typeof pem === "string") pems.set(id.toLowerCase(), pem);
  }
  const documents = new Map<string, unknown>();
  for (const asset of Array.isArray(assets) ? assets : []) {
    const resource = (asset as { resource?: { fingerprint_sha256?: unknown } }).resource;
    const fingerprint = resource?.fingerprint_sha256;
    if (typeof fingerprint !== "string") continue;
    const id = fingerprint.toLowerCase();
    documents.set(id, legacyCertificate(resource, pems.get(id), { now: session.now() }));
  }
  const entry = (fingerprint: string) =>
    documents.get(fingerprint.toLowerCase()) ?? UNKNOWN_CERTIFICATE_ENTRY;
  return Response.json(Object.fromEntries(requested.map((fingerprint) => [fingerprint, entry(fingerprint)])));
}
