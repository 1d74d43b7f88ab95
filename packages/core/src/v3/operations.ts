import type { CreditOperation } from "./credit-costs";
import { V3_MEDIA_TYPES, type V3MediaType } from "./media-types";

/**
 * Every operation of the official Platform TypeScript SDK (censys/censys-sdk-typescript 0.12.5,
 * one per file of `src/funcs`), written once: what the SDK sends (method, path template) and
 * what it accepts back (the success status of its `M.json`/`M.nil`/`M.stream` matcher and that
 * matcher's content type, and the statuses its `M.jsonErr(..., ErrorModel)` matchers read as
 * problem documents). The origin registers its v3 routes from this table, the tests walk it,
 * and `operation` names the row of CREDIT_COSTS that prices a call.
 */
export type V3Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface V3Operation {
  /** The SDK's function (`src/funcs/<sdk>.ts`). */
  readonly sdk: string;
  /** The SDK's `operationID`. */
  readonly operationId: string;
  readonly method: V3Method;
  /** The SDK's path template; `{name}` parameters are percent-encoded by the SDK. */
  readonly path: string;
  /** The row of CREDIT_COSTS that prices it. */
  readonly operation: CreditOperation;
  /** The status of the SDK's success matcher. */
  readonly status: 200 | 201 | 202 | 204;
  /** The success body's media type; null when the SDK reads no body (`M.nil`). */
  readonly mediaType: V3MediaType | null;
  /** The statuses the SDK reads as `ErrorModel` problems (401 is its `AuthenticationError`). */
  readonly problems: readonly number[];
}

const json = V3_MEDIA_TYPES.json;

function op(
  sdk: string,
  operationId: string,
  method: V3Method,
  path: string,
  operation: CreditOperation,
  status: V3Operation["status"],
  mediaType: V3MediaType | null,
  problems: readonly number[],
): V3Operation {
  return { sdk, operationId, method, path, operation, status, mediaType, problems };
}

const ORG = "/v3/accounts/organizations/{organization_id}";
const COLLECTION = "/v3/collections/{collection_uid}";
const TAG = "/v3/tags/{tag_id}";
const CENSEYE = "/v3/threat-hunting/censeye/jobs";

