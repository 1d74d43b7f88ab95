// The edge's targets: its throughput against the references (judged on paired slices), what it
// does on concurrent misses, D1 statements and ledger calls per request, upstream calls under a
// Zipf workload, and its heap.
import { formatCount, formatMs, formatRate } from "./format";
import { type TargetInputs, type TargetResult, unavailable, usable } from "./judging";
import type { Measurement } from "./measurement";
import { formatSpread, sliceRange } from "./paired";
import { COLLAPSED_ROUND } from "./scenarios/edge-collapsed";

/** A throughput ratio judged on paired slices: the scenario's pair ratios against its reference's. */
interface PairedRatioTarget {
  readonly id: string;
  readonly requirement: string;
  /** The paired scenario; its pairing names the reference's row. */
  readonly scenario: string;
  /** The median pair ratio must be at least this. */
  readonly atLeast: number;
  /** Ratios of other rows shown beside it, not judged (e.g. the D1 floor). */
  readonly context?: readonly (readonly [string, string])[];
}

/**
 * The median of the pair ratios against its bound, with their spread, both sides' requests/s
 * over their slices, the context ratios, and the same ratio by workerd CPU per request.
 */
function pairedRatio(inputs: TargetInputs, target: PairedRatioTarget): TargetResult {
  const { id, requirement, scenario } = target;
  const own = usable(inputs.scenarios.get(scenario), scenario);
  if (!own.ok) return unavailable(id, requirement, [own]);
  const { pairs } = own.m;
  if (!pairs)
    return { id, requirement, status: "N/A", measured: `${scenario} was not measured in paired slices` };
  const reference = usable(inputs.scenarios.get(pairs.reference), pairs.reference);
  if (!reference.ok) return unavailable(id, requirement, [reference]);
  if (!pairs.spread)
    return { id, requirement, status: "N/A", measured: `${scenario}: no pair had both sides answered` };
  const context = (target.context ?? []).map(([a, b]) => referenceRatio(inputs, a, b)).join("");
  return {
    id,
    requirement,
    status: pairs.spread.median >= target.atLeast ? "PASS" : "MISS",
    measured:
      `${formatSpread(pairs.spread)} of ${sliceRange(pairs.sliceSeconds)} s slices; ` +
      `over all slices ${formatRate(own.m.requestsPerSecond)} / ${formatRate(reference.m.requestsPerSecond)} req/s` +
      `${context}${cpuRatio(reference.m, own.m)}`,
    pairs: pairs.spread,
  };
}

/**
 * The same ratio from workerd's CPU time per request (the reference's over the edge's), which a
 * busy second core moves far less than requests/s; nothing when either was not measured.
 */
function cpuRatio(reference: Measurement, edge: Measurement): string {
  const [r, e] = [reference.cpuMsPerRequest, edge.cpuMsPerRequest];
  if (r === null || e === null || e <= 0) return "";
  return `; by workerd CPU per request ${(r / e).toFixed(2)} = ${r.toFixed(3)} / ${e.toFixed(3)} ms`;
}

/** `; <a> / <b> is <ratio of requests/s>` when both scenarios ran cleanly, else nothing. */
function referenceRatio(inputs: TargetInputs, a: string, b: string): string {
  const [ma, mb] = [inputs.scenarios.get(a), inputs.scenarios.get(b)];
  const clean = (m: Measurement | undefined): m is Measurement =>
    m !== undefined && m.errors === 0 && m.requests > 0;
  return clean(ma) && clean(mb)
    ? `; ${a} / ${b} is ${(ma.requestsPerSecond / mb.requestsPerSecond).toFixed(2)}`
    : "";
}

