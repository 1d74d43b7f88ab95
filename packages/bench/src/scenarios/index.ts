import type { Scenario } from "../scenario";
import { edgeBulkHalf, edgeBulkHit, edgeBulkVaried, edgeViewHit, edgeViewMiss } from "./edge-cache";
import { edgeMissCollapsed } from "./edge-collapsed";
import { edgeAggregate, edgeSearch, originAggregate, originSearch } from "./queries";
import { bareBulk, bareD1, bareD1Bulk, bareWorker, originView } from "./reference";
import { sqlContention, sqlGroupByCountry, sqlIpLookup } from "./sql";
import { zipfLookups } from "./zipf";

/**
 * Every scenario, in the order a run takes them (one at a time). Each edge scenario a target
 * compares with a reference runs right after it (bare then the cached view, the origin's view
 * then the miss, the bare bulk then the cached bulk): on a shared machine the load of the
 * moment moves both alike, where a minute apart it moved one.
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
  edgeSearch,
  edgeAggregate,
  originSearch,
  originAggregate,
  zipfLookups,
  sqlGroupByCountry,
  sqlIpLookup,
  sqlContention,
];

/** Ids of SCENARIOS, for option parsing. */
export const SCENARIO_IDS = SCENARIOS.map((s) => s.id);
