// What a scenario is, and the pieces scenarios share: the context of a run, skipping a
// scenario whose route is not there yet, and running load in rounds within the time bound.
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { type BenchTenant, tenantUsage, type TenantUsage } from "./admin-client";
import type { Cluster } from "./cluster";
import type { DatasetProbe } from "./dataset";
import { emptySample, type LoadPlan, type LoadSample, mergeSamples, runLoad } from "./load";
import type { BenchOptions } from "./options";

export interface BenchContext {
  readonly options: BenchOptions;
  readonly bareUrl: string;
  readonly cluster: Cluster;
  readonly probe: DatasetProbe;
  readonly adminToken: string;
  /** Basic auth of the bench's origin account (the one the edge calls the origin with). */
  readonly originAuth: string;
  /** A new edge tenant on the bench tier: one per scenario, so its usage rollups are that scenario's. */
  newTenant(label: string): Promise<BenchTenant>;
}

/**
 * The tenant's usage rollups once the edge has written at least `requests` requests (the edge
 * batches its usage writes for a second or so after the last request).
 */
export async function settledUsage(
  ctx: BenchContext,
  tenant: BenchTenant,
  requests: number,
): Promise<TenantUsage> {
  const deadline = performance.now() + 15_000;
  let usage = await tenantUsage(ctx.cluster.edgeUrl, ctx.adminToken, tenant.id);
  while (usage.requests < requests && performance.now() < deadline) {
    await sleep(250);
    usage = await tenantUsage(ctx.cluster.edgeUrl, ctx.adminToken, tenant.id);
  }
  // Requests still in flight when a timed load stopped are written a little later.
  await sleep(1500);
  return tenantUsage(ctx.cluster.edgeUrl, ctx.adminToken, tenant.id);
}

/** Usage as a scenario's counts. */
export function usageCounts(usage: TenantUsage): Record<string, number> {
  return {
    edge_requests: usage.requests,
    cache_hits: usage.cacheHits,
    upstream_calls: usage.upstreamCalls,
    edge_errors: usage.errors,
  };
}

/** Headers of a tenant's request to the edge (JSON bodies where there are any). */
export function tenantHeaders(tenant: BenchTenant): Record<string, string> {
  return { authorization: tenant.authorization, "content-type": "application/json" };
}

/** The certificates every all-cached bulk request asks for (the bare worker's bulk reference too). */
export function bulkFingerprints(probe: DatasetProbe): string[] {
  return probe.fingerprints.slice(0, BULK_MAX_FINGERPRINTS);
}

/** The certificate view path of a fingerprint. */
export function viewPath(fingerprint: string): string {
  return `/api/v1/view/certificates/${fingerprint}`;
}

export type ScenarioOutcome =
  | {
      readonly kind: "ran";
      readonly sample: LoadSample;
      readonly connections: number;
      /** What was asked, e.g. the query string. */
      readonly target: string;
      /** Scenario-specific counts, e.g. upstream calls. */
      readonly counts?: Readonly<Record<string, number>>;
      readonly notes?: readonly string[];
      /** Further rows the scenario measured (e.g. a probe idle and under load), each with an id of its own. */
      readonly extra?: readonly ExtraRow[];
    }
  | { readonly kind: "skipped"; readonly reason: string };

export interface ExtraRow {
  readonly id: string;
  readonly title: string;
  readonly target: string;
  readonly connections: number;
  readonly sample: LoadSample;
  readonly counts?: Readonly<Record<string, number>>;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  run(ctx: BenchContext): Promise<ScenarioOutcome>;
}

/** Thrown by a scenario's preflight when its route is missing or refuses: the scenario is skipped. */
export class SkipScenario extends Error {}

/**
 * One request before the load, to see the route is there and answers 2xx; otherwise the
 * scenario is skipped with what the route said. Returns the response (body read).
 */
export async function preflight(
  url: string,
  init: RequestInit,
): Promise<{ response: Response; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new SkipScenario(
      `${init.method ?? "GET"} ${new URL(url).pathname} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = await response.text();
  if (response.status < 200 || response.status > 299) {
    const path = new URL(url);
    throw new SkipScenario(
      `${init.method ?? "GET"} ${path.pathname}${path.search} answered ${response.status}: ${text.slice(0, 160)}`,
    );
  }
  return { response, text };
}

/**
 * Load in rounds until `durationSeconds` of load have run (at least one round): `prepare`
 * resets state between rounds (e.g. purges the cache so misses stay misses), off the clock.
 */
export async function inRounds(
  durationSeconds: number,
  prepare: () => Promise<void>,
  plan: () => LoadPlan,
): Promise<{ sample: LoadSample; rounds: number }> {
  const total = emptySample();
  let rounds = 0;
  for (;;) {
    await prepare();
    const remaining = durationSeconds - total.elapsedMs / 1000;
    const round = plan();
    const sample = await runLoad({ ...round, maxSeconds: Math.max(1, remaining) });
    mergeSamples(total, sample);
    rounds += 1;
    // A round cut short by the time bound ends the load.
    const cutShort = round.amount !== undefined && sample.requests < round.amount;
    if (cutShort || total.elapsedMs / 1000 >= durationSeconds) break;
  }
  return { sample: total, rounds };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
