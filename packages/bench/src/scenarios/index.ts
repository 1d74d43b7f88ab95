import type { Scenario } from "../scenario";
import { edgeBulkHalf, edgeBulkHit, edgeViewHit, edgeViewMiss } from "./edge-cache";
import { edgeMissCollapsed } from "./edge-collapsed";
import { edgeAggregate, edgeSearch, originAggregate, originSearch } from "./queries";
import { bareBulk, bareD1, bareD1Bulk, bareWorker, originView } from "./reference";
import { sqlContention, sqlGroupByCountry, sqlIpLookup } from "./sql";
import { zipfLookups } from "./zipf";

/** Every scenario, in the order a run takes them (one at a time). */
export const SCENARIOS: readonly Scenario[] = [
  bareWorker,
  bareD1,
  bareBulk,
  bareD1Bulk,
  originView,
  edgeViewHit,
  edgeViewMiss,
  edgeMissCollapsed,
  edgeBulkHit,
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