// One row per SDK function; kept one line a row so the table reads as one.
// prettier-ignore
export const V3_OPERATIONS: readonly V3Operation[] = [
  // Account management
  op("accountManagementGetOrganizationDetails", "v3-accountmanagement-org-details", "GET", ORG, "v3_organization", 200, json, [403, 404, 422]),
  op("accountManagementGetOrganizationCredits", "v3-accountmanagement-org-credits", "GET", `${ORG}/credits`, "v3_organization_credits", 200, json, [403, 404, 422]),
  op("accountManagementGetOrganizationCreditUsage", "v3-accountmanagement-org-credits-usage", "GET", `${ORG}/credits/usage`, "v3_organization_credit_usage", 200, json, [400, 403, 404, 422]),
  op("accountManagementGetMemberCreditUsage", "v3-accountmanagement-member-credits-usage", "GET", `${ORG}/members/{user_id}/credits/usage`, "v3_member_credit_usage", 200, json, [400, 403, 404, 422]),
  op("accountManagementListOrganizationMembers", "v3-accountmanagement-list-org-members", "GET", `${ORG}/members`, "v3_organization_members", 200, json, [403, 404, 422]),
  op("accountManagementInviteUserToOrganization", "v3-accountmanagement-invite-user-to-org", "POST", `${ORG}/invitations`, "v3_organization_invite", 201, null, [403, 404, 409, 422]),
  op("accountManagementUpdateOrganizationMember", "v3-accountmanagement-update-org-member", "PATCH", `${ORG}/members/{user_id}`, "v3_organization_member_update", 204, null, [400, 403, 404, 409, 422]),
  op("accountManagementRemoveOrganizationMember", "v3-accountmanagement-remove-org-member", "DELETE", `${ORG}/members/{user_id}`, "v3_organization_member_remove", 204, null, [403, 404, 409, 422]),
  op("accountManagementGetUserCredits", "v3-accountmanagement-user-credits", "GET", "/v3/accounts/users/credits", "v3_user_credits", 200, json, [404]),
  op("accountManagementGetUserCreditsUsage", "v3-accountmanagement-user-credits-usage", "GET", "/v3/accounts/users/credits/usage", "v3_user_credit_usage", 200, json, [400, 404]),
  // Collections
  op("collectionsCreate", "v3-collections-crud-create", "POST", "/v3/collections", "v3_collection_create", 200, json, [400, 403, 409, 412, 422]),
  op("collectionsList", "v3-collections-crud-list", "GET", "/v3/collections", "v3_collections", 200, json, [400, 403]),
  op("collectionsGet", "v3-collections-crud-get", "GET", COLLECTION, "v3_collection", 200, json, [400, 403, 404]),
  op("collectionsUpdate", "v3-collections-crud-update", "PUT", COLLECTION, "v3_collection_update", 200, json, [400, 403, 404, 412]),
  op("collectionsDelete", "v3-collections-crud-delete", "DELETE", COLLECTION, "v3_collection_delete", 204, null, [400, 403, 404]),
  op("collectionsListEvents", "v3-collections-list-events", "GET", `${COLLECTION}/events`, "v3_collection_events", 200, json, [400, 403, 404, 422]),
  op("collectionsSearch", "v3-collections-search-query", "POST", `${COLLECTION}/search/query`, "v3_collection_search_query", 200, json, [400, 403, 404, 422]),
  op("collectionsAggregate", "v3-collections-search-aggregate", "POST", `${COLLECTION}/search/aggregate`, "v3_collection_search_aggregate", 200, json, [400, 403, 404, 422]),
  // Global data: assets
  op("globalDataGetHost", "v3-globaldata-asset-host", "GET", "/v3/global/asset/host/{host_id}", "v3_host", 200, V3_MEDIA_TYPES.host, [400, 403, 404]),
  op("globalDataGetHosts", "v3-globaldata-asset-host-list-post", "POST", "/v3/global/asset/host", "v3_hosts", 200, V3_MEDIA_TYPES.host, [400, 403, 404]),
  op("globalDataGetHostTimeline", "v3-globaldata-asset-host-timeline", "GET", "/v3/global/asset/host/{host_id}/timeline", "v3_host_timeline", 200, V3_MEDIA_TYPES.hostTimeline, [400, 403, 404]),
  op("globalDataListServicesOnHost", "v3-globaldata-service-on-host", "GET", "/v3/global/asset/host/{host_id}/observations/services", "v3_host_services", 200, json, [400, 403, 404, 409]),
  op("globalDataGetHostEnrichment", "v3-globaldata-asset-host-enrichment", "GET", "/v3/global/asset/enrichment/host/{host_ip}", "v3_host_enrichment", 200, V3_MEDIA_TYPES.hostEnrichment, [400, 403, 404, 409, 429]),
  op("globalDataGetCertificate", "v3-globaldata-asset-certificate", "GET", "/v3/global/asset/certificate/{certificate_id}", "v3_certificate", 200, V3_MEDIA_TYPES.certificate, [400, 403, 404]),
  op("globalDataGetCertificateRaw", "v3-globaldata-asset-certificate-raw", "GET", "/v3/global/asset/certificate/{certificate_id}/raw", "v3_certificate_raw", 200, V3_MEDIA_TYPES.pem, [400, 403, 404]),
  op("globalDataGetCertificates", "v3-globaldata-asset-certificate-list-post", "POST", "/v3/global/asset/certificate", "v3_certificates", 200, V3_MEDIA_TYPES.certificate, [400, 403, 404]),
  op("globalDataGetCertificatesRaw", "v3-globaldata-asset-certificate-list-raw-post", "POST", "/v3/global/asset/certificate/raw", "v3_certificates_raw", 200, json, [400, 403, 404]),
  op("globalDataGetWebProperty", "v3-globaldata-asset-webproperty", "GET", "/v3/global/asset/webproperty/{webproperty_id}", "v3_webproperty", 200, V3_MEDIA_TYPES.webproperty, [400, 403, 404, 422]),
  op("globalDataGetWebProperties", "v3-globaldata-asset-webproperty-list-post", "POST", "/v3/global/asset/webproperty", "v3_webproperties", 200, V3_MEDIA_TYPES.webproperty, [400, 403, 404]),
  op("globalDataGetWebPropertyTimeline", "v3-globaldata-asset-webproperty-timeline", "GET", "/v3/global/asset/webproperty/{webproperty_id}/timeline", "v3_webproperty_timeline", 200, V3_MEDIA_TYPES.webTimeline, [400, 403, 404, 422]),
  // Global data: DNS
  op("globalDataListDnsIpResolutionBounds", "v3-globaldata-dns-ip-resolution-bound", "GET", "/v3/global/dns/resolutions/ip/{ip}/bounds", "v3_dns_ip_bounds", 200, json, [400, 403, 404, 409]),
  op("globalDataListDnsIpResolutionRanges", "v3-globaldata-dns-ip-resolution-ranges", "GET", "/v3/global/dns/resolutions/ip/{ip}/ranges", "v3_dns_ip_ranges", 200, json, [400, 403, 404, 409]),
  op("globalDataListDnsNameResolutionBounds", "v3-globaldata-dns-name-resolution-bound", "GET", "/v3/global/dns/resolutions/{name}/bounds", "v3_dns_name_bounds", 200, json, [400, 403, 404, 409]),
  op("globalDataListDnsNameResolutionRanges", "v3-globaldata-dns-name-resolution-ranges", "GET", "/v3/global/dns/resolutions/{name}/ranges", "v3_dns_name_ranges", 200, json, [400, 403, 404, 409]),
  // Global data: search
  op("globalDataSearch", "v3-globaldata-search-query", "POST", "/v3/global/search/query", "v3_search_query", 200, json, [400, 403, 422]),
  op("globalDataAggregate", "v3-globaldata-search-aggregate", "POST", "/v3/global/search/aggregate", "v3_search_aggregate", 200, json, [400, 403, 422]),
  op("globalDataConvertLegacySearchQueries", "v3-globaldata-search-convert", "POST", "/v3/global/search/convert", "v3_search_convert", 200, json, [400, 403]),
  // Global data: scans
  op("globalDataCreateTrackedScan", "v3-globaldata-scans-rescan", "POST", "/v3/global/scans/rescan", "v3_scan_rescan", 200, json, [400, 403, 422]),
  op("globalDataGetTrackedScan", "v3-globaldata-scans-get", "GET", "/v3/global/scans/{scan_id}", "v3_scan", 200, V3_MEDIA_TYPES.trackedScan, [400, 403, 404]),
  // Tags, tag assignments and their bulk operations
  op("tagsAndCommentsCreateTag", "v3-tags-create-tag", "POST", "/v3/tags", "v3_tag_create", 201, json, [403, 409, 422]),
  op("tagsAndCommentsListTags", "v3-tags-list-tags", "GET", "/v3/tags", "v3_tags", 200, json, [403, 422]),
  op("tagsAndCommentsGetTag", "v3-tags-get-tag", "GET", TAG, "v3_tag", 200, json, [403, 404, 422]),
  op("tagsAndCommentsUpdateTag", "v3-tags-update-tag", "PUT", TAG, "v3_tag_update", 200, json, [403, 404, 409, 422]),
  op("tagsAndCommentsDeleteTag", "v3-tags-delete-tag", "DELETE", TAG, "v3_tag_delete", 204, null, [403, 404, 422]),
  op("tagsAndCommentsCreateTagAssignment", "v3-tags-create-assignment", "POST", `${TAG}/assignments`, "v3_tag_assignment_create", 201, json, [403, 404, 409, 422]),
  op("tagsAndCommentsListTagAssignments", "v3-tags-list-assignments", "GET", `${TAG}/assignments`, "v3_tag_assignments", 200, json, [403, 404, 422]),
  op("tagsAndCommentsDeleteTagAssignment", "v3-tags-delete-assignment", "DELETE", `${TAG}/assignments/{assignment_id}`, "v3_tag_assignment_delete", 204, null, [403, 404, 422]),
  op("tagsAndCommentsBulkCreateTagAssignments", "v3-tags-bulk-create-assignments", "POST", `${TAG}/assignments/bulk-create`, "v3_tag_bulk_create", 202, json, [403, 404, 409, 422]),
  op("tagsAndCommentsBulkDeleteTagAssignments", "v3-tags-bulk-delete-assignments", "POST", `${TAG}/assignments/bulk-delete`, "v3_tag_bulk_delete", 202, json, [403, 404, 409, 422]),
  op("tagsAndCommentsListTagOperations", "v3-tags-list-operations", "GET", `${TAG}/operations`, "v3_tag_operations", 200, json, [403, 409, 422]),
  op("tagsAndCommentsGetTagOperation", "v3-tags-get-operation", "GET", `${TAG}/operations/{operation_id}`, "v3_tag_operation", 200, json, [403, 404, 409, 422]),
  op("tagsAndCommentsCancelTagOperation", "v3-tags-cancel-operation", "POST", `${TAG}/operations/{operation_id}/cancel`, "v3_tag_operation_cancel", 200, json, [403, 404, 409, 422]),
  // Comments
  op("tagsAndCommentsCreateComment", "v3-comments-create-comment", "POST", "/v3/comments", "v3_comment_create", 201, json, [403, 422]),
  op("tagsAndCommentsListComments", "v3-comments-list-comments", "GET", "/v3/comments", "v3_comments", 200, json, [403, 422]),
  op("tagsAndCommentsUpdateComment", "v3-comments-update-comment", "PUT", "/v3/comments/{comment_id}", "v3_comment_update", 200, json, [403, 404, 422]),
  op("tagsAndCommentsDeleteComment", "v3-comments-delete-comment", "DELETE", "/v3/comments/{comment_id}", "v3_comment_delete", 204, null, [403, 404, 422]),
  // Threat hunting
  op("threatHuntingCreateCenseyeJob", "v3-threathunting-censeye-jobs-create", "POST", CENSEYE, "v3_censeye_job_create", 200, json, [400, 403, 422]),
  op("threatHuntingListCenseyeJobs", "v3-threathunting-censeye-jobs-list", "GET", CENSEYE, "v3_censeye_jobs", 200, json, [400, 403, 409]),
  op("threatHuntingGetCenseyeJob", "v3-threathunting-censeye-jobs-get", "GET", `${CENSEYE}/{job_id}`, "v3_censeye_job", 200, json, [400, 403, 404]),
  op("threatHuntingGetCenseyeJobResults", "v3-threathunting-censeye-job-results", "GET", `${CENSEYE}/{job_id}/results`, "v3_censeye_job_results", 200, json, [400, 403, 404]),
  op("threatHuntingValueCounts", "v3-threathunting-value-counts", "POST", "/v3/threat-hunting/value-counts", "v3_value_counts", 200, json, [400, 403, 422]),
  op("threatHuntingGetHostObservationsWithCertificate", "v3-threathunting-get-host-observations-with-certificate", "GET", "/v3/threat-hunting/certificate/{certificate_id}/observations/hosts", "v3_certificate_host_observations", 200, json, [400, 403, 404]),
  op("threatHuntingCreateTrackedScan", "v3-threathunting-scans-discovery", "POST", "/v3/threat-hunting/scans/discovery", "v3_scan_discovery", 200, json, [400, 403, 422]),
  op("threatHuntingGetTrackedScanThreatHunting", "v3-threathunting-scans-get", "GET", "/v3/threat-hunting/scans/{scan_id}", "v3_threat_hunting_scan", 200, V3_MEDIA_TYPES.trackedScan, [400, 403, 404]),
  op("threatHuntingListThreats", "v3-threathunting-threats-list", "GET", "/v3/threat-hunting/threats", "v3_threats", 200, json, [400, 403, 422]),
];

