import {
  v3AtTimeQuerySchema,
  v3CertificateAssetSchema,
  v3CertificateListInputSchema,
  v3CreditUsageQuerySchema,
  v3CreditUsageReportSchema,
  v3Envelope,
  v3HostAssetSchema,
  v3HostListInputSchema,
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
  v3WebpropertyAssetSchema,
  v3WebpropertyListInputSchema,
} from "@scangate/core";
import { z } from "zod";
import { type FuzzRoute, jsonSchemaOf } from "../../../origin/test/support/fuzz";

// The Platform API (/v3) as a tenant calls it through the edge, for the fuzz suite: each route
// of the official SDKs the origin serves (apps/origin/src/routes/v3), with core's request and
// answer schemas. The edge answers them from its document cache or by forwarding; either way
// the answer is the route's success shape or a problem+json.

const param = (...names: string[]) =>
  jsonSchemaOf(z.object(Object.fromEntries(names.map((name) => [name, z.string()]))));

const route = (
  method: "GET" | "POST",
  path: string,
  operation: string,
  parts: Pick<FuzzRoute, "params" | "query" | "body" | "ok" | "unread">,
): FuzzRoute => ({ method, path, operation, version: "v3", auth: "platform", ...parts });

export const PLATFORM_FUZZ_ROUTES: readonly FuzzRoute[] = [
  route("GET", "/v3/global/asset/host/:host_id", "v3_host", {
    params: param("host_id"),
    query: jsonSchemaOf(v3AtTimeQuerySchema),
    ok: v3Envelope(v3HostAssetSchema),
  }),
  route("POST", "/v3/global/asset/host", "v3_hosts", {
    body: jsonSchemaOf(v3HostListInputSchema),
    ok: v3Envelope(z.array(v3HostAssetSchema)),
  }),
  route("GET", "/v3/global/asset/host/:host_id/timeline", "v3_host_timeline", {
    params: param("host_id"),
    query: jsonSchemaOf(v3HostTimelineQuerySchema),
    ok: v3Envelope(v3HostTimelineSchema),
  }),
  route("GET", "/v3/global/asset/certificate/:certificate_id", "v3_certificate", {
    params: param("certificate_id"),
    ok: v3Envelope(v3CertificateAssetSchema),
  }),
  route("GET", "/v3/global/asset/certificate/:certificate_id/raw", "v3_certificate_raw", {
    params: param("certificate_id"),
    ok: "file",
  }),
  route("POST", "/v3/global/asset/certificate", "v3_certificates", {
    body: jsonSchemaOf(v3CertificateListInputSchema),
    ok: v3Envelope(z.array(v3CertificateAssetSchema)),
  }),
  route("POST", "/v3/global/asset/certificate/raw", "v3_certificates_raw", {
    body: jsonSchemaOf(v3CertificateListInputSchema),
    ok: v3Envelope(z.array(v3RawCertificateSchema)),
  }),
  route("GET", "/v3/global/asset/webproperty/:webproperty_id", "v3_webproperty", {
    params: param("webproperty_id"),
    query: jsonSchemaOf(v3AtTimeQuerySchema),
    ok: v3Envelope(v3WebpropertyAssetSchema),
  }),
  route("POST", "/v3/global/asset/webproperty", "v3_webproperties", {
    body: jsonSchemaOf(v3WebpropertyListInputSchema),
    ok: v3Envelope(z.array(v3WebpropertyAssetSchema)),
  }),
  route("POST", "/v3/global/search/query", "v3_search_query", {
    body: jsonSchemaOf(v3SearchQueryInputSchema),
    ok: v3Envelope(v3SearchQueryResponseSchema),
  }),
  route("POST", "/v3/global/search/aggregate", "v3_search_aggregate", {
    body: jsonSchemaOf(v3SearchAggregateInputSchema),
    ok: v3Envelope(v3SearchAggregateResponseSchema),
  }),
  route("POST", "/v3/global/search/convert", "v3_search_convert", {
    body: jsonSchemaOf(v3SearchConvertInputSchema),
    ok: v3Envelope(v3SearchConvertResponseSchema),
  }),
  route("GET", "/v3/accounts/organizations/:organization_id", "v3_organization", {
    params: param("organization_id"),
    unread: ["organization_id"],
    query: jsonSchemaOf(v3OrganizationDetailsQuerySchema),
    ok: v3Envelope(v3OrganizationDetailsSchema),
  }),
  route("GET", "/v3/accounts/organizations/:organization_id/credits", "v3_organization_credits", {
    params: param("organization_id"),
    unread: ["organization_id"],
    ok: v3Envelope(v3OrganizationCreditsSchema),
  }),
  route("GET", "/v3/accounts/organizations/:organization_id/credits/usage", "v3_organization_credit_usage", {
    params: param("organization_id"),
    unread: ["organization_id"],
    query: jsonSchemaOf(v3CreditUsageQuerySchema),
    ok: v3Envelope(v3CreditUsageReportSchema),
  }),
  route(
    "GET",
    "/v3/accounts/organizations/:organization_id/members/:user_id/credits/usage",
    "v3_member_credit_usage",
    {
      params: param("organization_id", "user_id"),
      unread: ["organization_id"],
      query: jsonSchemaOf(v3CreditUsageQuerySchema),
      ok: v3Envelope(v3CreditUsageReportSchema),
    },
  ),
];
