import { basicToken, type Clock } from "@scangate/core/http";
import type { UpstreamCredential } from "../config";

/** How long a credential rests after the upstream refused it. */
export const REST_AFTER_REFUSAL_MS = 60_000;
const MAX_REST_MS = 60 * 60_000;

/**
 * The upstream credentials, taken in turn. A credential the upstream answers with 401, 403 or
 * 429 rests (for its Retry-After, or a minute) while the others carry the traffic.
 */
export class CredentialPool {
  private readonly restingUntil = new Map<string, number>();
  private turn = 0;

  constructor(
    private readonly credentials: readonly UpstreamCredential[],
    private readonly clock: Clock,
  ) {
    if (credentials.length === 0) throw new Error("the upstream credential pool is empty");
  }

  /**
   * Credentials to try for one request, in order: the awake ones starting at this request's
   * turn; if all rest, only the one that wakes soonest (a request is never refused untried).
   */
  candidates(): UpstreamCredential[] {
    const now = this.clock.now();
    const start = this.turn++ % this.credentials.length;
    const rotated = [...this.credentials.slice(start), ...this.credentials.slice(0, start)];
    const awake = rotated.filter((c) => (this.restingUntil.get(c.apiId) ?? 0) <= now);
    if (awake.length > 0) return awake;
    const soonest = [...rotated].sort(
      (a, b) => (this.restingUntil.get(a.apiId) ?? 0) - (this.restingUntil.get(b.apiId) ?? 0),
    )[0];
    return soonest ? [soonest] : [];
  }

  /** Each secret and its Basic encoding: strings no answer to a tenant may contain. */
  secretMarkers(): string[] {
    return this.credentials.flatMap((c) => [c.apiSecret, basicToken(c.apiId, c.apiSecret)]);
  }

  find(apiId: string): UpstreamCredential | undefined {
    return this.credentials.find((c) => c.apiId === apiId);
  }

  rest(apiId: string, forMs: number): void {
    this.restingUntil.set(apiId, this.clock.now() + Math.min(Math.max(forMs, 0), MAX_REST_MS));
  }

  isResting(apiId: string): boolean {
    return (this.restingUntil.get(apiId) ?? 0) > this.clock.now();
  }
}

/** Whether an upstream status means "this credential, not this request" (rest it, try another). */
export function refusesCredential(status: number): boolean {
  return status === 401 || status === 403 || status === 429;
}

/** Rest time for a refusal: the upstream's Retry-After (seconds) when it gives one. */
export function restDuration(response: Response): number {
  const retryAfter = Number(response.headers.get("retry-after"));
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : REST_AFTER_REFUSAL_MS;
}
