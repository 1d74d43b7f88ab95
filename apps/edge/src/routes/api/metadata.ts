import { hostsMetadataResultSchema, v2Envelope } from "@scangate/core";
import { defineRoute } from "../../pipeline/define-route";
import { forward } from "../../pipeline/forward";
import { component } from "../../openapi/components";
import { FREE } from "../../pipeline/price";
import { legacyOnly } from "../../pipeline/untranslated";

/** GET /api/v2/metadata/hosts (`CensysHosts.metadata()`): free, forwarded as it is. */
export const hostsMetadataRoute = defineRoute({
  method: "GET",
  path: "/api/v2/metadata/hosts",
  operation: "hosts_metadata",
  api: "v2",
  price: legacyOnly(
    FREE,
    "host metadata has no Platform equivalent (aggregate services.service_name with /api/v2/hosts/aggregate)",
  ),
  summary: "What the hosts index holds (service names)",
  ok: component("HostsMetadataResponse", v2Envelope(hostsMetadataResultSchema)),
  handler: forward,
});
