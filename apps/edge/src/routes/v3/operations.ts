import {
  ApiError,
  CREDIT_COSTS,
  type CreditOperation,
  creditsFor,
  V3_OPERATIONS,
  type V3Operation,
  v3CertificateListInputSchema,
  v3CreditUsageQuerySchema,
  v3CreditUsageReportSchema,
  v3Envelope,
  v3HostTimelineQuerySchema,
  v3HostTimelineSchema,
  v3OrganizationCreditsSchema,
  v3OrganizationDetailsQuerySchema,
  v3OrganizationDetailsSchema,
  v3RawCertificateSchema,
  v3SearchAggregateInputSchema,
  v3SearchAggregateResponseSchema,
  v3SearchConvertInputSchema,
  v3SearchConvertResponseSchema,
  v3SearchQueryInputSchema,
  v3SearchQueryResponseSchema,
} from "@scangate/core";
import { z } from "zod";
import { type Component, component } from "../../openapi/components";
import { type ApiRoute, defineRoute, type RouteSpec } from "../../pipeline/define-route";
import { ALWAYS_FREE, inBothModes, type Price } from "../../pipeline/price";
import { jsonObject } from "../../http/json-body";
import { censeyeTargetOf, type ForwardOptions, forwardPlatform } from "./passthrough";

// Every operation of the Platform SDK (core's V3_OPERATIONS) the edge does not cache is
// forwarded without caching, one route each: method, path, its entry of core's cost table (the
// price a tenant is charged). The ones whose shapes core describes say so in /openapi.json.
// Whatever the Platform serves beyond these is forwarded too (`OTHER_PLATFORM_ROUTES`), at the
// price most Platform actions have.

/** The price of a cost table entry, and how a request's units are counted (passthrough.ts). */
function priceOf(operation: CreditOperation): Price {
  const { credits, per } = CREDIT_COSTS[operation];
  // A CensEye job costs its target kind's credits: counted one credit at a time.
  if (per === "target") return { credits: 1, per: "credit" };
  return { credits, per: per === "call" ? "request" : per };
}

/** How the units of a request priced per condition or per credit are read off its body. */
function unitsOf(operation: CreditOperation): ForwardOptions["units"] {
  if (CREDIT_COSTS[operation].per === "condition") {
    return (body) => {
      const conditions = jsonObject(body)?.and_count_conditions;
      return Array.isArray(conditions) ? conditions.length : 1;
    };
  }
  if (CREDIT_COSTS[operation].per === "target") {
    return (body) => creditsFor(operation, { target: censeyeTargetOf(body) });
  }
  return undefined;
}

const CREDIT_USAGE = component("V3CreditUsageResponse", v3Envelope(v3CreditUsageReportSchema));
const ANY_JSON = component("V3Answer", z.unknown());

/** The shapes core describes, by operation (the others are any JSON). */
const SHAPES: Partial<
  Record<CreditOperation, Pick<RouteSpec, "query"> & { body?: Component; ok: Component }>
> = {
  v3_host_timeline: {
    query: v3HostTimelineQuerySchema,
    ok: component("V3HostTimelineResponse", v3Envelope(v3HostTimelineSchema)),
  },
  v3_certificates_raw: {
    body: component("V3CertificateListInput", v3CertificateListInputSchema),
    ok: component("V3RawCertificatesResponse", v3Envelope(z.array(v3RawCertificateSchema))),
  },
  v3_search_query: {
    body: component("V3SearchQueryInput", v3SearchQueryInputSchema),
    ok: component("V3SearchQueryResponse", v3Envelope(v3SearchQueryResponseSchema)),
  },
  v3_search_aggregate: {
    body: component("V3SearchAggregateInput", v3SearchAggregateInputSchema),
    ok: component("V3SearchAggregateResponse", v3Envelope(v3SearchAggregateResponseSchema)),
  },
  v3_search_convert: {
    body: component("V3SearchConvertInput", v3SearchConvertInputSchema),
    ok: component("V3SearchConvertResponse", v3Envelope(v3SearchConvertResponseSchema)),
  },
  v3_member_credit_usage: { query: v3CreditUsageQuerySchema, ok: CREDIT_USAGE },
  v3_organization_credit_usage: { query: v3CreditUsageQuerySchema, ok: CREDIT_USAGE },
  v3_organization_credits: {
    ok: component("V3OrganizationCreditsResponse", v3Envelope(v3OrganizationCreditsSchema)),
  },
  v3_organization: {
    query: v3OrganizationDetailsQuerySchema,
    ok: component("V3OrganizationDetailsResponse", v3Envelope(v3OrganizationDetailsSchema)),
  },
};

