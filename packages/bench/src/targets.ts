// The targets a run is judged against, each from figures measured in that same run.
import { formatCount, formatMs, formatRate } from "./format";
import type { Measurement } from "./measurement";
import { COLLAPSED_ROUND } from "./scenarios/edge-collapsed";
import { JOB_GRACE_MS, JOB_LIMIT_MS } from "./sql-jobs";

export type TargetStatus = "PASS" | "MISS" | "N/A";

export interface TargetResult {
  readonly id: string;
  readonly requirement: string;
  readonly status: TargetStatus;
  /** The figures behind the status, or why there are none. */
  readonly measured: string;
}

/** Dataset size the origin latency targets are defined on. */
export const TARGET_HOSTS = 100_000;

export interface ScaledQueries {
  readonly hosts: number;
  readonly search?: Measurement;
  readonly aggregate?: Measurement;
}

export interface TargetInputs {
  /** This run's measurements, by scenario id. */
  readonly scenarios: ReadonlyMap<string, Measurement>;
  /** Hosts in this run's dataset. */
  readonly datasetHosts: number;
  /** Origin search and aggregate on other dataset sizes (the scaling mode). */
  readonly scaled?: readonly ScaledQueries[];
}

type Usable = { ok: true; m: Measurement } | { ok: false; why: string };

/** A measurement a target can use: it ran, and every response was a 2xx. */
function usable(m: Measurement | undefined, id: string): Usable {
  if (!m) return { ok: false, why: `${id} did not run` };
  if (m.requests === 0) return { ok: false, why: `${id} answered no requests` };
  if (m.errors > 0)
    return {
      ok: false,
      why: `${id} had ${formatCount(m.errors)} failed requests of ${formatCount(m.requests)}`,
    };
  return { ok: true, m };
}

/** N/A, with why each input that is not usable is not. */
function unavailable(id: string, requirement: string, inputs: readonly Usable[]): TargetResult {
  const why = inputs.flatMap((u) => (u.ok ? [] : [u.why]));
  return { id, requirement, status: "N/A", measured: why.join("; ") };
}

function edgeHitAgainstBare(inputs: TargetInputs): TargetResult {
  const id = "edge-hit-vs-bare";
  const requirement = "edge cache hit >= 0.8 x bare worker req/s";
  const bare = usable(inputs.scenarios.get("bare"), "bare");
  const hit = usable(inputs.scenarios.get("edge-view-hit"), "edge-view-hit");
  if (!bare.ok || !hit.ok) return unavailable(id, requirement, [bare, hit]);
  const ratio = hit.m.requestsPerSecond / bare.m.requestsPerSecond;
  // The same worker reading the document from D1 once per request: the floor under any D1 read.
  const d1 = inputs.scenarios.get("bare-d1");
  const floor =
    d1 && d1.errors === 0 && d1.requests > 0
      ? `; bare-d1 is ${(d1.requestsPerSecond / bare.m.requestsPerSecond).toFixed(2)} x bare`
      : "";
  return {
    id,
    requirement,
    status: ratio >= 0.8 ? "PASS" : "MISS",
    measured: `${ratio.toFixed(2)} = ${formatRate(hit.m.requestsPerSecond)} / ${formatRate(bare.m.requestsPerSecond)} req/s${floor}${cpuRatio(bare.m, hit.m)}`,
  };
}

/** A miss through the edge against the origin answering the same view by itself. */
function edgeMissAgainstOrigin(inputs: TargetInputs): TargetResult {
  const id = "edge-miss-vs-origin";
  const requirement = "edge cache miss >= 0.6 x origin view req/s";
  const origin = usable(inputs.scenarios.get("origin-view"), "origin-view");
  const miss = usable(inputs.scenarios.get("edge-view-miss"), "edge-view-miss");
  if (!origin.ok || !miss.ok) return unavailable(id, requirement, [origin, miss]);
  const ratio = miss.m.requestsPerSecond / origin.m.requestsPerSecond;
  return {
    id,
    requirement,
    status: ratio >= 0.6 ? "PASS" : "MISS",
    measured: `${ratio.toFixed(2)} = ${formatRate(miss.m.requestsPerSecond)} / ${formatRate(origin.m.requestsPerSecond)} req/s${cpuRatio(origin.m, miss.m)}`,
  };
}