/** The ratio targets, each against the reference its scenario is paired with (scenarios/). */
const RATIO_TARGETS: readonly PairedRatioTarget[] = [
  {
    id: "edge-hit-vs-bare",
    requirement: "edge cache hit >= 0.8 x bare worker req/s",
    scenario: "edge-view-hit",
    atLeast: 0.8,
    // The same worker reading the document from D1 once per request: the floor under any D1 read.
    context: [["bare-d1", "bare"]],
  },
  {
    id: "edge-miss-vs-origin",
    requirement: "edge cache miss >= 0.6 x origin view req/s",
    scenario: "edge-view-miss",
    atLeast: 0.6,
  },
  {
    // Bulk of 50 all cached against the bare worker sending the same stored answer: the bytes set
    // the limit, so this is the edge's own cost. The varied bulk (each answer assembled, none
    // sent again) is shown against the same reference.
    id: "bulk-vs-bare",
    requirement: "edge bulk-50 all cached >= 0.9 x bare bulk req/s",
    scenario: "edge-bulk-hit",
    atLeast: 0.9,
    context: [
      ["bare-d1-bulk", "bare-bulk"],
      ["edge-bulk-varied", "bare-bulk"],
    ],
  },
  {
    id: "v3-asset-hit-vs-bare",
    requirement: "edge /v3 cached certificate lookup >= 0.8 x bare worker req/s",
    scenario: "edge-v3-asset-hit",
    atLeast: 0.8,
  },
  {
    id: "v3-bulk-vs-bare",
    requirement: "edge /v3 bulk-50 all cached >= 0.9 x bare /v3 bulk req/s",
    scenario: "edge-v3-bulk-hit",
    atLeast: 0.9,
  },
];

/**
 * Rounds of COLLAPSED_ROUND concurrent misses of one new certificate: their p50 at most 10 ms over
 * the origin's own view p50 (one connection, measured in the same rounds), and one upstream call
 * per round.
 */
function collapsedMisses(inputs: TargetInputs): TargetResult {
  const id = "edge-miss-collapsed";
  const requirement = `${COLLAPSED_ROUND} concurrent misses: p50 - origin view p50 <= 10 ms, 1 upstream call per round`;
  const found = usable(inputs.scenarios.get(id), id);
  if (!found.ok) return unavailable(id, requirement, [found]);
  const {
    rounds,
    upstreamCalls,
    roundsWithOtherThanOneCall: other,
    originViewP50Ms: origin,
    cachedRoundP50Ms: cached,
    countedRounds = 0,
  } = found.m.counts;
  if (rounds === undefined || upstreamCalls === undefined || origin === undefined || other === undefined) {
    return { id, requirement, status: "N/A", measured: `${id} recorded no round counts` };
  }
  const over = found.m.p50Ms - origin;
  return {
    id,
    requirement,
    status: over <= 10 && other === 0 ? "PASS" : "MISS",
    measured:
      `${formatMs(over)} = ${formatMs(found.m.p50Ms)} - ${formatMs(origin)} ms; ${formatCount(upstreamCalls)} upstream calls in ${formatCount(rounds + countedRounds)} rounds` +
      (cached === undefined ? "" : `; a round of ${COLLAPSED_ROUND} hits: p50 ${formatMs(cached)} ms`),
  };
}

/**
 * D1 statements on a request's critical path, counted by the edge's D1 wrapper (X-D1-Statements)
 * in the collapsed scenario's counted rounds: none for a hit from the memory tier, one for a hit
 * read from D1, at most two for the request that goes upstream, none for one that joins it.
 * Judged on the most any counted request ran.
 */
