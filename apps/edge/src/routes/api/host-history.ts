import {
  hostDiffQuerySchema,
  hostDiffResultSchema,
  hostEventsQuerySchema,
  hostEventsResultSchema,
  v2Envelope,
} from "@scangate/core";
import { defineRoute } from "../../pipeline/define-route";
import { forward } from "../../pipeline/forward";
import { component } from "../../openapi/components";
import { ONE_PER_REQUEST } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";

const HISTORY_PRICE = legacyOnly(
  ONE_PER_REQUEST.legacy,
  "host events and diffs are not translated (compare /api/v2/hosts/{ip}?at_time=... at two times, or use the Platform's /v3/global/asset/host/{ip}/timeline)",
);

/** GET /api/v2/hosts/{ip}/diff (`view_host_diff`): forwarded as it is. */
export const hostDiffRoute = defineRoute({
  method: "GET",
  path: "/api/v2/hosts/:ip/diff",
  operation: "host_diff",
  api: "v2",
  price: HISTORY_PRICE,
  summary: "A host against itself at another time, or against another host (JSON Patch)",
  query: hostDiffQuerySchema,
  ok: component("HostDiffResponse", v2Envelope(hostDiffResultSchema)),
  handler: forward,
});

/** GET /api/v2/experimental/hosts/{ip}/events (`view_host_events`): forwarded as it is. */
export const hostEventsRoute = defineRoute({
  method: "GET",
  path: "/api/v2/experimental/hosts/:ip/events",
  operation: "host_events",
  api: "v2",
  price: HISTORY_PRICE,
  summary: "A host's history as events, a page at a time",
  query: hostEventsQuerySchema,
  ok: component("HostEventsResponse", v2Envelope(hostEventsResultSchema)),
  handler: forward,
});
