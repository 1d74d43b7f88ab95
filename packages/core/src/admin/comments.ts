import { z } from "zod";
import { ANNOTATED_INDEXES } from "../v2/annotations";

// DELETE /admin/comments/:id: the administrator removes any tenant's comment.

export const adminCommentSchema = z.object({
  id: z.string(),
  index: z.enum(ANNOTATED_INDEXES),
  /** The host's IP or the certificate's fingerprint. */
  document: z.string(),
  author_id: z.string(),
  contents: z.string(),
  created_at: z.string(),
});
export type AdminComment = z.infer<typeof adminCommentSchema>;

export const adminCommentDeleteResultSchema = z.object({ deleted: adminCommentSchema });
export type AdminCommentDeleteResult = z.infer<typeof adminCommentDeleteResultSchema>;
