// The targets a run is judged against, each from figures measured in that same run: the edge's
// (edge-targets.ts), then the origin's queries and SQL jobs.
import { edgeTargets } from "./edge-targets";
import { formatCount, formatMs } from "./format";
import { TARGET_HOSTS, type TargetInputs, type TargetResult, unavailable, usable } from "./judging";
import type { Measurement } from "./measurement";
import { JOB_GRACE_MS, JOB_LIMIT_MS } from "./sql-jobs";

export type { ScaledQueries, TargetInputs, TargetResult, TargetStatus } from "./judging";

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
    ...edgeTargets(inputs),
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
