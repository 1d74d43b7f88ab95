export {
  createClient,
  createPlatformClient,
  type ClientOptions,
  type PlatformClientOptions,
  type ScangateClient,
  type ScangatePlatformClient,
} from "./client";
export { createAdminClient, type AdminClientOptions, type ScangateAdminClient } from "./admin";
export * from "./errors";
export { DEFAULT_RETRY_OPTIONS, type RetryOptions, type RetryOptionsInput } from "./retry-policy";
export type { FetchLike, RetryEvent } from "./transport";
export type { JobProgress, WaitOptions } from "./job-polling";
export { typeRow, type CellValue, type TypedRow } from "./query-rows";
export type { SearchOptions, SearchAllOptions, ReportOptions } from "./v1/search";
export type { BulkOptions, V1DocumentByIndex } from "./v1/documents";
export type { QueryRunOptions, QueryRunResult } from "./v1/query-jobs";
export type { ExportOptions, ExportRunResult } from "./v1/export-jobs";
export type {
  AggregateOptions,
  HostViewOptions,
  HostsSearchOptions,
  HostsSearchPageOptions,
} from "./v2/hosts";
export type {
  CreditUsageOptions,
  PlatformAccountOptions,
  PlatformAggregateOptions,
  PlatformAtTimeOptions,
  PlatformBulkOptions,
  PlatformCallOptions,
  PlatformSearchOptions,
  PlatformSearchPageOptions,
} from "./v3/platform";
