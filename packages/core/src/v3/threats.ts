import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { V3_QUERY_MAX_CHARS } from "./limits";

/**
 * The threats list (`GET /v3/threat-hunting/threats`), following the SDK's
 * `V3ThreathuntingThreatsListRequest`, `ThreatsListResponse`, `ThreatListItem` and
 * `ThreatReference`. The SDK sends no paging parameters and reads no page token: the list is
 * whole, one item per threat seen on at least one asset.
 */

/** Query of the list: an optional CenQL `query` constraining the assets the threats are counted on. */
export const v3ThreatsQuerySchema = z.object({
  query: z.string().max(V3_QUERY_MAX_CHARS).optional(),
});

/** SDK `ThreatReference`. */
export const v3ThreatReferenceSchema = z.object({ link: z.string() }).loose();

/** SDK `ThreatListItem`: `count` is `host_count` plus `web_count`. */
export const v3ThreatListItemSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    added_at: rfc3339Schema.optional(),
    references: z.array(v3ThreatReferenceSchema).nullable().optional(),
    count: z.number().int(),
    host_count: z.number().int(),
    web_count: z.number().int(),
  })
  .loose();
export type V3ThreatListItem = z.infer<typeof v3ThreatListItemSchema>;

/** SDK `ThreatsListResponse`. */
export const v3ThreatsListSchema = z.object({ threats: z.array(v3ThreatListItemSchema).nullable() }).loose();
export type V3ThreatsList = z.infer<typeof v3ThreatsListSchema>;
