import type { Scenario } from "../scenario";
import { edgeBulkHalf, edgeBulkHit, edgeBulkVaried, edgeViewHit } from "./edge-cache";
import { edgeMissCollapsed } from "./edge-collapsed";
import { edgeViewMiss } from "./edge-miss";
import { edgeRequestCounts } from "./edge-counts";
import { edgeV3AssetHit, edgeV3BulkHit } from "./edge-v3";
import { platformExportJob, platformSqlJob } from "./platform-jobs";
import { edgeAggregate, edgeSearch, originAggregate, originSearch } from "./queries";
import { bareBulk, bareD1, bareD1Bulk, bareV3Asset, bareV3Bulk, bareWorker, originView } from "./reference";
import { sqlContention, sqlGroupByCountry, sqlIpLookup } from "./sql";
import { zipfLookups } from "./zipf";

/**
 * Every scenario, in the order a run takes them (one at a time). An edge scenario a ratio target
 * judges runs its own slices alternating with its reference's (scenario.ts, `pairedLoad`); the
 * references also run alone, before it, for their own rows.
 */
export const SCENARIOS: readonly Scenario[] = [
  bareWorker,
  edgeViewHit,
  bareD1,
  originView,
  edgeViewMiss,
  edgeMissCollapsed,
  bareBulk,
  edgeBulkHit,
  edgeBulkVaried,
  bareD1Bulk,
  edgeBulkHalf,
  bareV3Asset,
  edgeV3AssetHit,
  bareV3Bulk,
  edgeV3BulkHit,
  edgeRequestCounts,
  edgeSearch,
  edgeAggregate,
  originSearch,
  originAggregate,
  zipfLookups,
  sqlGroupByCountry,
  sqlIpLookup,
  sqlContention,
  platformSqlJob,
  platformExportJob,
];

/** Ids of SCENARIOS, for option parsing. */
export const SCENARIO_IDS = SCENARIOS.map((s) => s.id);