/**
 * Bulk of 50 all cached against the bare worker sending the same stored answer: the bytes set
 * the limit, so this is the edge's own cost. The line also shows the varied bulk (each answer
 * assembled, none sent again) against the same reference.
 */
function bulkAgainstBare(inputs: TargetInputs): TargetResult {
  const id = "bulk-vs-bare";
  const requirement = "edge bulk-50 all cached >= 0.9 x bare bulk req/s";
  const bulk = usable(inputs.scenarios.get("edge-bulk-hit"), "edge-bulk-hit");
  const bare = usable(inputs.scenarios.get("bare-bulk"), "bare-bulk");
  if (!bulk.ok || !bare.ok) return unavailable(id, requirement, [bulk, bare]);
  const ratio = bulk.m.requestsPerSecond / bare.m.requestsPerSecond;
  return {
    id,
    requirement,
    status: ratio >= 0.9 ? "PASS" : "MISS",
    measured: `${ratio.toFixed(2)} = ${formatRate(bulk.m.requestsPerSecond)} / ${formatRate(bare.m.requestsPerSecond)} req/s${referenceRatio(inputs, "bare-d1-bulk", "bare-bulk", "requestsPerSecond")}${referenceRatio(inputs, "edge-bulk-varied", "bare-bulk", "requestsPerSecond")}${cpuRatio(bare.m, bulk.m)}`,
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

/** `; <a> / <b> is <ratio of the figure>` when both reference scenarios ran cleanly, else nothing. */
function referenceRatio(
  inputs: TargetInputs,
  a: string,
  b: string,
  figure: "p50Ms" | "requestsPerSecond",
): string {
  const [ma, mb] = [inputs.scenarios.get(a), inputs.scenarios.get(b)];
  const clean = (m: Measurement | undefined): m is Measurement =>
    m !== undefined && m.errors === 0 && m.requests > 0;
  return clean(ma) && clean(mb) ? `; ${a} / ${b} is ${(ma[figure] / mb[figure]).toFixed(2)}` : "";
}

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

/** The origin query measured on TARGET_HOSTS hosts: this run's, or the scaling mode's. */
function atTargetSize(
  inputs: TargetInputs,
  scenarioId: string,
  kind: "search" | "aggregate",
): Measurement | string {
  if (inputs.datasetHosts === TARGET_HOSTS) {
    const m = inputs.scenarios.get(scenarioId);
    if (m) return m;
  }
  const scaled = inputs.scaled?.find((s) => s.hosts === TARGET_HOSTS)?.[kind];
  if (scaled) return scaled;
  if (inputs.datasetHosts === TARGET_HOSTS) return `${scenarioId} did not run`;
  return `no ${scenarioId} measurement on ${formatCount(TARGET_HOSTS)} hosts (this run's dataset has ${formatCount(inputs.datasetHosts)}; use --hosts ${TARGET_HOSTS} or --scale)`;
}

function originLatency(
  inputs: TargetInputs,
  id: string,
  scenarioId: string,
  kind: "search" | "aggregate",
  requirement: string,
  limitMs: number,
): TargetResult {
  const found = atTargetSize(inputs, scenarioId, kind);
  if (typeof found === "string") return { id, requirement, status: "N/A", measured: found };
  const m = usable(found, scenarioId);
  if (!m.ok) return unavailable(id, requirement, [m]);
  return {
    id,
    requirement,
    status: m.m.p50Ms < limitMs ? "PASS" : "MISS",
    measured: `p50 ${formatMs(m.m.p50Ms)} ms, p99 ${formatMs(m.m.p99Ms)} ms (${m.m.connections} connection${m.m.connections === 1 ? "" : "s"})`,
  };
}

/** Dataset size the origin's scale targets are defined on (measured by the scaling mode). */
export const SCALE_TARGET_HOSTS = 1_000_000;
/** How much an origin query's p50 may grow from TARGET_HOSTS to SCALE_TARGET_HOSTS hosts. */
const SCALE_GROWTH_LIMIT = 3;

/**
 * An origin query at SCALE_TARGET_HOSTS hosts (from --scale): its p50 under `limitMs`, and at
 * most SCALE_GROWTH_LIMIT times its p50 on TARGET_HOSTS hosts in the same run.
 */
function originAtScale(
  inputs: TargetInputs,
  id: string,
  scenarioId: string,
  kind: "search" | "aggregate",
  requirement: string,
  limitMs: number,
): TargetResult {
  const large = inputs.scaled?.find((s) => s.hosts === SCALE_TARGET_HOSTS)?.[kind];
  if (!large)
    return {
      id,
      requirement,
      status: "N/A",
      measured: `no ${scenarioId} measurement on ${formatCount(SCALE_TARGET_HOSTS)} hosts (--scale with ${SCALE_TARGET_HOSTS} in --scale-hosts)`,
    };
  const base = atTargetSize(inputs, scenarioId, kind);
  if (typeof base === "string") return { id, requirement, status: "N/A", measured: base };
  const [l, b] = [usable(large, scenarioId), usable(base, scenarioId)];
  if (!l.ok || !b.ok) return unavailable(id, requirement, [l, b]);
  const growth = l.m.p50Ms / b.m.p50Ms;
  return {
    id,
    requirement,
    status: l.m.p50Ms < limitMs && growth <= SCALE_GROWTH_LIMIT ? "PASS" : "MISS",
    measured: `p50 ${formatMs(l.m.p50Ms)} ms, p99 ${formatMs(l.m.p99Ms)} ms; ${growth.toFixed(2)} x the ${formatCount(TARGET_HOSTS)}-host p50 ${formatMs(b.m.p50Ms)} ms`,
  };
}

/** This run's measurement of `scenarioId` when the dataset is TARGET_HOSTS hosts, else why not. */
function thisRunAtTargetSize(inputs: TargetInputs, scenarioId: string): Measurement | string {
  if (inputs.datasetHosts !== TARGET_HOSTS)
    return `this run's dataset has ${formatCount(inputs.datasetHosts)} hosts, the target is on ${formatCount(TARGET_HOSTS)} (--hosts ${TARGET_HOSTS})`;
  return inputs.scenarios.get(scenarioId) ?? `${scenarioId} did not run`;
}

/** A SQL job's start-to-success p50 against a limit; every run must have succeeded. */
function sqlLatency(
  inputs: TargetInputs,
  id: string,
  scenarioId: string,
  requirement: string,
  limitMs: number,
): TargetResult {
  const found = thisRunAtTargetSize(inputs, scenarioId);
  if (typeof found === "string") return { id, requirement, status: "N/A", measured: found };
  const m = usable(found, scenarioId);
  if (!m.ok) return unavailable(id, requirement, [m]);
  return {
    id,
    requirement,
    status: m.m.p50Ms < limitMs ? "PASS" : "MISS",
    measured: `p50 ${formatMs(m.m.p50Ms)} ms, p99 ${formatMs(m.m.p99Ms)} ms (${formatCount(m.m.requests)} sequential jobs)`,
  };
}

/**
 * Loaded p50 / idle p50 of one contention probe (NaN without an idle p50), and its failed probes
 * in both phases.
 */
export function probeRatio(
  idle: Pick<Measurement, "p50Ms" | "errors">,
  loaded: Pick<Measurement, "p50Ms" | "errors">,
): { ratio: number; failed: number } {
  return {
    ratio: idle.p50Ms > 0 ? loaded.p50Ms / idle.p50Ms : Number.NaN,
    failed: idle.errors + loaded.errors,
  };
}

/** Probe ids of the contention scenario (scenarios/sql.ts names its extra rows so). */
const CONTENTION_PROBE_IDS = ["search", "account"].map((p) => ({
  probe: p,
  idle: `sql-contention-${p}-idle`,
  loaded: `sql-contention-${p}-loaded`,
}));

/** Origin search and account while the worst SQL jobs run: loaded p50 <= 2 x idle p50, no probe failed. */
function sqlContention(inputs: TargetInputs): TargetResult {
  const id = "sql-contention-100k";
  const requirement = "search/account p50 under worst SQL jobs <= 2 x idle, no failed probe, 100k hosts";
  const found = thisRunAtTargetSize(inputs, "sql-contention");
  if (typeof found === "string") return { id, requirement, status: "N/A", measured: found };
  const parts: string[] = [];
  let pass = true;
  for (const p of CONTENTION_PROBE_IDS) {
    const idle = inputs.scenarios.get(p.idle);
    const loaded = inputs.scenarios.get(p.loaded);
    if (!idle || !loaded || idle.requests === 0 || loaded.requests === 0)
      return {
        id,
        requirement,
        status: "N/A",
        measured: `the ${p.probe} probe has no idle or no loaded answers`,
      };
    const { ratio, failed } = probeRatio(idle, loaded);
    if (!(ratio <= 2) || failed > 0) pass = false;
    parts.push(
      `${p.probe} ${ratio.toFixed(2)} = ${formatMs(loaded.p50Ms)} / ${formatMs(idle.p50Ms)} ms, ${formatCount(failed)} failed`,
    );
  }
  return { id, requirement, status: pass ? "PASS" : "MISS", measured: parts.join("; ") };
}

/**
 * The worst jobs each end as success or error within their limit + 5 s (the fault suite's
 * bound), or, for a query whose cost is known too large at the start, are refused with a 400.
 */
function sqlWorstJobsEnd(inputs: TargetInputs): TargetResult {
  const id = "sql-worst-jobs-end-100k";
  const requirement = `worst SQL jobs end (success/error) within ${JOB_LIMIT_MS / 1000} s + ${JOB_GRACE_MS / 1000} s or are refused at the start, 100k hosts`;
  const found = thisRunAtTargetSize(inputs, "sql-contention");
  if (typeof found === "string") return { id, requirement, status: "N/A", measured: found };
  if (found.requests === 0) return { id, requirement, status: "N/A", measured: "sql-contention ran no job" };
  return {
    id,
    requirement,
    status: found.errors === 0 ? "PASS" : "MISS",
    measured: `${formatCount(found.requests - found.errors)} of ${formatCount(found.requests)} did; longest ${formatMs(found.p99Ms)} ms`,
  };
}

/** Every target, in a fixed order. */
export function evaluateTargets(inputs: TargetInputs): TargetResult[] {
  return [
    edgeHitAgainstBare(inputs),
    edgeMissAgainstOrigin(inputs),
    bulkAgainstBare(inputs),
    collapsedMisses(inputs),
    criticalPathStatements(inputs),
    zipfUpstreamCalls(inputs),
    edgeHeapUnderZipf(inputs),
    originLatency(
      inputs,
      "origin-search-100k",
      "origin-search",
      "search",
      "origin v2 search, indexed field, 100k hosts: p50 < 50 ms",
      50,
    ),
    originLatency(
      inputs,
      "origin-aggregate-100k",
      "origin-aggregate",
      "aggregate",
      "origin aggregate services.port, 100k hosts: p50 < 300 ms",
      300,
    ),
    originAtScale(
      inputs,
      "origin-search-1m",
      "origin-search",
      "search",
      "origin v2 search, indexed field, 1M hosts: p50 < 30 ms, <= 3 x 100k",
      30,
    ),
    originAtScale(
      inputs,
      "origin-aggregate-1m",
      "origin-aggregate",
      "aggregate",
      "origin aggregate services.port, 1M hosts: p50 < 500 ms, <= 3 x 100k",
      500,
    ),
    sqlLatency(
      inputs,
      "sql-group-by-country-100k",
      "sql-group-by-country",
      "SQL job GROUP BY location.country, 100k hosts: p50 < 3 s",
      3000,
    ),
    sqlLatency(
      inputs,
      "sql-ip-lookup-100k",
      "sql-ip-lookup",
      "SQL job WHERE ip = one host, 100k hosts: p50 < 1 s",
      1000,
    ),
    sqlContention(inputs),
    sqlWorstJobsEnd(inputs),
  ];
}
