import { ApiError, v3Envelope, v3OrganizationCreditsSchema } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { awaitFlight } from "../cache/single-flight";
import type { Env } from "../env";
import { jsonOf } from "../http/json-body";
import { type EdgeServices, platformUpstreamOf } from "../services";
import { type PlatformUpstream, relayPlatform } from "../upstream/platform";

// The Platform organizations' remaining credits, for the dashboards: read from the upstream's
// GET /v3/accounts/organizations/{org}/credits and held in memory per isolate for a minute, so
// page views never hammer the upstream (concurrent views of an expired entry share one call). A
// failure is an answer too ("unavailable", held briefly), never an error page.

/** How long a balance read is shown before the next page view reads it again. */
export const BALANCE_TTL_MS = 60_000;
/** A failed read is retried sooner: the upstream may be back. */
export const BALANCE_FAILURE_TTL_MS = 15_000;
/** A page waits at most this long for the upstream; past it the balance is "unavailable". */
const BALANCE_TIMEOUT_MS = 5_000;

export type OrganizationBalance =
  | { organizationId: string; ok: true; balance: number; readAt: number }
  | { organizationId: string; ok: false; problem: string; readAt: number };

function unavailable(organizationId: string, problem: string, clock: Clock): OrganizationBalance {
  return { organizationId, ok: false, problem, readAt: clock.now() };
}

/** Balances per organization, each read at most once per TTL (failures for a shorter one). */
export class BalanceCache {
  private readonly held = new Map<string, { until: number; answer: Promise<OrganizationBalance> }>();

  constructor(
    private readonly read: (organizationId: string) => Promise<OrganizationBalance>,
    private readonly clock: Clock,
    private readonly ttlMs = BALANCE_TTL_MS,
    private readonly failureTtlMs = BALANCE_FAILURE_TTL_MS,
    private readonly joinWaitMs = BALANCE_TIMEOUT_MS + 1_000,
  ) {}

  /**
   * The held balance, or a new read. Until a read settles every view shares it (readers must
   * settle: readOrganizationCredits has a deadline); then it is held for the TTL of its outcome.
   */
  async get(organizationId: string): Promise<OrganizationBalance> {
    const current = this.held.get(organizationId);
    if (current && current.until > this.clock.now()) {
      // Another request's read may still be under way: wait on a timer of this request's own
      // (cache/single-flight.ts says why), and past the read's own deadline give up on it.
      const joined = await awaitFlight(current.answer, this.joinWaitMs);
      return joined.ended
        ? joined.value
        : unavailable(organizationId, "the upstream did not answer in time", this.clock);
    }
    const answer: Promise<OrganizationBalance> = Promise.resolve()
      .then(() => this.read(organizationId))
      .catch((error: unknown): OrganizationBalance => {
        console.error("organization balance read failed", error instanceof Error ? error.message : error);
        return unavailable(organizationId, "it could not be read", this.clock);
      })
      .then((read) => {
        const entry = this.held.get(organizationId);
        if (entry?.answer === answer)
          entry.until = this.clock.now() + (read.ok ? this.ttlMs : this.failureTtlMs);
        return read;
      });
    this.held.set(organizationId, { until: Number.POSITIVE_INFINITY, answer });
    return answer;
  }
}

/** Why a balance could not be read, in words for the page (never the upstream's body). */
function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === "upstream_timeout") return "the upstream did not answer in time";
    if (error.message.includes("refused")) return "the upstream refused the gateway's token";
  }
  return "the upstream could not be reached";
}

/** Reads one organization's credits through `upstream` (whose tokens must belong to it). */
async function readOrganizationCredits(
  upstream: PlatformUpstream,
  organizationId: string,
  clock: Clock,
): Promise<OrganizationBalance> {
  const failed = (problem: string) => unavailable(organizationId, problem, clock);
  const target = `/v3/accounts/organizations/${encodeURIComponent(organizationId)}/credits`;
  let relayed;
  try {
    relayed = await relayPlatform(upstream, { method: "GET", target }, BALANCE_TIMEOUT_MS);
  } catch (error) {
    return failed(problemOf(error));
  }
  if (relayed.status !== 200) return failed(`the upstream answered HTTP ${relayed.status}`);
  const json = jsonOf(relayed.body);
  if (json === undefined) return failed("the upstream's answer is not JSON");
  const parsed = v3Envelope(v3OrganizationCreditsSchema).safeParse(json);
  if (!parsed.success) return failed("the upstream's answer is not an organization's credits");
  return { organizationId, ok: true, balance: parsed.data.result.balance, readAt: clock.now() };
}

/** The per-isolate balance cache of each services object (one per isolate in production). */
const caches = new WeakMap<EdgeServices, BalanceCache>();

/**
 * The remaining credits of each organization of the Platform pool, in the pool's order; empty
 * when no Platform upstream is configured.
 */
export async function organizationBalances(services: EdgeServices, env: Env): Promise<OrganizationBalance[]> {
  const { platform, clock } = services;
  const config = services.config.platform;
  if (!config || !platform) return [];
  const organizations = [...new Set(config.credentials.map((c) => c.organizationId))];
  let cache = caches.get(services);
  if (!cache) {
    // One upstream per organization, each holding only that organization's tokens: a token asked
    // about another organization is refused (403), and the shared pool would rest it. With a
    // single organization (the usual case) that is the shared upstream itself.
    const upstreams = new Map(
      organizations.map((organizationId) => {
        const credentials = config.credentials.filter((c) => c.organizationId === organizationId);
        const upstream =
          organizations.length === 1 ? platform : platformUpstreamOf(env, { ...config, credentials }, clock);
        return [organizationId, upstream];
      }),
    );
    cache = new BalanceCache(async (organizationId) => {
      const upstream = upstreams.get(organizationId);
      if (!upstream) return unavailable(organizationId, "no token of it is configured", clock);
      return readOrganizationCredits(upstream, organizationId, clock);
    }, clock);
    caches.set(services, cache);
  }
  return Promise.all(organizations.map((organizationId) => cache.get(organizationId)));
}
