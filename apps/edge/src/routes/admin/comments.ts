import {
  ApiError,
  adminCommentDeleteResultSchema,
  annotationTimestamp,
  pathText,
  renderComment,
} from "@scangate/core";
import { defineAdminRoute } from "../../pipeline/define-route";
import { component } from "../../openapi/components";

/** DELETE /admin/comments/:id: the administrator removes any tenant's comment. */
export const deleteCommentRoute = defineAdminRoute({
  method: "DELETE",
  path: "/admin/comments/:id",
  summary: "Remove any tenant's comment",
  ok: component("AdminCommentDeleteResult", adminCommentDeleteResultSchema),
  handler: async (c) => {
    const id = pathText("id", c.req.param("id") ?? "");
    const { annotations, audit } = c.get("services");
    const deleted = await annotations.deleteComment(id);
    if (!deleted) throw new ApiError("not_found", `Comment ${id} not found.`);
    await audit.record({
      actor: "admin",
      action: "comment.delete",
      tenantId: deleted.authorId,
      before: renderComment(deleted.index, deleted),
      after: null,
    });
    return c.json({
      deleted: {
        id: deleted.id,
        index: deleted.index,
        document: deleted.document,
        author_id: deleted.authorId,
        contents: deleted.contents,
        created_at: annotationTimestamp(deleted.createdAt),
      },
    });
  },
});
