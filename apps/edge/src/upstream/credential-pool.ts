import { basicAuthorization, basicToken, type Clock } from "@scangate/core/http";
import type { UpstreamCredential } from "../config";
import type { UpstreamAnswer } from "./interface";

/** How long a credential rests after the upstream refused it. */
const REST_AFTER_REFUSAL_MS = 60_000;
const MAX_REST_MS = 60 * 60_000;

/**
 * Upstream credentials, taken in turn. A credential the upstream answers with 401, 403 or 429
 * rests (for its Retry-After, or a minute) while the others carry the traffic. `keyOf` names a
 * credential by something that is not its secret; `secretsOf` gives the strings no answer to a
 * tenant may contain.
 */
export class RotatingPool<T> {
  private readonly restingUntil = new Map<string, number>();
  private turn = 0;
  private markers: readonly string[] | undefined;

  constructor(
    protected readonly credentials: readonly T[],
    readonly keyOf: (credential: T) => string,
    private readonly secretsOf: (credential: T) => string[],
    private readonly clock: Clock,
  ) {
    if (credentials.length === 0) throw new Error("the upstream credential pool is empty");
  }

  /**
   * Credentials to try for one request, in order: the awake ones starting at this request's
   * turn; if all rest, only the one that wakes soonest (a request is never refused untried).
   */
  candidates(): T[] {
    const now = this.clock.now();
    const start = this.turn++ % this.credentials.length;
    const rotated = [...this.credentials.slice(start), ...this.credentials.slice(0, start)];
    const wakesAt = (c: T) => this.restingUntil.get(this.keyOf(c)) ?? 0;
    const awake = rotated.filter((c) => wakesAt(c) <= now);
    if (awake.length > 0) return awake;
    const soonest = [...rotated].sort((a, b) => wakesAt(a) - wakesAt(b))[0];
    return soonest ? [soonest] : [];
  }

  find(key: string): T | undefined {
    return this.credentials.find((c) => this.keyOf(c) === key);
  }

  rest(key: string, forMs: number): void {
    this.restingUntil.set(key, this.clock.now() + Math.min(Math.max(forMs, 0), MAX_REST_MS));
  }

  /**
   * Sends with each of `candidates` in turn until the upstream does not refuse the credential:
   * a refused one rests (rest time from the answer's Retry-After) and the next is tried. The
   * last answer stands when every one is refused.
   */
  async firstAccepted(
    candidates: readonly T[],
    send: (credential: T) => Promise<Response>,
  ): Promise<UpstreamAnswer> {
    let answer: UpstreamAnswer | undefined;
    for (const [i, credential] of candidates.entries()) {
      const response = await send(credential);
      answer = { response, credentialId: this.keyOf(credential) };
      if (!refusesCredential(response.status)) return answer;
      this.rest(answer.credentialId, restDuration(response));
      if (i < candidates.length - 1) await response.body?.cancel();
    }
    if (!answer) throw new Error("no upstream credential to try");
    return answer;
  }

  /** Whether `text` contains a secret of the pool: such an answer is never relayed. */
  revealsCredential(text: string): boolean {
    this.markers ??= this.credentials.flatMap(this.secretsOf);
    return this.markers.some((marker) => text.includes(marker));
  }
}

/** The legacy API's pool: Basic credentials named by their API id; each secret and its Basic encoding are secret. */
export class CredentialPool extends RotatingPool<UpstreamCredential> {
  constructor(credentials: readonly UpstreamCredential[], clock: Clock) {
    super(
      credentials,
      (c) => c.apiId,
      (c) => [c.apiSecret, basicToken(c.apiId, c.apiSecret)],
      clock,
    );
  }

  /** Each credential's `Authorization` value, encoded once rather than on every call. */
  private readonly authorizations = new Map(
    this.credentials.map((c) => [c, basicAuthorization(c.apiId, c.apiSecret)]),
  );

  authorization(credential: UpstreamCredential): string {
    return this.authorizations.get(credential) ?? basicAuthorization(credential.apiId, credential.apiSecret);
  }
}

/** Whether an upstream status means "this credential, not this request" (rest it, try another). */
function refusesCredential(status: number): boolean {
  return status === 401 || status === 403 || status === 429;
}

/** Rest time for a refusal: the upstream's Retry-After (seconds) when it gives one. */
function restDuration(response: Response): number {
  const retryAfter = Number(response.headers.get("retry-after"));
  return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : REST_AFTER_REFUSAL_MS;
}
