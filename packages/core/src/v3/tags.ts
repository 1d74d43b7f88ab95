import { z } from "zod";
import { rfc3339Schema } from "../formats";
import {
  V3_COMMENT_MAX_CHARS,
  V3_DESCRIPTION_MAX_CHARS,
  V3_NAME_MAX_CHARS,
  V3_QUERY_MAX_CHARS,
} from "./limits";
import { v3PagingQuerySchema, v3TimeQuerySchema } from "./queries";
import { v3NameSchema } from "./text";

/**
 * Tags, tag assignments, bulk tag operations and comments of the Platform API, kept per
 * organization, following the SDK's `Tag`, `TagAssignment`, `TagOperation`, `Comment`, their
 * lists and input bodies.
 */

export const V3_TAG_PRIVACIES = ["private", "shared"] as const;
export type V3TagPrivacy = (typeof V3_TAG_PRIVACIES)[number];

/** SDK `CreateTagInputBody`. */
export const v3TagCreateInputSchema = z
  .object({
    name: v3NameSchema(V3_NAME_MAX_CHARS),
    description: z.string().max(V3_DESCRIPTION_MAX_CHARS).optional(),
    privacy: z.enum(V3_TAG_PRIVACIES),
  })
  .loose();

/** SDK `UpdateTagInputBody`: only the fields given change. */
export const v3TagUpdateInputSchema = z
  .object({
    name: v3NameSchema(V3_NAME_MAX_CHARS).optional(),
    description: z.string().max(V3_DESCRIPTION_MAX_CHARS).optional(),
    privacy: z.enum(V3_TAG_PRIVACIES).optional(),
  })
  .loose();

/** SDK `Tag`. */
export const v3TagSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    privacy: z.string(),
    created_by: z.string(),
    created_at: rfc3339Schema,
    updated_at: rfc3339Schema,
  })
  .loose();
export type V3Tag = z.infer<typeof v3TagSchema>;

/** SDK `TagsList`. */
export const v3TagsListSchema = z
  .object({
    tags: z.array(v3TagSchema).nullable(),
    next_page_token: z.string().optional(),
    total_size: z.number().int(),
  })
  .loose();

export const V3_TAG_ORDERS = [
  "name_asc",
  "name_desc",
  "created_at_asc",
  "created_at_desc",
  "updated_at_asc",
  "updated_at_desc",
] as const;

/** Query of the tag list (SDK `V3TagsListTagsRequest`). */
export const v3TagsQuerySchema = v3PagingQuerySchema.extend({
  order_by: z.enum(V3_TAG_ORDERS).optional(),
  name: z.string().max(V3_NAME_MAX_CHARS).optional(),
  created_by: z.string().max(V3_NAME_MAX_CHARS).optional(),
  privacy: z.enum(V3_TAG_PRIVACIES).optional(),
});

/** What an asset id names: a host IP, a certificate SHA-256, or a web property `hostname:port`. */
export const V3_ASSET_TYPES = ["host", "certificate", "web_property"] as const;
export type V3AssetType = (typeof V3_ASSET_TYPES)[number] | "unknown";

/** SDK `CreateTagAssignmentInputBody`. */
export const v3TagAssignmentInputSchema = z.object({ asset_id: z.string().min(1).max(300) }).loose();

/** SDK `TagAssignment`. */
export const v3TagAssignmentSchema = z
  .object({
    id: z.string(),
    tag_id: z.string(),
    asset_id: z.string(),
    asset_type: z.string(),
    platform_ref: z.string(),
    created_by: z.string(),
    created_at: rfc3339Schema,
  })
  .loose();
export type V3TagAssignment = z.infer<typeof v3TagAssignmentSchema>;

/** SDK `TagAssignmentsList`. */
export const v3TagAssignmentsListSchema = z
  .object({
    assignments: z.array(v3TagAssignmentSchema).nullable(),
    next_page_token: z.string().optional(),
    total_size: z.number().int(),
  })
  .loose();

export const V3_CREATE_TIME_ORDERS = ["create_time_asc", "create_time_desc"] as const;

/** Query of a tag's assignments (SDK `V3TagsListAssignmentsRequest`). */
export const v3TagAssignmentsQuerySchema = v3PagingQuerySchema.extend({
  order_by: z.enum(V3_CREATE_TIME_ORDERS).optional(),
  asset_id: z.string().max(300).optional(),
  asset_type: z.enum(V3_ASSET_TYPES).optional(),
  created_before: v3TimeQuerySchema.optional(),
  created_after: v3TimeQuerySchema.optional(),
  created_by: z.string().max(V3_NAME_MAX_CHARS).optional(),
});

