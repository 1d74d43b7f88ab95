import {
  ApiError,
  v3TagBulkCreateInputSchema,
  v3TagBulkDeleteInputSchema,
  v3TagOperationSchema,
  v3TagOperationsListSchema,
  v3TagOperationsQuerySchema,
  V3_RUNNING_TAG_OPERATIONS_MAX,
  V3_TAG_ASSETS_MAX,
  V3_TAGS_MAX,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { nextPageToken, pageRequest } from "../../services/v3-paging";
import { isFinished, operationOf, type OperationRecord, type OperationStart } from "../../services/v3-tag-operations";
import type { TagRecord } from "../../services/v3-tags";
import { compileQuery, registriesOf } from "./cenql";
import { pathParam, platformRoute } from "./operation";
import { bringOperationsUpToDate, namedTag, requireManage, tagParam, viewerOf } from "./tag-access";

/**
 * Bulk tag operations (`/v3/tags/{tag_id}/assignments/bulk-*`, `/v3/tags/{tag_id}/operations`):
 * started here and advanced by the clock whenever the organization's tags are read
 * (services/v3-tag-operations.ts). `-` as the tag lists the operations of every tag the caller
 * sees.
 */

const operationParam = tagParam.extend({ operation_id: z.string() });

function started(start: OperationStart): OperationRecord {
  if (start.ok) return start.operation;
  throw new ApiError(
    "conflict",
    `The organization runs ${V3_RUNNING_TAG_OPERATIONS_MAX} bulk tag operations already; wait for one to finish or cancel one.`,
  );
}

function startFields(c: Context<AppEnv>, tag: TagRecord) {
  return {
    organizationId: tag.organizationId,
    tagId: tag.id,
    tagName: tag.name,
    createdBy: c.var.platform.account.user_id,
    createdAt: c.var.services.clock.now(),
  };
}

export const bulkCreate = platformRoute(
  "tagsAndCommentsBulkCreateTagAssignments",
  { request: { params: tagParam, body: jsonBody(v3TagBulkCreateInputSchema) }, result: v3TagOperationSchema },
  async (c) => {
    const input = await v3Body(c, v3TagBulkCreateInputSchema);
    const tag = await namedTag(c);
    const { resource, where } = compileQuery(c, input.query, await registriesOf(c));
    const { platform } = c.var.services;
    const matches = await platform.matchCount(resource, where);
    const cap = input.max_assets ? input.max_assets : null;
    const start = await platform.startOperation({
      ...startFields(c, tag),
      type: "bulk_create",
      query: input.query,
      maxAssets: cap,
      createdAfter: null,
      createdBefore: null,
      totalCount: Math.min(matches, cap ?? Number.POSITIVE_INFINITY, V3_TAG_ASSETS_MAX),
    });
    return { result: operationOf(started(start)) };
  },
);

export const bulkDelete = platformRoute(
  "tagsAndCommentsBulkDeleteTagAssignments",
  { request: { params: tagParam, body: jsonBody(v3TagBulkDeleteInputSchema) }, result: v3TagOperationSchema },
  async (c) => {
    const input = await v3Body(c, v3TagBulkDeleteInputSchema);
    const tag = await namedTag(c);
    requireManage(c, tag);
    const start = await c.var.services.platform.startOperation({
      ...startFields(c, tag),
      type: "bulk_delete",
      query: null,
      maxAssets: null,
      createdAfter: input.created_after === undefined ? null : Date.parse(input.created_after),
      createdBefore: input.created_before === undefined ? null : Date.parse(input.created_before),
      // Set once the operation finishes (the SDK: "for bulk delete operations it is set at completion").
      totalCount: 0,
    });
    return { result: operationOf(started(start)) };
  },
);

export const listOperations = platformRoute(
  "tagsAndCommentsListTagOperations",
  { request: { params: tagParam, query: v3TagOperationsQuerySchema }, result: v3TagOperationsListSchema },
  async (c) => {
    const query = v3Query(c, v3TagOperationsQuerySchema);
    const viewer = viewerOf(c);
    const { platform, cursors } = c.var.services;
    let tagIds: string[] | null;
    if (pathParam(c, "tag_id") === "-") {
      await bringOperationsUpToDate(c);
      tagIds = viewer.admin ? null : (await platform.listTags(viewer, {}, 0, V3_TAGS_MAX)).tags.map((t) => t.id);
    } else {
      tagIds = [(await namedTag(c)).id];
    }
    const { page_size: _size, page_token: _token, ...filters } = query;
    const scope = `operations ${JSON.stringify(tagIds)} ${JSON.stringify(filters)}`;
    const page = await pageRequest(cursors, scope, query);
    const { operations, total } = await platform.listOperations(
      viewer.organizationId,
      tagIds,
      { type: query.type, status: query.status, order: query.order_by },
      page.offset,
      page.size,
    );
    const next = await nextPageToken(cursors, page, total);
    return {
      result: { operations: operations.map(operationOf), total_size: total, ...(next ? { next_page_token: next } : {}) },
    };
  },
);

async function namedOperation(c: Context<AppEnv>): Promise<{ tag: TagRecord; operation: OperationRecord }> {
  const tag = await namedTag(c);
  const id = pathParam(c, "operation_id");
  const operation = await c.var.services.platform.readOperation(tag.organizationId, id);
  if (!operation || operation.tagId !== tag.id)
    throw new ApiError("not_found", `Operation ${JSON.stringify(id)} of this tag not found.`);
  return { tag, operation };
}

export const getOperation = platformRoute(
  "tagsAndCommentsGetTagOperation",
  { request: { params: operationParam }, result: v3TagOperationSchema },
  async (c) => ({ result: operationOf((await namedOperation(c)).operation) }),
);

export const cancelOperation = platformRoute(
  "tagsAndCommentsCancelTagOperation",
  { request: { params: operationParam }, result: v3TagOperationSchema },
  async (c) => {
    const { tag, operation } = await namedOperation(c);
    requireManage(c, tag);
    const { platform, clock } = c.var.services;
    const now = clock.now();
    if (isFinished(operation) || !(await platform.cancelOperation(operation, now)))
      throw new ApiError("conflict", `The operation has finished (${operation.status}); it cannot be cancelled.`);
    const admin = { ...viewerOf(c), admin: true };
    const cancelled = await platform.advanceOperation(
      { ...operation, cancelledAt: now },
      await platform.readTag(admin, tag.id),
      null,
      now,
    );
    return { result: operationOf(cancelled) };
  },
);

export const v3TagOperationRoutes = [bulkCreate, bulkDelete, listOperations, getOperation, cancelOperation];