/**
 * The organization's membership is for its administrators to change, on the Platform itself. The
 * pool's token is the team's shared key: an invitation or a role sent with it would give someone
 * the organization's credits outside every tenant's budget. So the edge refuses these, for nothing,
 * and any write under /v3/accounts the SDK does not name (`OTHER_PLATFORM_ROUTES`).
 */
const MEMBERSHIP_CHANGES: ReadonlySet<string> = new Set([
  "v3_organization_invite",
  "v3_organization_member_update",
  "v3_organization_member_remove",
]);

function accountAdministration(): never {
  throw new ApiError(
    "forbidden",
    "the organization's members and settings are changed by its administrators on the Censys Platform, not through scangate",
  );
}

function forwarded(row: V3Operation): ApiRoute {
  const shape =
    SHAPES[row.operation] ??
    (row.method === "GET" || row.method === "DELETE" ? { ok: ANY_JSON } : { body: ANY_JSON, ok: ANY_JSON });
  const refused = MEMBERSHIP_CHANGES.has(row.operation);
  return defineRoute({
    method: row.method,
    path: row.path.replace(/\{([a-z_]+)\}/g, ":$1"),
    operation: row.operation,
    summary: refused
      ? `${row.sdk} (the Platform SDK's): refused with 403, for the organization's administrators to do on the Platform`
      : `${row.sdk} (the Platform SDK's), forwarded`,
    ...shape,
    ok: row.status === 204 ? "empty" : shape.ok,
    ...(row.status === 201 ? { created: true } : {}),
    price: refused ? ALWAYS_FREE : inBothModes(priceOf(row.operation)),
    handler: refused
      ? accountAdministration
      : forwardPlatform({
          // The one forwarded route priced per asset answered (the others are the cached bulks).
          ids: row.operation === "v3_certificates_raw" ? { field: "certificate_ids", in: "body" } : undefined,
          units: unitsOf(row.operation),
        }),
  });
}

/**
 * The SDK's operations the edge forwards: every row of V3_OPERATIONS but those the cached
 * routes answer (`cached`: their operations).
 */
export function forwardedPlatformRoutes(cached: ReadonlySet<string>): readonly ApiRoute[] {
  return V3_OPERATIONS.filter((row) => !cached.has(row.operation)).map(forwarded);
}

/**
 * Any other Platform read or search: forwarded as it is, at one credit (most Platform actions'
 * price), but a write under /v3/accounts, refused as membership changes are. Other methods are
 * the 405 of a path the edge does not know them on.
 */
export const OTHER_PLATFORM_ROUTES: readonly ApiRoute[] = (["GET", "POST"] as const).map((method) => {
  const forward = forwardPlatform();
  return defineRoute({
    method,
    path: "/v3/*",
    operation: "v3_other",
    price: inBothModes({ credits: 1, per: "request" }),
    summary: "Any other Platform API operation, forwarded with the pool's token and organization",
    ok: ANY_JSON,
    handler:
      method === "GET"
        ? forward
        : (c) => (c.req.path.startsWith("/v3/accounts/") ? accountAdministration() : forward(c)),
  });
});