function criticalPathStatements(inputs: TargetInputs): TargetResult {
  const id = "d1-statements";
  const requirement = "D1 statements per request: memory hit 0, D1 hit 1, miss <= 2, joined miss 0";
  const found = usable(inputs.scenarios.get("edge-miss-collapsed"), "edge-miss-collapsed");
  if (!found.ok) return unavailable(id, requirement, [found]);
  const {
    memoryHitStatementsMax: memory,
    d1HitStatementsMax: d1,
    leaderStatementsMax: miss,
    joinerStatementsMax: joined,
  } = found.m.counts;
  if (memory === undefined || d1 === undefined || miss === undefined || joined === undefined) {
    return {
      id,
      requirement,
      status: "N/A",
      measured: "edge-miss-collapsed counted no D1 statements (the edge's D1_STATEMENTS_HEADER is off)",
    };
  }
  const pass = memory === 0 && d1 === 1 && miss <= 2 && joined === 0;
  return {
    id,
    requirement,
    status: pass ? "PASS" : "MISS",
    measured: `most in any counted request: memory hit ${memory}, D1 hit ${d1}, miss ${miss}, joined miss ${joined}`,
  };
}

function zipfUpstreamCalls(inputs: TargetInputs): TargetResult {
  const id = "zipf-upstream";
  const requirement = "Zipf upstream calls == distinct keys";
  const zipf = usable(inputs.scenarios.get("zipf"), "zipf");
  if (!zipf.ok) return unavailable(id, requirement, [zipf]);
  const { upstream_calls: calls, distinct_keys: keys, origin_calls: origin, lookups } = zipf.m.counts;
  if (calls === undefined || keys === undefined) {
    return { id, requirement, status: "N/A", measured: "zipf recorded no upstream call count" };
  }
  if (lookups !== undefined && zipf.m.requests < lookups) {
    return {
      id,
      requirement,
      status: "N/A",
      measured: `zipf answered ${formatCount(zipf.m.requests)} of ${formatCount(lookups)} lookups`,
    };
  }
  const originSaw = origin === undefined ? "" : ` (origin served ${formatCount(origin)})`;
  return {
    id,
    requirement,
    status: calls === keys ? "PASS" : "MISS",
    measured: `${formatCount(calls)} upstream calls for ${formatCount(keys)} distinct keys${originSaw}`,
  };
}

/** Workers give an isolate 128 MB; the edge keeps to half of it with its memory tier full. */
export const EDGE_HEAP_LIMIT_BYTES = 64 * 1024 * 1024;

function edgeHeapUnderZipf(inputs: TargetInputs): TargetResult {
  const id = "edge-memory";
  const requirement = "edge isolate heap held after the Zipf lookups < 64 MB";
  const zipf = usable(inputs.scenarios.get("zipf"), "zipf");
  if (!zipf.ok) return unavailable(id, requirement, [zipf]);
  const { edge_heap_total_peak_bytes: total, edge_heap_after_gc_bytes: kept } = zipf.m.counts;
  if (total === undefined || kept === undefined) {
    return { id, requirement, status: "N/A", measured: "zipf read no heap (no inspector)" };
  }
  const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);
  return {
    id,
    requirement,
    status: kept < EDGE_HEAP_LIMIT_BYTES ? "PASS" : "MISS",
    measured: `${mb(kept)} MB held (after a collection, memory tier full); the heap reached ${mb(total)} MB with uncollected garbage during the load`,
  };
}

/** The scenario that counts D1 statements and ledger calls per kind of request (scenarios/edge-counts.ts). */
const REQUEST_COUNTS = "edge-request-counts";

/**
 * No charge touches D1: a charged miss runs as many D1 statements as a free one (the p50s of each
 * kind's counted requests), its charge going to the tenant's ledger. Legacy views always; /v3
 * lookups too when the edge counts their statements.
 */
