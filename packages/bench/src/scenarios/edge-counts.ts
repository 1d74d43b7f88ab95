// The work each kind of request does beyond answering: its D1 statements and its calls to the
// tenant's quota ledger, read from the edge's own count headers (request-counts.ts), one request
// at a time and off the clock. A charged miss and a free one (a certificate the upstream does
// not know: its 404 is not charged, and is kept as a negative row) must run the same D1
// statements, so that no charge touches D1; a free hit calls no ledger, a charged request one,
// and a request whose charge is held, then settled from the answer, two.
import { randomBytes } from "node:crypto";
import { BULK_MAX_FINGERPRINTS } from "@scangate/core";
import { platformAuthorization, purgeCached, v3BulkBody } from "../admin-client";
import { emptySample, type LoadSample } from "../load";
import { answerCounts, COUNT_REQUEST_HEADER, type CountReading, countsByKind } from "../request-counts";
import { bulkFingerprints, type Scenario, SkipScenario, sleep, viewPath } from "../scenario";
import { v3CertificatePath, V3_BULK_PATH } from "./edge-v3";

/** Counted requests of each kind. */
const ROUNDS = 3;

/** How long a request waits for its answer: an edge that stops answering fails the scenario, not the run. */
const ANSWER_MS = 60_000;

/** Certificates of the bulk a /v3 bulk with misses finds purged. */
const BULK_MISSING = 5;

/**
 * Longer than the edge holds a row or a credential in an isolate's memory (CACHE_MEMORY_HOLD_MS
 * and AUTH_CACHE_TTL_MS are each at most 5 s): after it, a cached certificate is read from D1.
 */
const PAST_MEMORY_HOLD_MS = 5_250;

/** The kinds of counted requests, as their counts are named, and what each is. */
export const REQUEST_KINDS = {
  memoryHit: "legacy view, a hit from the isolate's memory",
  d1Hit: "legacy view, a hit read from D1",
  chargedMiss: "legacy view, a miss the upstream answered (charged)",
  freeMiss: "legacy view of a certificate the upstream does not know (a 404: free)",
  v3MemoryHit: "/v3 certificate, a hit from memory",
  v3D1Hit: "/v3 certificate, a hit read from D1",
  v3ChargedMiss: "/v3 certificate, a miss (charged)",
  v3FreeMiss: "/v3 certificate the upstream does not know (a 404: free)",
  v3BulkHit: `/v3 bulk of ${BULK_MAX_FINGERPRINTS}, all cached`,
  v3BulkMisses: `/v3 bulk of ${BULK_MAX_FINGERPRINTS}, ${BULK_MISSING} not cached (held, then settled)`,
} as const;
export type RequestKind = keyof typeof REQUEST_KINDS;

/** What a counted request must be answered with, or its reading is not of its kind. */
interface Expected {
  readonly status: 200 | 404;
  /** The answer's Cache-Status: a hit, or a request forwarded upstream. */
  readonly cache: "hit" | "fwd";
}

/** Requests' answers as a sample: an answer that was not what its kind expects counts as failed. */
function sampleOf(answers: ReadonlyArray<{ status: number; ms: number; expected: boolean }>): LoadSample {
  const sample = emptySample();
  for (const answer of answers) {
    sample.requests += 1;
    if (!answer.expected) sample.non2xx += 1;
    sample.statuses[String(answer.status)] = (sample.statuses[String(answer.status)] ?? 0) + 1;
    sample.latenciesMs.push(answer.ms);
    sample.elapsedMs += answer.ms;
  }
  return sample;
}

