import { hostsMetadataResultSchema, v2Envelope } from "@scangate/core";
import { defineRoute } from "../../pipeline/define-route";
import { forward } from "../../pipeline/forward";
import { component } from "../../openapi/components";
import { HOSTS_METADATA_PRICE } from "../../upstream/legacy-credits";

/** GET /api/v2/metadata/hosts (`CensysHosts.metadata()`): free, forwarded as it is. */
export const hostsMetadataRoute = defineRoute({
  method: "GET",
  path: "/api/v2/metadata/hosts",
  operation: "hosts_metadata",
  api: "v2",
  price: HOSTS_METADATA_PRICE,
  summary: "What the hosts index holds (service names)",
  ok: component("HostsMetadataResponse", v2Envelope(hostsMetadataResultSchema)),
  handler: forward,
});
