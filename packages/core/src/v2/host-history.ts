import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { ipAddressSchema } from "../indexes";
import { HOST_EVENTS_PER_PAGE_DEFAULT, HOST_EVENTS_PER_PAGE_MAX, HOST_EVENTS_PER_PAGE_MIN } from "../limits";
import { booleanParamSchema, integerParam } from "../params";
import { autonomousSystemSchema, hostLocationSchema } from "./host";
import { pageLinksSchema } from "./links";

// A host over time: GET /api/v2/hosts/{ip}/diff (`CensysHosts.view_host_diff`) and
// GET /api/v2/experimental/hosts/{ip}/events (`CensysHosts.view_host_events`, which returns
// `result.events`). Shapes follow the client's test fixtures; what they leave open is marked.

export const hostDiffQuerySchema = z.object({
  /** The second host; the first one when absent (one host at two times). */
  ip_b: ipAddressSchema.optional(),
  /** When host A is taken; now when absent. */
  at_time: rfc3339Schema.optional(),
  /** When host B is taken; now when absent. */
  at_time_b: rfc3339Schema.optional(),
});
export type HostDiffQuery = z.infer<typeof hostDiffQuerySchema>;

/** One side of a diff: which host, as of which update (the fixture shows these two fields). */
export const hostDiffSideSchema = z.looseObject({ ip: ipAddressSchema, last_updated_at: rfc3339Schema });
export type HostDiffSide = z.infer<typeof hostDiffSideSchema>;

/**
 * One JSON Patch (RFC 6902) operation of the patch that turns host A into host B. The fixture
 * shows only `patch: [{}]`; RFC 6902's `add`/`remove`/`replace` with RFC 6901 paths is inferred
 * from the name.
 */
export const jsonPatchOperationSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("add"), path: z.string(), value: z.unknown() }),
  z.object({ op: z.literal("remove"), path: z.string() }),
  z.object({ op: z.literal("replace"), path: z.string(), value: z.unknown() }),
]);
export type JsonPatchOperation = z.infer<typeof jsonPatchOperationSchema>;

export const hostDiffResultSchema = z
  .object({ a: hostDiffSideSchema, b: hostDiffSideSchema, patch: z.array(jsonPatchOperationSchema) })
  .loose();
export type HostDiffResult = z.infer<typeof hostDiffResultSchema>;

export const hostEventsQuerySchema = z.object({
  /** Inclusive. */
  start_time: rfc3339Schema.optional(),
  /** Exclusive. */
  end_time: rfc3339Schema.optional(),
  /** Newest first when true. */
  reversed: booleanParamSchema.default(false),
  per_page: integerParam(HOST_EVENTS_PER_PAGE_MIN, HOST_EVENTS_PER_PAGE_MAX).default(
    HOST_EVENTS_PER_PAGE_DEFAULT,
  ),
  /** Opaque; the other parameters must match the call that produced it. */
  cursor: z.string().optional(),
});
export type HostEventsQuery = z.infer<typeof hostEventsQuerySchema>;
export type HostEventsQueryInput = z.input<typeof hostEventsQuerySchema>;

/** Which service an event is about (the fixture's `id`). */
export const serviceIdSchema = z.looseObject({
  port: z.number().int().min(0).max(65535),
  transport_protocol: z.string(),
  service_name: z.string(),
});
export type ServiceId = z.infer<typeof serviceIdSchema>;

/** A service seen new or changed; `changed_fields` names the fields that changed (`services.banner`). */
export const serviceObservedSchema = z.looseObject({
  id: serviceIdSchema,
  observed_at: rfc3339Schema,
  perspective_id: z.string(),
  changed_fields: z.array(z.looseObject({ field_name: z.string() })),
});

/** Inferred (not in the fixture): a service no longer seen, when the scan that missed it ran. */
export const serviceRemovedSchema = z.looseObject({ id: serviceIdSchema, observed_at: rfc3339Schema });

/**
 * One event of a host's history. `_event` names the one payload field present:
 * `service_observed` and `location_updated` are the fixture's; `service_removed` and
 * `route_updated` (the autonomous system, as `location_updated` is the location) are inferred.
 */
export const hostEventSchema = z.looseObject({
  timestamp: rfc3339Schema,
  _event: z.string(),
  service_observed: serviceObservedSchema.optional(),
  service_removed: serviceRemovedSchema.optional(),
  location_updated: z.looseObject({ location: hostLocationSchema.partial() }).optional(),
  route_updated: z.looseObject({ autonomous_system: autonomousSystemSchema.partial() }).optional(),
});
export type HostEvent = z.infer<typeof hostEventSchema>;

export const hostEventsResultSchema = z
  .object({ ip: ipAddressSchema, events: z.array(hostEventSchema), links: pageLinksSchema })
  .loose();
export type HostEventsResult = z.infer<typeof hostEventsResultSchema>;
