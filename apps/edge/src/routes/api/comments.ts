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
import type { CommentRow } from "../../db/schema";
import type { ApiContext, ApiRoute } from "../../pipeline/define-route";
import { parseJsonBody } from "../../http/json-body";
import { component } from "../../openapi/components";
import { annotationRoute, auditAnnotation } from "./tags";

// Comments on hosts and certificates, kept in the edge's D1 and never forwarded. Every tenant
// reads them; only the author edits or deletes one (another tenant gets 403; the admin removes
// any through DELETE /admin/comments/:id). Free (no quota): nothing is asked upstream. Bounded
// by core's ANNOTATION_CAPS (the document's comments, the team's): a 409 names the cap reached.

const COMMENT_WRITE = component("CommentWrite", commentWriteSchema);

/** The routes of the comments on one host or certificate. */
function commentRoutes(index: AnnotatedIndex): ApiRoute[] {
  const param = ANNOTATED_ID_KEYS[index];
  const hosts = index === "hosts";
  const noun = hosts ? "host" : "certificate";
  const one = hosts
    ? component("HostCommentResponse", v2Envelope(hostCommentSchema))
    : component("CertificateCommentResponse", v2Envelope(certificateCommentSchema));
  const list = hosts
    ? component("HostCommentsResponse", v2Envelope(hostCommentsResultSchema))
    : component("CertificateCommentsResponse", v2Envelope(certificateCommentsResultSchema));
  const documentOf = (c: ApiContext) => annotatedDocumentId(index, c.req.param(param) ?? "");

  /** The comment named in the path, on the document named in the path; else 404. */
  async function existingComment(c: ApiContext): Promise<CommentRow> {
    const document = documentOf(c);
    const id = pathText("comment_id", c.req.param("comment_id") ?? "");
    const comment = await c.get("services").annotations.comment(id);
    if (!comment || comment.index !== index || comment.document !== document) {
      throw new ApiError("not_found", `Comment ${id} not found on ${noun} ${document}.`);
    }
    return comment;
  }

  /** The comment named in the path, to change: only its author changes a comment (403). */
  async function authorsComment(c: ApiContext): Promise<CommentRow> {
    const comment = await existingComment(c);
    if (comment.authorId !== c.get("account").tenant.id) {
      throw new ApiError(
        "forbidden",
        `Comment ${comment.id} was written by another tenant; only its author may change it.`,
      );
    }
    return comment;
  }

  return [
    annotationRoute({
      method: "GET",
      path: `/api/v2/${index}/:${param}/comments`,
      operation: "comments_list",
      summary: `The team's comments on a ${noun}, oldest first`,
      ok: list,
      handler: async (c) => {
        const document = documentOf(c);
        const comments = await c.get("services").annotations.comments(index, document);
        return c.json(wrapV2(renderDocumentComments(index, document, comments)));
      },
    }),
    annotationRoute({
      method: "POST",
      path: `/api/v2/${index}/:${param}/comments`,
      operation: "comment_create",
      summary: `Comment on a ${noun}`,
      body: COMMENT_WRITE,
      ok: one,
      handler: async (c) => {
        const document = documentOf(c);
        const body = await parseJsonBody(c, commentWriteSchema);
        const added = await c
          .get("services")
          .annotations.addComment(index, document, c.get("account").tenant.id, body.contents);
        if (!added.ok) throw annotationCapError(added.reason, "team");
        const comment = renderComment(index, added.comment);
        await auditAnnotation(c, "comment.create", null, comment);
        return c.json(wrapV2(comment));
      },
    }),
    annotationRoute({
      method: "GET",
      path: `/api/v2/${index}/:${param}/comments/:comment_id`,
      operation: "comment_view",
      summary: `One comment on a ${noun}`,
      ok: one,
      handler: async (c) => c.json(wrapV2(renderComment(index, await existingComment(c)))),
    }),
    annotationRoute({
      method: "PUT",
      path: `/api/v2/${index}/:${param}/comments/:comment_id`,
      operation: "comment_update",
      summary: `Edit your comment on a ${noun} (403 for another tenant's)`,
      body: COMMENT_WRITE,
      ok: one,
      handler: async (c) => {
        const before = await authorsComment(c);
        const body = await parseJsonBody(c, commentWriteSchema);
        const row = await c.get("services").annotations.updateComment(before.id, body.contents);
        if (!row) throw new ApiError("not_found", `Comment ${before.id} not found.`);
        const comment = renderComment(index, row);
        await auditAnnotation(c, "comment.update", renderComment(index, before), comment);
        return c.json(wrapV2(comment));
      },
    }),
    annotationRoute({
      method: "DELETE",
      path: `/api/v2/${index}/:${param}/comments/:comment_id`,
      operation: "comment_delete",
      summary: `Delete your comment on a ${noun} (403 for another tenant's); 204, no body`,
      ok: "empty",
      handler: async (c) => {
        const before = await authorsComment(c);
        if (!(await c.get("services").annotations.deleteComment(before.id))) {
          throw new ApiError("not_found", `Comment ${before.id} not found.`);
        }
        await auditAnnotation(c, "comment.delete", renderComment(index, before), null);
        // No body: the public SDKs expect none, and the comments left would make every delete
        // as large as the list.
        return c.body(null, 204);
      },
    }),
  ];
}

export const COMMENT_ROUTES: readonly ApiRoute[] = [
  ...commentRoutes("hosts"),
  ...commentRoutes("certificates"),
];
