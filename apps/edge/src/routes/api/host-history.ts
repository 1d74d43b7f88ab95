import {
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  v2Envelope,
} from "@scangate/core";
import { defineRoute } from "../../pipeline/define-route";
import { talliedRelay, upstreamPath } from "../../pipeline/exchange";
import { forward } from "../../pipeline/forward";
import { component } from "../../openapi/components";
import { relayedResponse } from "../../upstream/relay";
import { HOST_DIFF_PRICE, HOST_EVENTS_PRICE } from "../../upstream/legacy-credits";

/** The two hosts of a diff on a Platform-only upstream: held for both, settled to the lookups made. */
const HOSTS_IN_A_DIFF = 2;

/**
 * GET /api/v2/hosts/{ip}/diff (`view_host_diff`): forwarded as it is; with a Platform-only
 * upstream, two host lookups, billed per lookup that answered.
 */
export const hostDiffRoute = defineRoute({
  method: "GET",
  path: "/api/v2/hosts/:ip/diff",
  operation: "host_diff",
  api: "v2",
  price: HOST_DIFF_PRICE,
  summary: "A host against itself at another time, or against another host (JSON Patch)",
  query: hostDiffQuerySchema,
  ok: component("HostDiffResponse", v2Envelope(hostDiffResultSchema)),
  handler: async (c) =>
    c.get("services").config.upstreamApi === "platform"
      ? relayedResponse(await talliedRelay(c, { method: "GET", path: upstreamPath(c) }, HOSTS_IN_A_DIFF))
      : forward(c),
});

/**
 * GET /api/v2/experimental/hosts/{ip}/events (`view_host_events`): forwarded as it is (with a
 * Platform-only upstream, the host's timeline).
 */
export const hostEventsRoute = defineRoute({
  method: "GET",
  path: "/api/v2/experimental/hosts/:ip/events",
  operation: "host_events",
  api: "v2",
  price: HOST_EVENTS_PRICE,
  summary: "A host's history as events, a page at a time",
  query: hostEventsQuerySchema,
  ok: component("HostEventsResponse", v2Envelope(hostEventsResultSchema)),
  handler: forward,
});
