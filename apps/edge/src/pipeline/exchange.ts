import { ApiError, MAX_REQUEST_BODY_BYTES } from "@scangate/core";
import { requestTarget } from "@scangate/core/http";
import type { PlatformTally, V1Paging } from "../upstream/interface";
import { type Relayed, relayJson } from "../upstream/relay";
import type { ApiContext } from "./define-route";

// The steps every forwarded API request shares: reading the caller's body, naming the upstream
// path, and asking the upstream with the request's account charged for it.

/** The caller's body, bounded: larger than MAX_REQUEST_BODY_BYTES is a 413. */
export async function readRequestBody(c: ApiContext): Promise<Uint8Array | undefined> {
  if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
  const declared = Number(c.req.header("content-length") ?? 0);
  if (declared > MAX_REQUEST_BODY_BYTES) throw new ApiError("payload_too_large");
  const body = new Uint8Array(await c.req.arrayBuffer());
  if (body.byteLength > MAX_REQUEST_BODY_BYTES) throw new ApiError("payload_too_large");
  return body;
}

/** Whether the upstream speaks only the Platform API (UPSTREAM_API=platform): legacy calls are translated. */
export const onPlatform = (c: ApiContext): boolean => c.get("services").config.upstreamApi === "platform";

/** The request's canonical path below `/api` (core http/request-target.ts), with its query as sent. */
export function upstreamPath(c: ApiContext): string {
  const { pathname, search } = requestTarget(c.req.url);
  return pathname.replace(/^\/api(?=\/)/, "") + search;
}

export interface UpstreamRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: Uint8Array | undefined;
  readonly credentialId?: string | undefined;
  /** A v1 search's kept page tokens (read by a Platform-only upstream). */
  readonly paging?: V1Paging | undefined;
  readonly tally?: PlatformTally | undefined;
}

/** One upstream call on behalf of this request, counted in its account. */
export async function askUpstream(c: ApiContext, call: UpstreamRequest): Promise<Relayed> {
  const services = c.get("services");
  c.get("account").upstreamCall();
  return relayJson(
    services.upstream,
    { ...call, contentType: call.body ? (c.req.header("content-type") ?? "application/json") : undefined },
    services.config.upstreamTimeoutMs,
  );
}

/**
 * Charge, forward, and refund when the upstream fails (an edge-made 502/504, or any non-2xx
 * answer: the upstream spent nothing it would bill for). `keepOnTimeout`: a call whose effect
 * may have happened although its answer never came (a job queued upstream) keeps its charge.
 *
 * On a Platform-only upstream the call keeps what the Platform billed, whatever the legacy
 * answer: one credit per Platform call that answered (every call a translation makes costs one),
 * up to its price. A search that finds nothing is billed, so the legacy 404 it becomes is paid;
 * a lookup the Platform answers 404 is not.
 */
export async function chargedRelay(
  c: ApiContext,
  call: UpstreamRequest,
  options: { keepOnTimeout?: boolean } = {},
): Promise<Relayed> {
  const account = c.get("account");
  const charge = await account.charge();
  const tally = onPlatform(c) ? { answered: 0 } : undefined;
  let relayed: Relayed;
  try {
    relayed = await askUpstream(c, tally ? { ...call, tally } : call);
  } catch (error) {
    const timedOut = error instanceof ApiError && error.kind === "upstream_timeout";
    if (!(timedOut && options.keepOnTimeout)) await account.refund(charge, tally?.answered);
    throw error;
  }
  if (tally || relayed.status < 200 || relayed.status >= 300) await account.refund(charge, tally?.answered);
  return relayed;
}

/**
 * A legacy call on a Platform-only upstream whose Platform calls vary (a search walking pages,
 * a diff reading two hosts): the most it can cost (`units` of its price) is held, then settled
 * to the Platform calls that answered, which the Platform charged, whatever the legacy answer.
 */
export async function talliedRelay(c: ApiContext, call: UpstreamRequest, units: number): Promise<Relayed> {
  const account = c.get("account");
  const hold = await account.hold(units);
  const tally = { answered: 0 };
  try {
    return await askUpstream(c, { ...call, tally });
  } finally {
    await account.settle(hold, tally.answered);
  }
}
