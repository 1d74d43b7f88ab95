import { ApiError, MAX_REQUEST_BODY_BYTES } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import type { Context } from "hono";
import type { AppEnv } from "../app-env";
import { deferFor } from "../middleware/tenant-auth";
import { LEASE_MS } from "../quota/leases";
import type { Charge } from "../quota/ledger";
import { type QuotaState, secondsUntilReset } from "../tenants/periods";
import { type Relayed, relayJson } from "../upstream/relay";

// The steps every forwarded API request shares: naming its operation, charging and refunding
// quota, reading the caller's body, and asking the upstream.

export type ApiContext = Context<AppEnv>;

/**
 * The quota after this request's charge or refund, for its RateLimit headers. The auth cache is
 * told it through its own method, for this isolate's next requests: no route writes its rows.
 */
function noteQuota(c: ApiContext, quota: QuotaState): void {
  c.set("quota", quota);
  c.get("services").auth.rememberQuota(c.get("tenant").apiId, quota);
}

/** Retry-After of a refusal that held credits would have covered: a lease's time, rounded up. */
const HELD_RETRY_AFTER_SECONDS = Math.ceil(LEASE_MS / 1000);
const HELD_MESSAGE = "The rest of your quota is held by requests still in flight; retry in a few seconds.";

/**
 * Charges the route's cost (set when the route was matched; nothing for free routes). An exhausted allowance is a 429
 * `quota_exceeded` with Retry-After until the reset (none for one-time credits); one that credits
 * still held (quota/holds.ts, quota/leases.ts) would cover says so, with a Retry-After of seconds.
 * `held`: the caller records the charge in a credit hold of its own (ChargeOptions).
 */
export async function chargeRequest(c: ApiContext, options: { held?: boolean } = {}): Promise<Charge | null> {
  const cost = c.get("cost");
  if (cost === 0) return null;
  const services = c.get("services");
  const result = await services.quota.charge(c.get("tenant").id, cost, { ...options, defer: deferFor(c) });
  if (result.ok) {
    noteQuota(c, result.charge.quota);
    c.get("usage").quotaSpent += cost;
    return result.charge;
  }
  if (result.reason === "no_tenant") throw new ApiError("unauthorized");
  noteQuota(c, result.quota);
  const { quota, held } = result;
  if (quota.used - held + cost <= quota.allowance) {
    // What is left is held by calls in flight or another isolate's lease: back within seconds.
    c.header("Retry-After", String(HELD_RETRY_AFTER_SECONDS));
    throw new ApiError("quota_exceeded", HELD_MESSAGE);
  }
  const retryAfter = secondsUntilReset(quota, services.clock.now());
  if (retryAfter !== null) c.header("Retry-After", String(retryAfter));
  throw new ApiError("quota_exceeded");
}

/**
 * Gives the charge back. A refund that fails keeps the charge and still lets the request answer:
 * the write may have landed before D1 reported the failure, so retrying it could give the
 * charge back twice, and a refund is not worth failing the upstream's answer for.
 */
export async function refundRequest(c: ApiContext, charge: Charge | null): Promise<void> {
  if (!charge) return;
  try {
    await c.get("services").quota.refund(charge);
  } catch (error) {
    console.error("quota refund failed; the charge stands", error instanceof Error ? error.message : error);
    return;
  }
  const quota = c.get("quota");
  noteQuota(c, { ...quota, used: Math.max(0, quota.used - charge.cost) });
  c.get("usage").quotaSpent -= charge.cost;
}

/** The caller's body, bounded: larger than MAX_REQUEST_BODY_BYTES is a 413. */
export async function readRequestBody(c: ApiContext): Promise<Uint8Array | undefined> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > MAX_REQUEST_BODY_BYTES) throw new ApiError("payload_too_large");
  const body = new Uint8Array(await c.req.arrayBuffer());
  if (body.byteLength > MAX_REQUEST_BODY_BYTES) throw new ApiError("payload_too_large");
  return body;
}

/** The request's path below `/api`, with its query string exactly as sent. */
export function upstreamPath(c: ApiContext): string {
  const { pathname, search } = requestTarget(c.req.url);
  // Still percent-encoded as sent; `//` and a trailing `/` folded as the router folds them.
  const path = pathname.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
  return path.replace(/^\/api(?=\/)/, "") + search;
}

/** One upstream call on behalf of this request, counted in its usage. */
export async function askUpstream(
  c: ApiContext,
  call: { method: string; path: string; body?: Uint8Array | undefined; credentialId?: string | undefined },
): Promise<Relayed> {
  const services = c.get("services");
  c.get("usage").upstreamCalls += 1;
  return relayJson(
    services.upstream,
    { ...call, contentType: call.body ? (c.req.header("content-type") ?? "application/json") : undefined },
    services.config.upstreamTimeoutMs,
  );
}

/**
 * Charge, forward, and refund when the upstream fails (an edge-made 502/504, or any non-2xx
 * answer: the upstream spent nothing it would bill for).
 */
export async function chargedRelay(
  c: ApiContext,
  call: { method: string; path: string; body?: Uint8Array | undefined; credentialId?: string | undefined },
): Promise<Relayed> {
  const charge = await chargeRequest(c);
  let relayed: Relayed;
  try {
    relayed = await askUpstream(c, call);
  } catch (error) {
    await refundRequest(c, charge);
    throw error;
  }
  if (relayed.status < 200 || relayed.status >= 300) await refundRequest(c, charge);
  return relayed;
}
