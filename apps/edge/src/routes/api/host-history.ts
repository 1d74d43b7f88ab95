import {
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  v2Envelope,
} from "@scangate/core";
import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";
import { component } from "../../openapi/components";

/** GET /api/v2/hosts/{ip}/diff (`view_host_diff`): forwarded as it is. */
export const hostDiffRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/hosts/:ip/diff",
  operation: "host_diff",
  version: "v2",
  cost: 1,
  summary: "A host against itself at another time, or against another host (JSON Patch)",
  query: hostDiffQuerySchema,
  ok: component("HostDiffResponse", v2Envelope(hostDiffResultSchema)),
  handler: forward,
});

/** GET /api/v2/experimental/hosts/{ip}/events (`view_host_events`): forwarded as it is. */
export const hostEventsRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/experimental/hosts/:ip/events",
  operation: "host_events",
  version: "v2",
  cost: 1,
  summary: "A host's history as events, a page at a time",
  query: hostEventsQuerySchema,
  ok: component("HostEventsResponse", v2Envelope(hostEventsResultSchema)),
  handler: forward,
});
