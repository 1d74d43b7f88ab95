import {
  CREDIT_COSTS,
  type CreditOperation,
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
import { inBothModes, type Price } from "../../pipeline/price";
import { forwardPlatform } from "./passthrough";

// The Platform operations the edge forwards without caching, one definition each: method, path,
// its entry of core's cost table (the price a tenant is charged), and its shapes. Whatever the
// Platform serves beyond these is forwarded too (`otherPlatformRoutes`), at the price most
// Platform actions have.

/** The price of a cost table entry: per call, or per asset answered. */
export function priceOf(operation: CreditOperation): Price {
  const cost = CREDIT_COSTS[operation];
  return { credits: cost.credits, per: cost.per === "asset" ? "asset" : "request" };
}

function forwarded(
  spec: Pick<RouteSpec, "method" | "path" | "summary" | "query"> & {
    operation: CreditOperation;
    body?: Component;
    ok: Component | "file";
    idsField?: string;
  },
): ApiRoute {
  const { idsField, ...shape } = spec;
  return defineRoute({
    ...shape,
    api: "v3",
    price: inBothModes(priceOf(spec.operation)),
    handler: forwardPlatform(idsField === undefined ? {} : { idsField }),
  });
}

const CREDIT_USAGE = component("V3CreditUsageResponse", v3Envelope(v3CreditUsageReportSchema));

export const FORWARDED_PLATFORM_ROUTES: readonly ApiRoute[] = [
  forwarded({
    method: "GET",
    path: "/v3/global/asset/host/:host_id/timeline",
    operation: "v3_host_timeline",
    summary: "A host's timeline of changes",
    query: v3HostTimelineQuerySchema,
    ok: component("V3HostTimelineResponse", v3Envelope(v3HostTimelineSchema)),
  }),
  forwarded({
    method: "POST",
    path: "/v3/global/asset/certificate/raw",
    operation: "v3_certificates_raw",
    summary: "Several certificates as PEM (charged per certificate answered)",
    body: component("V3CertificateListInput", v3CertificateListInputSchema),
    ok: component("V3RawCertificatesResponse", v3Envelope(z.array(v3RawCertificateSchema))),
    idsField: "certificate_ids",
  }),
  forwarded({
    method: "POST",
    path: "/v3/global/search/query",
    operation: "v3_search_query",
    summary: "Search hosts, certificates and web properties (CenQL), a page at a time",
    body: component("V3SearchQueryInput", v3SearchQueryInputSchema),
    ok: component("V3SearchQueryResponse", v3Envelope(v3SearchQueryResponseSchema)),
  }),
  forwarded({
    method: "POST",
    path: "/v3/global/search/aggregate",
    operation: "v3_search_aggregate",
    summary: "Count the values of a field over a query's hits",
    body: component("V3SearchAggregateInput", v3SearchAggregateInputSchema),
    ok: component("V3SearchAggregateResponse", v3Envelope(v3SearchAggregateResponseSchema)),
  }),
  forwarded({
    method: "POST",
    path: "/v3/global/search/convert",
    operation: "v3_search_convert",
    summary: "Convert legacy search queries to CenQL",
    body: component("V3SearchConvertInput", v3SearchConvertInputSchema),
    ok: component("V3SearchConvertResponse", v3Envelope(v3SearchConvertResponseSchema)),
  }),
  forwarded({
    method: "GET",
    path: "/v3/accounts/organizations/:organization_id/members/:member_id/credits/usage",
    operation: "v3_member_credit_usage",
    summary: "A member's credit usage (the pool's organization)",
    query: v3CreditUsageQuerySchema,
    ok: CREDIT_USAGE,
  }),
  forwarded({
    method: "GET",
    path: "/v3/accounts/organizations/:organization_id/credits/usage",
    operation: "v3_organization_credit_usage",
    summary: "The organization's credit usage (the pool's organization)",
    query: v3CreditUsageQuerySchema,
    ok: CREDIT_USAGE,
  }),
  forwarded({
    method: "GET",
    path: "/v3/accounts/organizations/:organization_id/credits",
    operation: "v3_organization_credits",
    summary: "The organization's credit balance (the team's shared balance)",
    ok: component("V3OrganizationCreditsResponse", v3Envelope(v3OrganizationCreditsSchema)),
  }),
  forwarded({
    method: "GET",
    path: "/v3/accounts/organizations/:organization_id",
    operation: "v3_organization",
    summary: "The organization's details (the pool's organization)",
    query: v3OrganizationDetailsQuerySchema,
    ok: component("V3OrganizationDetailsResponse", v3Envelope(v3OrganizationDetailsSchema)),
  }),
];

/**
 * Any other Platform read or search: forwarded as it is, at one credit (most Platform actions'
 * price). Other methods are the 405 of a path the edge does not know them on.
 */
export const OTHER_PLATFORM_OPERATION = "v3_other";

const OTHER_PRICE = inBothModes({ credits: 1, per: "request" });
const ANY_JSON = component("V3Answer", z.unknown());

export const OTHER_PLATFORM_ROUTES: readonly ApiRoute[] = (["GET", "POST"] as const).map((method) =>
  defineRoute({
    method,
    path: "/v3/*",
    operation: OTHER_PLATFORM_OPERATION,
    api: "v3",
    price: OTHER_PRICE,
    summary: "Any other Platform API operation, forwarded with the pool's token and organization",
    ok: ANY_JSON,
    handler: forwardPlatform(),
  }),
);
