// What a scenario is, and the pieces scenarios share: the context of a run, skipping a
// scenario whose route is not there yet, and running load in rounds within the time bound.
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { type BenchTenant, tenantUsage, type TenantUsage } from "./admin-client";
import type { Cluster } from "./cluster";
import type { DatasetProbe } from "./dataset";
import { emptySample, type LoadPlan, type LoadSample, mergeSamples, runLoad } from "./load";
import type { Pairing } from "./measurement";
import type { BenchOptions } from "./options";
import { runPairs, type Slicer } from "./paired";

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
      /** Set when the scenario ran in paired slices against a reference (its slices are one of `extra`). */
      readonly pairing?: Pairing;
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

/** A load that runs in slices: one request (or a list in turn) for as long as each slice lasts. */
export interface SlicedLoad extends Slicer {
  /** What is asked, as the table's results record it. */
  readonly target: string;
  readonly connections: number;
}

/** Slices of `plan`'s requests, each as long as asked. */
export function slicesOf(plan: Omit<LoadPlan, "durationSeconds" | "amount">): Slicer {
  return { slice: (seconds) => runLoad({ ...plan, durationSeconds: seconds }) };
}

/** A scenario that is also the reference of others: they run in slices alternating with its own. */
export interface ReferenceScenario extends Scenario {
  /** Checks its route answers, then gives slices of its load. */
  load(ctx: BenchContext): Promise<SlicedLoad>;
}

/** What a scenario measured in paired slices against its reference: a row for each side, and the pairs. */
export interface PairedOutcome {
  readonly sample: LoadSample;
  /** The reference's slices, as a row of their own: `<scenario id>:<reference id>`. */
  readonly extra: ExtraRow[];
  readonly pairing: Pairing;
}

/**
 * `own` against `reference` in paired slices (paired.ts): `--slice` seconds each at first, as many
 * pairs as give each side `--duration` seconds of load. A slice with fewer than two answers per
 * connection doubles the slices after it.
 */
export async function pairedLoad(
  ctx: BenchContext,
  id: string,
  own: Slicer,
  reference: ReferenceScenario,
): Promise<PairedOutcome> {
  const load = await reference.load(ctx);
  const { duration, slice, connections } = ctx.options;
  const run = await runPairs(own, load, {
    durationSeconds: duration,
    sliceSeconds: slice,
    minAnswers: 2 * Math.max(connections, load.connections),
  });
  const referenceId = `${id}:${reference.id}`;
  return {
    sample: run.scenario,
    extra: [
      {
        id: referenceId,
        title: `${reference.title} (the slices paired with ${id})`,
        target: load.target,
        connections: load.connections,
        sample: run.reference,
      },
    ],
    pairing: { reference: referenceId, ratios: run.ratios, sliceSeconds: run.sliceSeconds },
  };
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
 * Load in rounds until `durationSeconds` of load have run (at least one round): `prepare` resets
 * state between rounds (e.g. purges the cache so misses stay misses), off the clock. Each round
 * runs to its last answer: a load stopped with requests in flight leaves the edge working on
 * answers nobody waits for (after half-cached bulk requests were dropped so, the edge once
 * answered nothing for minutes), and the next round's time would go to that work.
 */
export async function inRounds(
  durationSeconds: number,
  prepare: () => Promise<void>,
  plan: () => LoadPlan,
): Promise<{ sample: LoadSample; rounds: number }> {
  const total = emptySample();
  let rounds = 0;
  do {
    await prepare();
    mergeSamples(total, await runLoad(plan()));
    rounds += 1;
  } while (total.elapsedMs / 1000 < durationSeconds);
  return { sample: total, rounds };
}

/**
 * The edge's CACHE_MEMORY_HOLD_MS default (apps/edge/src/config.ts; the bench does not set it):
 * how long an isolate answers a cached row from memory after it held it.
 */
export const EDGE_MEMORY_HOLD_MS = 5000;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
