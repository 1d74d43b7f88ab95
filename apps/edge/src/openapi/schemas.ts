import {
  accountSchema,
  auditListQuerySchema,
  auditListSchema,
  bulkBodySchema,
  bulkResponseSchema,
  cachePurgeResultSchema,
  certificateDocumentSchema,
  exportJobSchema,
  exportStartBodySchema,
  hostDocumentSchema,
  hostsAggregateQuerySchema,
  hostsAggregateResultSchema,
  hostsSearchQuerySchema,
  hostsSearchResultSchema,
  hostViewQuerySchema,
  ipv4DocumentSchema,
  queryJobSchema,
  queryJobStartBodySchema,
  queryResultsPageSchema,
  rawResultDetailsSchema,
  rawSeriesDetailsSchema,
  rawSeriesListSchema,
  reportBodySchema,
  reportResponseSchema,
  searchBodySchema,
  searchResponseSchema,
  seriesDetailsSchema,
  seriesListSchema,
  tenantCreateBodySchema,
  tenantListSchema,
  tenantPatchBodySchema,
  tenantRotateBodySchema,
  tenantSchema,
  tenantWithSecretSchema,
  usageListQuerySchema,
  usageListSchema,
  v1ErrorSchema,
  v1RateLimitErrorSchema,
  v1UnauthorizedErrorSchema,
  v2Envelope,
  v2ErrorSchema,
  v2RateLimitErrorSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import { z } from "zod";

/**
 * The wire schemas /openapi.json names, all from @scangate/core (the one source of truth).
 * The key is the component name in the document.
 */
export const COMPONENT_SCHEMAS = {
  SearchBody: searchBodySchema,
  SearchResponse: searchResponseSchema,
  ReportBody: reportBodySchema,
  ReportResponse: reportResponseSchema,
  V1Document: z.union([ipv4DocumentSchema, websiteDocumentSchema, certificateDocumentSchema]),
  BulkBody: bulkBodySchema,
  BulkResponse: bulkResponseSchema,
  Account: accountSchema,
  QueryJobStartBody: queryJobStartBodySchema,
  QueryJob: queryJobSchema,
  QueryResultsPage: queryResultsPageSchema,
  SeriesList: seriesListSchema,
  SeriesDetails: seriesDetailsSchema,
  RawSeriesList: rawSeriesListSchema,
  RawSeriesDetails: rawSeriesDetailsSchema,
  RawResultDetails: rawResultDetailsSchema,
  ExportStartBody: exportStartBodySchema,
  ExportJob: exportJobSchema,
  HostsAggregateResponse: v2Envelope(hostsAggregateResultSchema),
  HostsSearchResponse: v2Envelope(hostsSearchResultSchema),
  HostResponse: v2Envelope(hostDocumentSchema),
  V1Error: v1ErrorSchema,
  V1Unauthorized: v1UnauthorizedErrorSchema,
  V1RateLimited: v1RateLimitErrorSchema,
  V2Error: v2ErrorSchema,
  V2RateLimited: v2RateLimitErrorSchema,
  TenantCreateBody: tenantCreateBodySchema,
  TenantPatchBody: tenantPatchBodySchema,
  TenantRotateBody: tenantRotateBodySchema,
  Tenant: tenantSchema,
  TenantWithSecret: tenantWithSecretSchema,
  TenantList: tenantListSchema,
  AuditList: auditListSchema,
  UsageList: usageListSchema,
  CachePurgeResult: cachePurgeResultSchema,
} as const;
export type ComponentName = keyof typeof COMPONENT_SCHEMAS;

/** Query-parameter objects, turned into `in: query` parameters. */
export const QUERY_SCHEMAS = {
  hostsAggregate: hostsAggregateQuerySchema,
  hostsSearch: hostsSearchQuerySchema,
  hostView: hostViewQuerySchema,
  auditList: auditListQuerySchema,
  usageList: usageListQuerySchema,
} as const;
export type QuerySchemaName = keyof typeof QUERY_SCHEMAS;

/** A reference to the component `name` (the document lists each component once). */
export function componentRef(name: ComponentName): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of what a client sends or receives. */
export function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const converted = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete converted.$schema;
  return converted;
}
