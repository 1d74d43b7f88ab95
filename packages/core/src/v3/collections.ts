import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { V3_DESCRIPTION_MAX_CHARS, V3_NAME_MAX_CHARS, V3_QUERY_MAX_CHARS } from "./limits";
import { v3ListQuerySchema, v3PagingQuerySchema, v3TimeQuerySchema } from "./queries";
import { v3NameSchema } from "./text";

/**
 * Collections of the Platform API: a saved CenQL query with a name and description, kept per
 * organization, following the SDK's `Collection`, `CrudCreateInputBody`, `ListCollectionsResponseV1`
 * and `CollectionEventsResponse`.
 */

export const V3_COLLECTION_STATUSES = ["populating", "active", "paused", "archived"] as const;
export type V3CollectionStatus = (typeof V3_COLLECTION_STATUSES)[number];

/** SDK `StatusReason` (why the collection is in its status), an open enum. */
export const V3_COLLECTION_STATUS_REASONS = [
  "unspecified",
  "not_enough_credits",
  "not_entitled",
  "too_many_assets",
  "manual",
  "query_changed",
  "initial",
] as const;
export type V3CollectionStatusReason = (typeof V3_COLLECTION_STATUS_REASONS)[number];

/** SDK `CrudCreateInputBody` and `CrudUpdateInputBody` (the same three fields). */
export const v3CollectionInputSchema = z
  .object({
    name: v3NameSchema(V3_NAME_MAX_CHARS),
    description: z.string().max(V3_DESCRIPTION_MAX_CHARS).optional(),
    query: z
      .string()
      .max(V3_QUERY_MAX_CHARS)
      .refine((text) => text.trim() !== "", "must not be blank"),
  })
  .loose();
export type V3CollectionInput = z.infer<typeof v3CollectionInputSchema>;

/** SDK `Collection`: `status_reason` is required and nullable. */
export const v3CollectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    query: z.string(),
    status: z.string(),
    status_reason: z.string().nullable(),
    create_time: rfc3339Schema,
    created_by: z.string().optional(),
    total_assets: z.number().int(),
    added_assets_24_hours: z.number().int(),
    removed_assets_24_hours: z.number().int(),
  })
  .loose();
export type V3Collection = z.infer<typeof v3CollectionSchema>;

/** SDK `ListCollectionsResponseV1`: `next_page_token` is `""` on the last page. */
export const v3CollectionListSchema = z
  .object({ collections: z.array(v3CollectionSchema).nullable(), next_page_token: z.string() })
  .loose();

/** Query of the collection list (SDK `V3CollectionsCrudListRequest`). */
export const v3CollectionListQuerySchema = v3PagingQuerySchema.extend({
  collection_statuses: v3ListQuerySchema(V3_COLLECTION_STATUSES).optional(),
});

/** SDK `EventAssetChange`. */
export const v3CollectionAssetChangeSchema = z
  .object({ change_type: z.enum(["added", "removed"]), event_time: rfc3339Schema, reason: z.string() })
  .loose();

/** SDK `EventStatusChange`. */
export const v3CollectionStatusChangeSchema = z
  .object({
    event_time: rfc3339Schema,
    new_status: z.string(),
    old_status: z.string().optional(),
    reason: z.string().optional(),
  })
  .loose();

/** SDK `CollectionEvent`: one of the two. */
export const v3CollectionEventSchema = z
  .object({
    asset_change: v3CollectionAssetChangeSchema.optional(),
    status_change: v3CollectionStatusChangeSchema.optional(),
  })
  .loose();
export type V3CollectionEvent = z.infer<typeof v3CollectionEventSchema>;

/** SDK `CollectionEventsResponse`: `next_page` is `""` on the last page. */
export const v3CollectionEventsSchema = z
  .object({ events: z.array(v3CollectionEventSchema).nullable(), next_page: z.string() })
  .loose();

/** Query of a collection's events (SDK `V3CollectionsListEventsRequest`). */
export const v3CollectionEventsQuerySchema = v3PagingQuerySchema.extend({
  change_types: v3ListQuerySchema(["asset", "status"]).optional(),
  asset_change_types: v3ListQuerySchema(["added", "removed"]).optional(),
  status_change_types: v3ListQuerySchema(V3_COLLECTION_STATUSES).optional(),
  start_time: v3TimeQuerySchema.optional(),
  end_time: v3TimeQuerySchema.optional(),
});
export type V3CollectionEventsQuery = z.infer<typeof v3CollectionEventsQuerySchema>;