function chargesOffD1(inputs: TargetInputs): TargetResult {
  const id = "d1-no-charge";
  const requirement = "no charge touches D1: a charged miss runs the D1 statements of a free miss";
  const found = usable(inputs.scenarios.get(REQUEST_COUNTS), REQUEST_COUNTS);
  if (!found.ok) return unavailable(id, requirement, [found]);
  const { counts } = found.m;
  const compared = (charged: string, free: string) => {
    const [a, b] = [counts[`${charged}StatementsP50`], counts[`${free}StatementsP50`]];
    return a === undefined || b === undefined ? null : { charged: a, free: b };
  };
  const view = compared("chargedMiss", "freeMiss");
  if (!view)
    return {
      id,
      requirement,
      status: "N/A",
      measured: `${REQUEST_COUNTS} counted no D1 statements (the edge's D1_STATEMENTS_HEADER is off)`,
    };
  const v3 = compared("v3ChargedMiss", "v3FreeMiss");
  const shown = (c: { charged: number; free: number }) => `charged miss ${c.charged}, free miss ${c.free}`;
  return {
    id,
    requirement,
    status: view.charged === view.free && (v3 === null || v3.charged === v3.free) ? "PASS" : "MISS",
    measured: `view: ${shown(view)}; /v3 certificate: ${v3 ? shown(v3) : "the edge did not report X-D1-Statements"} (p50 of the counted requests)`,
  };
}

/** The ledger calls each kind of counted request must make. */
const LEDGER_CALLS: ReadonlyArray<{ readonly kind: string; readonly label: string; readonly calls: number }> =
  [
    { kind: "memoryHit", label: "view memory hit", calls: 0 },
    { kind: "d1Hit", label: "view D1 hit", calls: 0 },
    { kind: "v3MemoryHit", label: "/v3 memory hit", calls: 0 },
    { kind: "v3D1Hit", label: "/v3 D1 hit", calls: 0 },
    { kind: "v3BulkHit", label: "/v3 bulk hit", calls: 0 },
    { kind: "chargedMiss", label: "view miss", calls: 1 },
    { kind: "v3ChargedMiss", label: "/v3 miss", calls: 1 },
    { kind: "v3BulkMisses", label: "/v3 bulk with misses", calls: 2 },
  ];

/**
 * Calls to the tenant's quota ledger per request (X-Ledger-Calls): none for a free hit, one for a
 * charged request, two for one whose charge is held, then settled from the answer. Every counted
 * request of a kind must make exactly its number. A kind the edge did not report on is N/A
 * unless another kind already missed.
 */
function ledgerCallsPerRequest(inputs: TargetInputs): TargetResult {
  const id = "ledger-calls";
  const requirement = "ledger calls per request: free hit 0, charged 1, held then settled 2";
  const found = usable(inputs.scenarios.get(REQUEST_COUNTS), REQUEST_COUNTS);
  if (!found.ok) return unavailable(id, requirement, [found]);
  const { counts } = found.m;
  const shown: string[] = [];
  const unreported: string[] = [];
  let off = false;
  for (const { kind, label, calls } of LEDGER_CALLS) {
    const [min, max] = [counts[`${kind}LedgerCallsMin`], counts[`${kind}LedgerCallsMax`]];
    if (min === undefined || max === undefined) {
      unreported.push(label);
      continue;
    }
    const wrong = min !== calls || max !== calls;
    off ||= wrong;
    shown.push(`${label} ${min === max ? min : `${min}-${max}`}${wrong ? ` (not ${calls})` : ""}`);
  }
  if (shown.length === 0)
    return { id, requirement, status: "N/A", measured: "the edge did not report X-Ledger-Calls" };
  const missing =
    unreported.length > 0 ? `; the edge did not report X-Ledger-Calls on ${unreported.join(", ")}` : "";
  return {
    id,
    requirement,
    status: off ? "MISS" : unreported.length > 0 ? "N/A" : "PASS",
    measured: `${shown.join(", ")}${missing}`,
  };
}

/** The edge's targets, in the order the run prints them. */
export function edgeTargets(inputs: TargetInputs): TargetResult[] {
  return [
    ...RATIO_TARGETS.map((target) => pairedRatio(inputs, target)),
    collapsedMisses(inputs),
    criticalPathStatements(inputs),
    chargesOffD1(inputs),
    ledgerCallsPerRequest(inputs),
    zipfUpstreamCalls(inputs),
    edgeHeapUnderZipf(inputs),
  ];
}
