import { z } from "zod";

/**
 * GET /v2/metadata/hosts: what the hosts index holds (the official client's
 * `CensysHosts.metadata()` returns this `result`). Open: the public service may add fields.
 */
export const hostsMetadataResultSchema = z
  .object({
    /** The service names hosts are seen running, for `services.service_name` searches. */
    services: z.array(z.string()),
  })
  .loose();
export type HostsMetadataResult = z.infer<typeof hostsMetadataResultSchema>;
