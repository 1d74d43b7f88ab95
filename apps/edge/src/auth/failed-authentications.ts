import type { Clock } from "@scangate/core/http";
import { setBounded } from "../http/bounded-memo";
import type { RateDecision, RateLimiter } from "../ratelimit/interface";

// What a refused credential costs on /api and /v3. A flood of bad credentials must not slow the
// edge for the tenants whose credentials are good, so:
// - a credential refused within the last few seconds is refused again from this isolate's
//   memory, without reading D1 or hashing anything;
// - each refusal counts against the client's address (a hard limit per address, as the sign-in
//   throttle keeps: sessions/signin-throttle.ts); an address past it is refused with a 429 for
//   any credential this isolate does not already know to be good, again without D1.
// Nobody can lock out an owner: the limit is on the address the failures come from, and a
// credential this isolate has checked in the last seconds (the auth cache) still passes there.

/** Failed authentications from one address, and the window they are counted in. */
export const AUTH_FAILURE_LIMIT = {
  binding: "RATE_LIMIT_AUTH_FAILURES",
  limit: 30,
  periodSeconds: 60,
} as const;

/** How long a refused credential is answered from memory: as long as a good one is (the auth cache). */
const REMEMBERED_REFUSALS = 4096;
/** Longer Authorization values are not remembered (they are refused all the same). */
const MAX_REMEMBERED_LENGTH = 512;

export class FailedAuthentications {
  private readonly refused = new Map<string, number>();
  /** Addresses past their failure limit, and until when (as this isolate last heard). */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly rememberMs: number,
  ) {}

  /** Whether `credential` (an Authorization value) was refused here in the last few seconds. */
  recentlyRefused(credential: string): boolean {
    const at = this.refused.get(credential);
    if (at === undefined) return false;
    if (this.clock.now() - at < this.rememberMs) return true;
    this.refused.delete(credential);
    return false;
  }

  /** Whether `address` is past its failure limit: a credential not known good is refused unread. */
  addressRefusal(address: string | undefined): RateDecision {
    if (address === undefined) return { allowed: true };
    const until = this.blocked.get(address);
    if (until === undefined) return { allowed: true };
    const now = this.clock.now();
    if (until <= now) {
      this.blocked.delete(address);
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  /**
   * Counts a refused `credential` from `address`: remembered for a few seconds, and counted
   * against the address (an unknown address has no bucket: it would be one shared by every
   * client without one, so one of them could lock out the others).
   */
  async failed(credential: string | undefined, address: string | undefined): Promise<void> {
    if (credential !== undefined && credential.length <= MAX_REMEMBERED_LENGTH) {
      setBounded(this.refused, credential, this.clock.now(), REMEMBERED_REFUSALS);
    }
    if (address === undefined) return;
    const decision = await this.limiter.check(address, "auth_failures");
    if (!decision.allowed) this.blocked.set(address, this.clock.now() + decision.retryAfterSeconds * 1000);
  }

  /** Forgets every remembered refusal: a tenant or token made here a moment ago must work at once. */
  forgetRefusals(): void {
    this.refused.clear();
  }
}
