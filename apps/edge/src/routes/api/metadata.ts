import { hostsMetadataResultSchema, v2Envelope } from "@scangate/core";
import { defineApiRoute } from "../../api/define-route";
import { forward } from "../../api/forward";
import { component } from "../../openapi/components";

/** GET /api/v2/metadata/hosts (`CensysHosts.metadata()`): free, forwarded as it is. */
export const hostsMetadataRoute = defineApiRoute({
  method: "GET",
  path: "/api/v2/metadata/hosts",
  operation: "hosts_metadata",
  version: "v2",
  cost: 0,
  summary: "What the hosts index holds (service names)",
  ok: component("HostsMetadataResponse", v2Envelope(hostsMetadataResultSchema)),
  handler: forward,
});
