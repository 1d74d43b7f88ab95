import { relayFile } from "../upstream/file";
import { rebaseUpstreamLinks } from "../upstream/rebase";
import { type Relayed, relayedResponse } from "../upstream/relay";
import type { ApiContext } from "./define-route";
import { chargedRelay, readRequestBody, upstreamPath } from "./exchange";

async function relayAsSent(c: ApiContext): Promise<Relayed> {
  const body = await readRequestBody(c);
  return chargedRelay(c, { method: c.req.method, path: upstreamPath(c), body });
}

/** The request forwarded as it is (charged, refunded when the upstream fails). */
export async function forward(c: ApiContext): Promise<Response> {
  return relayedResponse(await relayAsSent(c));
}

/** Forwarded, with the answer's links to the upstream re-rooted at the edge (raw data). */
export async function forwardRebasingLinks(c: ApiContext): Promise<Response> {
  const relayed = await relayAsSent(c);
  if (relayed.status !== 200) return relayedResponse(relayed);
  const edgeBase = `${new URL(c.req.url).origin}/api`;
  return c.json(
    rebaseUpstreamLinks(relayed.json, c.get("services").upstream.baseUrl, edgeBase) as object,
    200,
  );
}

/** A file the upstream serves under /api, streamed through. */
export async function forwardFile(c: ApiContext): Promise<Response> {
  const { upstream, config } = c.get("services");
  c.get("account").upstreamCall();
  return relayFile(config.upstreamTimeoutMs, async (signal) => {
    const { response } = await upstream.call({ method: "GET", path: upstreamPath(c), signal });
    return response;
  });
}
