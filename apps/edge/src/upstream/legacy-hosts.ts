import {
  hostsAggregateQuerySchema,
  hostsSearchQuerySchema,
  legacyHost,
  legacyHostHit,
  projectLegacyFields,
  v3SearchAggregateResponseSchema,
  v3SearchQueryResponseSchema,
} from "@scangate/core";
import { fromBase64Url, toBase64Url } from "@scangate/core/http";
import { convertLegacyQuery } from "@scangate/search";
import type { UpstreamCall } from "./interface";
import { legacyError, type PlatformSession, v2Ok } from "./legacy-session";

// v2 hosts (view, search, aggregate) translated to the Platform's host asset and global search.

/** Every host: the Platform's search needs a query, the legacy empty one means all. */
const ALL_HOSTS = "host.ip: *";

/** A legacy v2 hosts query as CenQL; one that does not parse is the legacy 422 with where it failed. */
export function hostQuery(q: string | undefined): string {
  if (q === undefined || q.trim() === "") return ALL_HOSTS;
  const converted = convertLegacyQuery(q, "v2", "hosts");
  if (!converted.ok) {
    const { message, position, token } = converted.error;
    throw legacyError("invalid_query", "v2", undefined, { detail: message, position, token });
  }
  return converted.value;
}

/** A legacy v2 field name (`services.port`) as its CenQL field (`host.services.port`). */
export function hostField(field: string): string {
  const converted = /^[\w.]+$/.test(field) ? convertLegacyQuery(`${field}: *`, "v2", "hosts") : null;
  const name = converted?.ok ? /^([\w.]+): \*$/.exec(converted.value)?.[1] : undefined;
  if (!name)
    throw legacyError("bad_request", "v2", `field ${JSON.stringify(field)} has no Platform equivalent`);
  return name;
}

/** Query parameters as the legacy schemas read them (a repeated name is a list). */
function paramsOf(url: URL): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    params[key] = values.length === 1 ? (values[0] ?? "") : values;
  }
  return params;
}

function invalidParams(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const issue = issues[0];
  return legacyError(
    "bad_request",
    "v2",
    issue ? `${issue.path.join(".") || "query"}: ${issue.message}` : undefined,
  );
}

/** GET /v2/hosts/{ip}[?at_time=...] ← GET /v3/global/asset/host/{ip}[?at_time=...]. */
export async function translateHostView(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const ip = url.pathname.slice("/v2/hosts/".length);
  const atTime = url.searchParams.get("at_time");
  const target = `/v3/global/asset/host/${ip}${atTime === null ? "" : `?at_time=${encodeURIComponent(atTime)}`}`;
  const asset = (await session.result("GET", target, undefined, "v2", "invalid_query")) as {
    resource?: unknown;
  };
  return v2Ok(legacyHost(asset.resource));
}

/** A legacy cursor: the Platform's page token, bound to the query and page size it pages. */
interface Cursor {
  readonly token: string;
  readonly q: string;
  readonly perPage: number;
}

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify([cursor.token, cursor.q, cursor.perPage])));
}

export function decodeCursor(text: string): Cursor | null {
  const bytes = fromBase64Url(text);
  if (!bytes) return null;
  try {
    const [token, q, perPage] = JSON.parse(new TextDecoder().decode(bytes)) as unknown[];
    return typeof token === "string" && typeof q === "string" && typeof perPage === "number"
      ? { token, q, perPage }
      : null;
  } catch {
    return null;
  }
}

/** GET /v2/hosts/search ← POST /v3/global/search/query (host hits; page tokens as cursors). */
export async function translateHostsSearch(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const parsed = hostsSearchQuerySchema.safeParse(paramsOf(url));
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  const { q = "", per_page: perPage, cursor: cursorText, fields } = parsed.data;
  let pageToken: string | undefined;
  if (cursorText) {
    const cursor = decodeCursor(cursorText);
    if (!cursor) throw legacyError("bad_request", "v2", "cursor is not valid");
    if (cursor.q !== q || cursor.perPage !== perPage) {
      throw legacyError(
        "bad_request",
        "v2",
        "cursor belongs to another query or page size; send the same q and per_page",
      );
    }
    pageToken = cursor.token;
  }
  const query = hostQuery(q);
  // per_page 0 asks for the total alone: the Platform's smallest page is one hit.
  const body = { query, page_size: Math.max(1, perPage), ...(pageToken ? { page_token: pageToken } : {}) };
  const result = v3SearchQueryResponseSchema.safeParse(
    await session.result("POST", "/v3/global/search/query", body, "v2", "invalid_query"),
  );
  if (!result.success)
    throw legacyError("upstream_error", "v2", "the Platform upstream answered a search page we cannot read");
  const page = result.data;
  const hosts = perPage === 0 ? [] : page.hits.flatMap((hit) => (hit.host_v1 ? [hit.host_v1.resource] : []));
  const link = (token: string) => (perPage === 0 || token === "" ? "" : encodeCursor({ token, q, perPage }));
  return v2Ok({
    query: q,
    total: page.total_hits,
    hits: hosts.map((host) => {
      if (!fields || fields.length === 0) return legacyHostHit(host);
      const document = legacyHost(host);
      return { ip: document.ip, ...projectLegacyFields(document, fields, false) };
    }),
    links: { prev: link(page.previous_page_token), next: link(page.next_page_token) },
  });
}

/** GET /v2/hosts/aggregate ← POST /v3/global/search/aggregate. */
export async function translateHostsAggregate(_call: UpstreamCall, url: URL, session: PlatformSession) {
  const parsed = hostsAggregateQuerySchema.safeParse(paramsOf(url));
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  const { q = "", field, num_buckets: buckets } = parsed.data;
  const body = { query: hostQuery(q), field: hostField(field), number_of_buckets: buckets };
  const result = v3SearchAggregateResponseSchema.safeParse(
    await session.result("POST", "/v3/global/search/aggregate", body, "v2", "invalid_query"),
  );
  if (!result.success)
    throw legacyError("upstream_error", "v2", "the Platform upstream answered an aggregate we cannot read");
  const aggregate = result.data;
  return v2Ok({
    query: q,
    field,
    total: aggregate.total_count,
    total_omitted: aggregate.other_count,
    potential_deviation: 0,
    buckets: aggregate.buckets.map(({ key, count }) => ({ key, count })),
  });
}