/**
 * The bulk lookups' GET form: the same SDK functions as the POST rows above, as the SDKs before
 * the Platform's POST bulks send them (Python 0.5.1, TypeScript before 0.6, Go before 0.20):
 * `GET` with the ids in the query (core v3/bulk.ts `v3BulkInputOfQuery`), under those SDKs'
 * operationIds. Not rows of V3_OPERATIONS (no SDK function of their own): the same function,
 * price, success and problems as the POST row each names.
 */
export const V3_BULK_QUERY_FORMS: readonly V3Operation[] = (
  [
    ["globalDataGetHosts", "v3-globaldata-asset-host-list"],
    ["globalDataGetCertificates", "v3-globaldata-asset-certificate-list"],
    ["globalDataGetWebProperties", "v3-globaldata-asset-webproperty-list"],
  ] as const
).map(([sdk, operationId]) => {
  const post = V3_OPERATIONS.find((row) => row.sdk === sdk);
  if (!post) throw new Error(`no Platform operation ${sdk}`);
  return { ...post, operationId, method: "GET" };
});

const QUERY_FORM_BY_SDK = new Map(V3_BULK_QUERY_FORMS.map((o) => [o.sdk, o]));

/** The GET form of a bulk lookup's SDK function; throws for one that has none. */
export function v3BulkQueryForm(sdk: string): V3Operation {
  const found = QUERY_FORM_BY_SDK.get(sdk);
  if (!found) throw new Error(`no GET form of Platform operation ${sdk}`);
  return found;
}

const BY_SDK = new Map(V3_OPERATIONS.map((o) => [o.sdk, o]));

/** The operation of an SDK function; throws for a name the table lacks (a programming error). */
export function v3Operation(sdk: string): V3Operation {
  const found = BY_SDK.get(sdk);
  if (!found) throw new Error(`no Platform operation ${sdk}`);
  return found;
}

/**
 * The status of input that fails validation: the Platform answers 400 where the SDK declares
 * one, and 422 (Unprocessable Entity) where it declares only that.
 */
export function v3InvalidInputStatus(operation: V3Operation): 400 | 422 {
  return operation.problems.includes(400) || !operation.problems.includes(422) ? 400 : 422;
}
