import type { Clock } from "@scangate/core/http";
import type { Env } from "../env";
import type { RateDecision, RateLimiter } from "../ratelimit/interface";
import { bindingRateLimiter } from "../ratelimit/workers";

/**
 * Sign-in throttling for the tenant dashboard and the admin console, shaped so that nobody can
 * turn it against the owner of a credential:
 *
 * - Hard limits (429) only on buckets the client's own address is part of: every attempt from
 *   one address, one account from one address, and the admin console from one address. The
 *   admin console has its own bucket: a tenant's attempts never count against it.
 * - One account from every address is only slowed down, never refused: past `account.limit`
 *   attempts a minute, each further window of `account.limit` adds a step of delay
 *   (`ACCOUNT_DELAY_STEPS_MS`, capped). A stranger who knows an API id can make its owner wait a
 *   few seconds, never lock it out.
 * - An attempt refused by a hard limit stops there: it adds nothing to the account's delay.
 * - An unknown address gets no hard bucket: it would be one bucket shared by every client
 *   without an address, so one of them could lock out the others. Only the account's delay
 *   applies to it.
 *
 * So a correct credential from an address that is not itself throttled is always accepted.
 *
 * Every attempt counts, not only failures: the check (and the delay) comes before the
 * credentials are looked at, or a guesser would learn when a guess was right.
 */
export const SIGNIN_LIMITS = {
  /** Every tenant sign-in attempt from one address, whichever API id it names. */
  address: { binding: "RATE_LIMIT_SIGNIN_ADDRESS", limit: 20, periodSeconds: 60 },
  /** One API id from one address. */
  accountAddress: { binding: "RATE_LIMIT_SIGNIN_ACCOUNT_ADDRESS", limit: 5, periodSeconds: 60 },
  /** The admin console from one address (its own bucket). */
  adminAddress: { binding: "RATE_LIMIT_SIGNIN_ADMIN", limit: 10, periodSeconds: 60 },
  /** One account (an API id, or the admin console) from every address: counted in steps, for the delay. */
  account: { binding: "RATE_LIMIT_SIGNIN_ACCOUNT", limit: 5, periodSeconds: 60 },
} as const;

export type SignInScope = keyof typeof SIGNIN_LIMITS;

/**
 * The wait before an attempt on an account, by how many windows of `account.limit` attempts in
 * the last minute came before it: none for the first five, then 0.5 s, 1 s, 2 s, and 4 s at most.
 */
export const ACCOUNT_DELAY_STEPS_MS = [0, 500, 1_000, 2_000, 4_000] as const;

/** The limiter counting each scope's attempts, keyed by what the scope names. */
export type SignInLimiters = Readonly<Record<SignInScope, RateLimiter>>;

/** The admin console's account key (a tenant's is `["tenant", apiId]`). */
const ADMIN_ACCOUNT = JSON.stringify(["admin"]);

export class SignInThrottle {
  constructor(
    private readonly limiters: SignInLimiters,
    private readonly pause: (ms: number) => Promise<void>,
  ) {}

  /** Counts one tenant sign-in attempt for `apiId` from `address`, then waits out the account's delay. */
  async admitTenant(apiId: string, address: string | undefined): Promise<RateDecision> {
    const account = apiId.toLowerCase();
    if (address !== undefined) {
      const refused =
        (await this.count("address", address)) ??
        (await this.count("accountAddress", JSON.stringify([account, address])));
      if (refused) return refused;
    }
    await this.pause(await this.accountDelayMs(JSON.stringify(["tenant", account])));
    return { allowed: true };
  }

  /** Counts one admin console sign-in attempt from `address`, then waits out the console's delay. */
  async admitAdmin(address: string | undefined): Promise<RateDecision> {
    if (address !== undefined) {
      const refused = await this.count("adminAddress", address);
      if (refused) return refused;
    }
    await this.pause(await this.accountDelayMs(ADMIN_ACCOUNT));
    return { allowed: true };
  }

  /** Undefined when the attempt is within the scope's limit, else the refusal. */
  private async count(scope: SignInScope, key: string): Promise<RateDecision | undefined> {
    const decision = await this.limiters[scope].check(key, scope);
    return decision.allowed
      ? undefined
      : { allowed: false, retryAfterSeconds: SIGNIN_LIMITS[scope].periodSeconds };
  }

  /**
   * Steps through the account's windows: the first with room takes this attempt, and its
   * index picks the delay. Past the last step every attempt waits the longest delay.
   */
  private async accountDelayMs(account: string): Promise<number> {
    const limiter = this.limiters.account;
    for (const [step, delayMs] of ACCOUNT_DELAY_STEPS_MS.entries()) {
      if ((await limiter.check(`${account}#${step}`, "account")).allowed) return delayMs;
    }
    return Math.max(...ACCOUNT_DELAY_STEPS_MS);
  }
}

/**
 * The Workers Rate Limiting bindings declared in wrangler.jsonc; for each one `env` lacks, exact
 * fixed windows in this isolate's memory on `clock` (tests pass no bindings and move the clock).
 */
export function signInLimiters(env: Partial<Env>, clock: Clock): SignInLimiters {
  const limiter = (scope: SignInScope) =>
    bindingRateLimiter(env[SIGNIN_LIMITS[scope].binding], SIGNIN_LIMITS[scope], clock);
  return {
    address: limiter("address"),
    accountAddress: limiter("accountAddress"),
    adminAddress: limiter("adminAddress"),
    account: limiter("account"),
  };
}

/** Longest address kept as a throttle key (an IPv6 address in text is at most 45 characters). */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The client's address: `CF-Connecting-IP`, which Cloudflare sets on every request and
 * miniflare (`wrangler dev`, the local start command) sets from the connection's peer address;
 * else the peer address workerd reports in `cf.clientIp`; else undefined (a direct workerd
 * socket reports none). Off Cloudflare a client can send its own `CF-Connecting-IP`.
 */
export function clientAddress(request: Request): string | undefined {
  const cf = request.cf as { clientIp?: unknown } | undefined;
  const reported = request.headers.get("cf-connecting-ip") ?? cf?.clientIp;
  if (typeof reported !== "string") return undefined;
  const address = reported.trim().toLowerCase();
  if (address === "") return undefined;
  // An oversized value is still a key of its own (never "unknown"), just not an unbounded one.
  return address.length > MAX_ADDRESS_LENGTH ? `long:${address.slice(0, MAX_ADDRESS_LENGTH)}` : address;
}

/** Waits `ms` on the wall clock (a Worker's timers do advance while it waits on I/O). */
export function wallClockPause(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
