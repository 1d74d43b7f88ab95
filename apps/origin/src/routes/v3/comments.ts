import {
  ApiError,
  v3CommentCreateInputSchema,
  v3CommentSchema,
  v3CommentsListSchema,
  v3CommentsQuerySchema,
  v3CommentUpdateInputSchema,
  v3InputError,
  V3_ASSET_COMMENTS_MAX,
  V3_COMMENTS_MAX,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { commentOf, type CommentRecord } from "../../services/v3-comments";
import { nextPageToken, pageRequest } from "../../services/v3-paging";
import { parseAssetId } from "../../services/v3-records";
import { pathParam, platformRoute } from "./operation";

/**
 * Comments on assets (`/v3/comments`), the organization's (services/v3-comments.ts): every
 * member reads them; only a comment's creator edits it; its creator or an admin deletes it.
 */

const commentParam = z.object({ comment_id: z.string() });

async function namedComment(c: Context<AppEnv>): Promise<CommentRecord> {
  const id = pathParam(c, "comment_id");
  const comment = await c.var.services.platform.readComment(c.var.platform.organization.organizationId, id);
  if (!comment) throw new ApiError("not_found", `Comment ${JSON.stringify(id)} not found.`);
  return comment;
}

export const createComment = platformRoute(
  "tagsAndCommentsCreateComment",
  { request: { body: jsonBody(v3CommentCreateInputSchema) }, result: v3CommentSchema },
  async (c) => {
    const input = await v3Body(c, v3CommentCreateInputSchema);
    const asset = parseAssetId(input.asset_id);
    if (!asset)
      throw v3InputError(
        "body.asset_id",
        "expected a host IP, a certificate SHA-256 fingerprint or a web property hostname:port",
        input.asset_id,
      );
    const { platform, clock } = c.var.services;
    const write = await platform.createComment({
      organizationId: c.var.platform.organization.organizationId,
      assetId: asset.id,
      assetType: asset.type,
      body: input.body,
      createdBy: c.var.platform.account.user_id,
      createdAt: clock.now(),
    });
    if (!write.ok)
      throw new ApiError(
        "conflict",
        write.reason === "organization_full"
          ? `The organization has ${V3_COMMENTS_MAX} comments, the most it keeps.`
          : `${asset.id} has ${V3_ASSET_COMMENTS_MAX} comments, the most an asset keeps.`,
      );
    return { result: commentOf(write.comment) };
  },
);

export const listComments = platformRoute(
  "tagsAndCommentsListComments",
  { request: { query: v3CommentsQuerySchema }, result: v3CommentsListSchema },
  async (c) => {
    const query = v3Query(c, v3CommentsQuerySchema);
    const { platform, cursors } = c.var.services;
    const { page_size: _size, page_token: _token, ...filters } = query;
    const page = await pageRequest(cursors, `comments ${JSON.stringify(filters)}`, query);
    const { comments, total } = await platform.listComments(
      c.var.platform.organization.organizationId,
      {
        assetId:
          query.asset_id === undefined ? undefined : (parseAssetId(query.asset_id)?.id ?? query.asset_id),
        createdBy: query.created_by,
        createdBefore: query.created_before === undefined ? undefined : Date.parse(query.created_before),
        createdAfter: query.created_after === undefined ? undefined : Date.parse(query.created_after),
        order: query.order_by,
      },
      page.offset,
      page.size,
    );
    const next = await nextPageToken(cursors, page, total);
    return {
      result: {
        comments: comments.map(commentOf),
        total_size: total,
        ...(next ? { next_page_token: next } : {}),
      },
    };
  },
);

export const updateComment = platformRoute(
  "tagsAndCommentsUpdateComment",
  { request: { params: commentParam, body: jsonBody(v3CommentUpdateInputSchema) }, result: v3CommentSchema },
  async (c) => {
    const input = await v3Body(c, v3CommentUpdateInputSchema);
    const comment = await namedComment(c);
    if (comment.createdBy !== c.var.platform.account.user_id)
      throw new ApiError("forbidden", "Only the comment's creator can edit it.");
    const updated = await c.var.services.platform.updateComment(
      comment,
      input.body,
      c.var.services.clock.now(),
    );
    return { result: commentOf(updated) };
  },
);

export const deleteComment = platformRoute(
  "tagsAndCommentsDeleteComment",
  { request: { params: commentParam } },
  async (c) => {
    const comment = await namedComment(c);
    const { account, roles } = c.var.platform;
    if (comment.createdBy !== account.user_id && !roles.includes("admin"))
      throw new ApiError("forbidden", "Only the comment's creator or an organization admin can delete it.");
    await c.var.services.platform.deleteComment(comment);
    return {};
  },
);

export const v3CommentRoutes = [createComment, listComments, updateComment, deleteComment];