/** SDK `BulkCreateTagAssignmentsInputBody`: `max_assets` 0 or absent is no cap of the caller's own. */
export const v3TagBulkCreateInputSchema = z
  .object({
    query: z
      .string()
      .max(V3_QUERY_MAX_CHARS)
      .refine((text) => text.trim() !== "", "must not be blank"),
    max_assets: z.number().int().min(0).optional(),
  })
  .loose();

/** SDK `BulkDeleteTagAssignmentsInputBody`: an optional creation-time window. */
export const v3TagBulkDeleteInputSchema = z
  .object({ created_after: rfc3339Schema.optional(), created_before: rfc3339Schema.optional() })
  .loose();

export const V3_TAG_OPERATION_STATUSES = [
  "pending",
  "running",
  "succeeded",
  "limit_reached",
  "failed",
  "cancelled",
] as const;
export type V3TagOperationStatus = (typeof V3_TAG_OPERATION_STATUSES)[number];
export const V3_TAG_OPERATION_TYPES = ["bulk_create", "bulk_delete"] as const;
export type V3TagOperationType = (typeof V3_TAG_OPERATION_TYPES)[number];

/** SDK `TagOperation`: `ended_at` only once it finished, `query` only for a bulk create. */
export const v3TagOperationSchema = z
  .object({
    id: z.string(),
    tag_id: z.string(),
    tag_name: z.string(),
    type: z.string(),
    status: z.string(),
    query: z.string().optional(),
    total_count: z.number().int(),
    processed_count: z.number().int(),
    successful_count: z.number().int(),
    created_at: rfc3339Schema,
    ended_at: rfc3339Schema.optional(),
    status_message: z.string().optional(),
    error_message: z.string().optional(),
  })
  .loose();
export type V3TagOperation = z.infer<typeof v3TagOperationSchema>;

/** SDK `TagOperationsList`. */
export const v3TagOperationsListSchema = z
  .object({
    operations: z.array(v3TagOperationSchema).nullable(),
    next_page_token: z.string().optional(),
    total_size: z.number().int(),
  })
  .loose();

/** Query of the operation list (SDK `V3TagsListOperationsRequest`). */
export const v3TagOperationsQuerySchema = v3PagingQuerySchema.extend({
  order_by: z.enum(V3_CREATE_TIME_ORDERS).optional(),
  type: z.enum(V3_TAG_OPERATION_TYPES).optional(),
  status: z.enum(V3_TAG_OPERATION_STATUSES).optional(),
});

const commentBody = z
  .string()
  .max(V3_COMMENT_MAX_CHARS, `at most ${V3_COMMENT_MAX_CHARS} characters`)
  .refine((text) => text.trim() !== "", "must not be blank");

/** SDK `CreateCommentInputBody`. */
export const v3CommentCreateInputSchema = z
  .object({ asset_id: z.string().min(1).max(300), body: commentBody })
  .loose();

/** SDK `UpdateCommentInputBody`. */
export const v3CommentUpdateInputSchema = z.object({ body: commentBody }).loose();

/** SDK `Comment`. */
export const v3CommentSchema = z
  .object({
    id: z.string(),
    asset_id: z.string(),
    asset_type: z.string(),
    body: z.string(),
    platform_ref: z.string(),
    created_by: z.string(),
    created_at: rfc3339Schema,
    updated_at: rfc3339Schema,
  })
  .loose();
export type V3Comment = z.infer<typeof v3CommentSchema>;

/** SDK `CommentsList`. */
export const v3CommentsListSchema = z
  .object({
    comments: z.array(v3CommentSchema).nullable(),
    next_page_token: z.string().optional(),
    total_size: z.number().int(),
  })
  .loose();

/** Query of the comment list (SDK `V3CommentsListCommentsRequest`). */
export const v3CommentsQuerySchema = v3PagingQuerySchema.extend({
  order_by: z.enum(V3_CREATE_TIME_ORDERS).optional(),
  asset_id: z.string().max(300).optional(),
  created_by: z.string().max(V3_NAME_MAX_CHARS).optional(),
  created_before: v3TimeQuerySchema.optional(),
  created_after: v3TimeQuerySchema.optional(),
});
