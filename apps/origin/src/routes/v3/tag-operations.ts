import {
  ApiError,
  v3TagBulkCreateInputSchema,
  v3TagBulkDeleteInputSchema,
  v3TagOperationSchema,
  v3TagOperationsListSchema,
  v3TagOperationsQuerySchema,
  V3_RUNNING_TAG_OPERATIONS_MAX,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { nextPageToken, pageOf, pageRequest } from "../../services/v3-paging";
import {
  operationOf,
  operationState,
  type OperationRecord,
  type OperationStart,
} from "../../services/v3-tag-operations";
import type { TagRecord } from "../../services/v3-tags";
import { compileQuery, registriesOf } from "./cenql";
import { pathParam, platformRoute } from "./operation";
import { namedTag, requireManage, tagParam, viewerOf } from "./tag-access";

/**
 * Bulk tag operations (`/v3/tags/{tag_id}/assignments/bulk-*`, `/v3/tags/{tag_id}/operations`):
 * what an operation does is decided when it starts, and the clock reveals it page by page
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

export const bulkCreate = platformRoute(
  "tagsAndCommentsBulkCreateTagAssignments",
  { request: { params: tagParam, body: jsonBody(v3TagBulkCreateInputSchema) }, result: v3TagOperationSchema },
  async (c) => {
    const input = await v3Body(c, v3TagBulkCreateInputSchema);
    const tag = await namedTag(c);
    const { resource, where } = compileQuery(c, input.query, await registriesOf(c));
    const { platform, clock } = c.var.services;
    const now = clock.now();
    const start = await platform.startBulkCreate(
      tag,
      {
        query: input.query,
        resource,
        where,
        maxAssets: input.max_assets ? input.max_assets : null,
        matches: await platform.matchCount(resource, where),
      },
      c.var.platform.account.user_id,
      now,
    );
    return { result: operationOf(started(start), now) };
  },
);

export const bulkDelete = platformRoute(
  "tagsAndCommentsBulkDeleteTagAssignments",
  { request: { params: tagParam, body: jsonBody(v3TagBulkDeleteInputSchema) }, result: v3TagOperationSchema },
  async (c) => {
    const input = await v3Body(c, v3TagBulkDeleteInputSchema);
    const tag = await namedTag(c);
    requireManage(c, tag);
    const now = c.var.services.clock.now();
    const start = await c.var.services.platform.startBulkDelete(
      tag,
      {
        after: input.created_after === undefined ? null : Date.parse(input.created_after),
        before: input.created_before === undefined ? null : Date.parse(input.created_before),
      },
      c.var.platform.account.user_id,
      now,
    );
    return { result: operationOf(started(start), now) };
  },
);

export const listOperations = platformRoute(
  "tagsAndCommentsListTagOperations",
  { request: { params: tagParam, query: v3TagOperationsQuerySchema }, result: v3TagOperationsListSchema },
  async (c) => {
    const query = v3Query(c, v3TagOperationsQuerySchema);
    const viewer = viewerOf(c);
    const tagId = pathParam(c, "tag_id") === "-" ? null : (await namedTag(c)).id;
    const { platform, cursors, clock } = c.var.services;
    const { page_size: _size, page_token: _token, ...filters } = query;
    const page = await pageRequest(cursors, `operations ${tagId ?? "-"} ${JSON.stringify(filters)}`, query);
    const now = clock.now();
    const operations = await platform.listOperations(
      viewer,
      tagId,
      { type: query.type, status: query.status, order: query.order_by },
      now,
    );
    const next = await nextPageToken(cursors, page, operations.length);
    return {
      result: {
        operations: pageOf(operations, page).map((op) => operationOf(op, now)),
        total_size: operations.length,
        ...(next ? { next_page_token: next } : {}),
      },
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
  async (c) => ({ result: operationOf((await namedOperation(c)).operation, c.var.services.clock.now()) }),
);

export const cancelOperation = platformRoute(
  "tagsAndCommentsCancelTagOperation",
  { request: { params: operationParam }, result: v3TagOperationSchema },
  async (c) => {
    const { tag, operation } = await namedOperation(c);
    requireManage(c, tag);
    const now = c.var.services.clock.now();
    const state = operationState(operation, now);
    if (state.endedAt !== null || !(await c.var.services.platform.cancelOperation(operation, now)))
      throw new ApiError("conflict", `The operation has finished (${state.status}); it cannot be cancelled.`);
    return { result: operationOf({ ...operation, cancelledAt: now }, now) };
  },
);

export const v3TagOperationRoutes = [bulkCreate, bulkDelete, listOperations, getOperation, cancelOperation];
