import {
  bulkBodySchema,
  legacyCertificate,
  projectLegacyFields,
  searchBodySchema,
  V1_SEARCH_PAGE_SIZE,
  v3SearchQueryResponseSchema,
  type V3SearchQueryResponse,
} from "@scangate/core";
import { convertLegacyQuery } from "@scangate/search";
import { UNKNOWN_CERTIFICATE_ENTRY } from "../cache/bulk-merge";
import type { UpstreamCall } from "./interface";
import { legacyError, legacyJson, type PlatformSession } from "./legacy-session";

// v1 certificates (view, bulk, search) translated to the Platform's certificate asset, its raw
// (PEM) form, and global search.

/** The v1 search's default fields for certificates. */
const DEFAULT_FIELDS = ["parsed.fingerprint_sha256", "parsed.subject_dn", "parsed.issuer_dn"];
/**
 * How deep a v1 page number may go: the Platform pages by token, so page N costs N searches.
 * Deeper pages are refused with a 400 that says to narrow the query.
 */
export const V1_SEARCH_PAGE_MAX = 10;

/** Every certificate: `*` (and the empty query) mean all, which CenQL says with a field. */
const ALL_CERTIFICATES = "cert.fingerprint_sha256: *";

export function certificateQuery(query: string): string {
  if (query.trim() === "*") return ALL_CERTIFICATES;
  const converted = convertLegacyQuery(query, "v1", "certificates");
  if (!converted.ok) {
    const { message, position, token } = converted.error;
    throw legacyError("invalid_query", "v1", `query could not be parsed: ${message}`, { position, token });
  }
  return converted.value;
}

function jsonBody(call: UpstreamCall): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(call.body ?? new Uint8Array()));
  } catch {
    throw legacyError("bad_request", "v1", "request body must be JSON");
  }
}

const issueText = (issues: readonly { path: PropertyKey[]; message: string }[]) => {
  const issue = issues[0];
  return issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : undefined;
};

/** GET /v1/view/certificates/{sha256} ← the certificate asset and its PEM. */
export async function translateCertificateView(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const id = url.pathname.slice("/v1/view/certificates/".length);
  const [asset, raw] = await Promise.all([
    session.result("GET", `/v3/global/asset/certificate/${id}`, undefined, "v1"),
    session.send("GET", `/v3/global/asset/certificate/${id}/raw`),
  ]);
  const pem = raw.status === 200 ? raw.text : undefined;
  return legacyJson(legacyCertificate((asset as { resource?: unknown }).resource, pem));
}

/**
 * POST /v1/bulk/certificates ← the certificate assets and their PEMs, one call each: every
 * requested fingerprint keyed as asked, the unknown ones as the legacy unknown entry.
 */
export async function translateCertificateBulk(call: UpstreamCall, _url: URL, session: PlatformSession) {
  const parsed = bulkBodySchema.safeParse(jsonBody(call));
  if (!parsed.success) throw legacyError("bad_request", "v1", issueText(parsed.error.issues));
  const requested = parsed.data.fingerprints;
  const ids = [...new Set(requested.map((fp) => fp.toLowerCase()))];
  const [assets, raws] = await Promise.all([
    session.result("POST", "/v3/global/asset/certificate", { certificate_ids: ids }, "v1"),
    session.result("POST", "/v3/global/asset/certificate/raw", { certificate_ids: ids }, "v1"),
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
    documents.set(id, legacyCertificate(resource, pems.get(id)));
  }
  const answer: Record<string, unknown> = {};
  for (const fingerprint of requested) {
    answer[fingerprint] = documents.get(fingerprint.toLowerCase()) ?? UNKNOWN_CERTIFICATE_ENTRY;
  }
  return legacyJson(answer);
}

/**
 * POST /v1/search/certificates ← POST /v3/global/search/query on certificates. v1 pages are
 * numbered (100 results each); the Platform's are tokens, so page N follows N-1 tokens.
 */
export async function translateCertificateSearch(call: UpstreamCall, _url: URL, session: PlatformSession) {
  const parsed = searchBodySchema.safeParse(jsonBody(call));
  if (!parsed.success) throw legacyError("bad_request", "v1", issueText(parsed.error.issues));
  const { query, page = 1, fields, flatten } = parsed.data;
  if (page > V1_SEARCH_PAGE_MAX) {
    throw legacyError(
      "bad_request",
      "v1",
      `page ${page} is beyond the ${V1_SEARCH_PAGE_MAX} pages this gateway translates for a Platform upstream; narrow the query`,
    );
  }
  const cenql = certificateQuery(query);
  let result: V3SearchQueryResponse | undefined;
  let token: string | undefined;
  for (let at = 1; at <= page; at++) {
    const body = { query: cenql, page_size: V1_SEARCH_PAGE_SIZE, ...(token ? { page_token: token } : {}) };
    const read = v3SearchQueryResponseSchema.safeParse(
      await session.result("POST", "/v3/global/search/query", body, "v1", "invalid_query"),
    );
    if (!read.success)
      throw legacyError(
        "upstream_error",
        "v1",
        "the Platform upstream answered a search page we cannot read",
      );
    result = read.data;
    token = result.next_page_token;
    // Past the last page: the page asked for is empty.
    if (at < page && token === "") {
      result = { ...result, hits: [] };
      break;
    }
  }
  if (!result) throw legacyError("upstream_error", "v1");
  const picked = fields && fields.length > 0 ? fields : DEFAULT_FIELDS;
  const results = result.hits.flatMap((hit) =>
    hit.certificate_v1
      ? [projectLegacyFields(legacyCertificate(hit.certificate_v1.resource, undefined), picked, flatten)]
      : [],
  );
  const count = result.total_hits;
  return legacyJson({
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