export const edgeRequestCounts: Scenario = {
  id: "edge-request-counts",
  title: "D1 statements and ledger calls per request, by kind (off the clock)",
  async run(ctx) {
    const { edgeUrl } = ctx.cluster;
    const bulk = bulkFingerprints(ctx.probe);
    // Certificates outside the bulk, purged before their misses.
    const certificates = ctx.probe.fingerprints.slice(BULK_MAX_FINGERPRINTS, BULK_MAX_FINGERPRINTS + ROUNDS);
    if (bulk.length < BULK_MAX_FINGERPRINTS || certificates.length < ROUNDS)
      throw new SkipScenario(`the dataset has fewer than ${BULK_MAX_FINGERPRINTS + ROUNDS} certificates`);
    const tenant = await ctx.newTenant("request-counts");
    const basic = { authorization: tenant.authorization, "content-type": "application/json" };
    const bearer = {
      ...basic,
      authorization: await platformAuthorization(edgeUrl, ctx.adminToken, tenant.id),
    };
    const readings: CountReading[] = [];
    const answers: Array<{ status: number; ms: number; expected: boolean }> = [];
    const unexpected: string[] = [];

    /** A request whose answer is not counted: it loads the credential (a tenant row read) before the counted ones. */
    const plain = async (path: string, headers: Record<string, string>) => {
      const response = await fetch(`${edgeUrl}${path}`, { headers, signal: AbortSignal.timeout(ANSWER_MS) });
      await response.arrayBuffer();
      if (!response.ok) throw new SkipScenario(`GET ${path} answered ${response.status}`);
    };
    const warmCredentials = async () => {
      await plain("/api/v1/account", basic);
      await plain(v3CertificatePath(bulk[0] ?? ""), bearer);
    };
    const counted = async (
      kind: RequestKind,
      path: string,
      headers: Record<string, string>,
      expected: Expected,
      body?: string,
    ) => {
      const started = performance.now();
      const response = await fetch(`${edgeUrl}${path}`, {
        signal: AbortSignal.timeout(ANSWER_MS),
        method: body === undefined ? "GET" : "POST",
        headers: { ...headers, [COUNT_REQUEST_HEADER]: "1" },
        ...(body === undefined ? {} : { body }),
      });
      await response.arrayBuffer();
      const cacheStatus = response.headers.get("cache-status") ?? "";
      const cache = cacheStatus.includes("fwd=") ? "fwd" : /;\s*hit/.test(cacheStatus) ? "hit" : "none";
      const ok = response.status === expected.status && cache === expected.cache;
      answers.push({ status: response.status, ms: performance.now() - started, expected: ok });
      if (ok) readings.push({ kind, ...answerCounts(response.headers) });
      else
        unexpected.push(
          `${kind}: ${response.status} (Cache-Status "${cacheStatus}"), expected ${expected.status} and a ${expected.cache}`,
        );
    };
    const unknown = () => randomBytes(32).toString("hex");
    const hit = { status: 200, cache: "hit" } as const;
    const miss = { status: 200, cache: "fwd" } as const;
    const notFound = { status: 404, cache: "fwd" } as const;

    for (const fingerprint of certificates) {
      await warmCredentials();
      await purgeCached(edgeUrl, ctx.adminToken, "certificates", fingerprint);
      await counted("chargedMiss", viewPath(fingerprint), basic, miss);
      await counted("memoryHit", viewPath(fingerprint), basic, hit);
      await counted("freeMiss", viewPath(unknown()), basic, notFound);
      await purgeCached(edgeUrl, ctx.adminToken, "v3_certificate", fingerprint);
      await counted("v3ChargedMiss", v3CertificatePath(fingerprint), bearer, miss);
      await counted("v3MemoryHit", v3CertificatePath(fingerprint), bearer, hit);
      await counted("v3FreeMiss", v3CertificatePath(unknown()), bearer, notFound);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      await warmCredentials();
      const body = v3BulkBody(bulk);
      const cacheAll = await fetch(`${edgeUrl}${V3_BULK_PATH}`, {
        method: "POST",
        headers: bearer,
        body,
        signal: AbortSignal.timeout(ANSWER_MS),
      });
      await cacheAll.arrayBuffer();
      await counted("v3BulkHit", V3_BULK_PATH, bearer, hit, body);
      // A different few each round, so each purge leaves rows the others' rounds cached.
      for (const fingerprint of bulk.slice(round * BULK_MISSING, (round + 1) * BULK_MISSING))
        await purgeCached(edgeUrl, ctx.adminToken, "v3_certificate", fingerprint);
      await counted("v3BulkMisses", V3_BULK_PATH, bearer, miss, body);
    }
    // Hits read from D1: the same certificates once no memory holds them, the credentials loaded
    // again first (their reload is a read of its own, which the counted requests then skip).
    await sleep(PAST_MEMORY_HOLD_MS);
    await warmCredentials();
    for (const fingerprint of certificates) {
      await counted("d1Hit", viewPath(fingerprint), basic, hit);
      await counted("v3D1Hit", v3CertificatePath(fingerprint), bearer, hit);
    }

    const counts = countsByKind(readings);
    return {
      kind: "ran",
      sample: sampleOf(answers),
      connections: 1,
      target: `${ROUNDS} requests of each kind, one at a time, each asking X-D1-Statements`,
      counts,
      notes: [
        ...(Object.entries(REQUEST_KINDS) as Array<[RequestKind, string]>).map(
          ([kind, what]) =>
            `${kind} (${what}): D1 statements ${figure(counts, kind, "Statements")}, ledger calls ${figure(counts, kind, "LedgerCalls")}`,
        ),
        ...unexpected.map((line) => `not of its kind (a failed request, its counts left out): ${line}`),
      ],
    };
  },
};

/** "p50 1, min 1, max 2", or "not reported" when the edge did not say. */
function figure(counts: Record<string, number>, kind: string, name: string): string {
  const [p50, min, max] = ["P50", "Min", "Max"].map((q) => counts[`${kind}${name}${q}`]);
  if (p50 === undefined) return "not reported";
  return min === max ? `${p50}` : `p50 ${p50}, min ${min}, max ${max}`;
}
