import { createRoute } from "@hono/zod-openapi";
import {
  ANNOTATED_ID_KEYS,
  ApiError,
  annotatedDocumentId,
  annotationCapError,
  certificateCommentSchema,
  certificateCommentsResultSchema,
  commentWriteSchema,
  hostCommentSchema,
  hostCommentsResultSchema,
  pathText,
  renderComment,
  renderDocumentComments,
  v2Envelope,
  wrapV2,
  type AnnotatedIndex,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { parseInput, readJsonBody } from "../../http/validation";
import type { CommentRecord } from "../../services/annotations";
import { defineRoute, jsonBody, jsonResponse, V2_ERRORS, type OriginRoute } from "../../routing";

// The v2 comment API over the calling account's own comments: it is their only author, so
// another account's comment is simply not found (the edge, shared by a team, answers 403).
// Bounded by core's ANNOTATION_CAPS per account and per document: a 409 names the cap reached.

function commentRoutes(index: AnnotatedIndex): OriginRoute[] {
  const param = ANNOTATED_ID_KEYS[index];
  const noun = index === "hosts" ? "host" : "certificate";
  const one = jsonResponse(
    v2Envelope(index === "hosts" ? hostCommentSchema : certificateCommentSchema),
    `A comment on the ${noun}`,
  );
  const list = jsonResponse(
    v2Envelope(index === "hosts" ? hostCommentsResultSchema : certificateCommentsResultSchema),
    `The account's comments on the ${noun}`,
  );
  const params = z.object({ [param]: z.string() });
  const oneParams = z.object({ [param]: z.string(), comment_id: z.string() });
  const documentOf = (c: Context<AppEnv>) => annotatedDocumentId(index, c.req.param(param) ?? "");

  async function existingComment(c: Context<AppEnv>, document: string): Promise<CommentRecord> {
    const id = pathText("comment_id", c.req.param("comment_id") ?? "");
    const comment = await c.var.services.annotations.comment(c.var.account.api_id, id);
    if (!comment || comment.index !== index || comment.document !== document) {
      throw new ApiError("not_found", `Comment ${id} not found on ${noun} ${document}.`);
    }
    return comment;
  }

  return [
    defineRoute(
      createRoute({
        method: "get",
        path: `/api/v2/${index}/{${param}}/comments`,
        request: { params },
        responses: { 200: list, ...V2_ERRORS },
      }),
      { operation: "comments_list", cost: 0 },
      async (c) => {
        const document = documentOf(c);
        const comments = await c.var.services.annotations.comments(c.var.account.api_id, index, document);
        return c.json(wrapV2(renderDocumentComments(index, document, comments)));
      },
    ),
    defineRoute(
      createRoute({
        method: "post",
        path: `/api/v2/${index}/{${param}}/comments`,
        request: { params, body: jsonBody(commentWriteSchema) },
        responses: { 200: one, ...V2_ERRORS },
      }),
      { operation: "comment_create", cost: 0 },
      async (c) => {
        const document = documentOf(c);
        const body = parseInput(commentWriteSchema, await readJsonBody(c));
        const { services, account } = c.var;
        const added = await services.annotations.addComment(
          account.api_id,
          index,
          document,
          body.contents,
          services.clock.now(),
        );
        if (!added.ok) throw annotationCapError(added.reason, "account");
        return c.json(wrapV2(renderComment(index, added.comment)));
      },
    ),
    defineRoute(
      createRoute({
        method: "get",
        path: `/api/v2/${index}/{${param}}/comments/{comment_id}`,
        request: { params: oneParams },
        responses: { 200: one, ...V2_ERRORS },
      }),
      { operation: "comment_view", cost: 0 },
      async (c) => c.json(wrapV2(renderComment(index, await existingComment(c, documentOf(c))))),
    ),
    defineRoute(
      createRoute({
        method: "put",
        path: `/api/v2/${index}/{${param}}/comments/{comment_id}`,
        request: { params: oneParams, body: jsonBody(commentWriteSchema) },
        responses: { 200: one, ...V2_ERRORS },
      }),
      { operation: "comment_update", cost: 0 },
      async (c) => {
        const before = await existingComment(c, documentOf(c));
        const body = parseInput(commentWriteSchema, await readJsonBody(c));
        const { services, account } = c.var;
        const updated = await services.annotations.updateComment(
          account.api_id,
          before.id,
          body.contents,
          services.clock.now(),
        );
        if (!updated) throw new ApiError("not_found", `Comment ${before.id} not found.`);
        return c.json(wrapV2(renderComment(index, updated)));
      },
    ),
    defineRoute(
      createRoute({
        method: "delete",
        path: `/api/v2/${index}/{${param}}/comments/{comment_id}`,
        request: { params: oneParams },
        responses: { 204: { description: "Deleted (no body)" }, ...V2_ERRORS },
      }),
      { operation: "comment_delete", cost: 0 },
      async (c) => {
        const before = await existingComment(c, documentOf(c));
        if (!(await c.var.services.annotations.deleteComment(c.var.account.api_id, before.id))) {
          throw new ApiError("not_found", `Comment ${before.id} not found.`);
        }
        // No body: the public SDKs expect none, and the comments left would make every delete
        // as large as the list.
        return c.body(null, 204);
      },
    ),
  ];
}

export const annotationCommentRoutes: OriginRoute[] = [
  ...commentRoutes("hosts"),
  ...commentRoutes("certificates"),
];
