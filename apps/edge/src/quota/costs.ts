/**
 * Every operation the edge serves under /api, and what it costs a tenant's quota: the one
 * table of prices. Reading state the tenant already paid for (job status, results, downloads)
 * and metadata is free. A cache hit is free unless CACHE_HITS_CHARGED is set.
 */
export const OPERATION_COSTS = {
  search: 1,
  view: 1,
  report: 1,
  bulk: 1,
  hosts_aggregate: 1,
  hosts_search: 1,
  host_view: 1,
  query_start: 1,
  export_start: 1,
  query_status: 0,
  query_results: 0,
  query_definitions: 0,
  export_status: 0,
  export_download: 0,
  data: 0,
  data_download: 0,
  account: 0,
} as const;

export type Operation = keyof typeof OPERATION_COSTS;

export function operationCost(operation: Operation): number {
  return OPERATION_COSTS[operation];
}
