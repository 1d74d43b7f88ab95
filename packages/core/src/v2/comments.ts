import { z } from "zod";
import { COMMENT_MAX_CHARS } from "../limits";
import { COMMENT_CONTROL_CHARACTERS, controlCharacterIn } from "../text";
import { annotationTimestamp, annotationTimestampSchema, type AnnotatedIndex } from "./annotations";

// Comments on hosts and certificates (GET/POST /v2/{hosts|certificates}/{id}/comments,
// GET/PUT/DELETE .../comments/{comment_id}). Shapes from the official client 2.1.9
// (`add_comment`, `get_comments`, ...) and its test fixtures (tests/search/v2/test_comments.py).

const commentFields = {
  id: z.string().min(1),
  /** Who wrote it: the edge tenant's id, or the origin account's API id. */
  author_id: z.string().min(1),
  contents: z.string(),
  created_at: annotationTimestampSchema,
};

/** A comment on a host: the fixtures' `{id, ip, author_id, contents, created_at}`. */
export const hostCommentSchema = z.object({ ...commentFields, ip: z.string() }).loose();
/** A comment on a certificate: `fingerprint` in place of `ip` (the public OpenAPI's CertComment). */
export const certificateCommentSchema = z.object({ ...commentFields, fingerprint: z.string() }).loose();
export type HostComment = z.infer<typeof hostCommentSchema>;
export type CertificateComment = z.infer<typeof certificateCommentSchema>;
export type DocumentComment = HostComment | CertificateComment;

/**
 * GET .../comments: `result.comments` beside the document's id, oldest first, at most
 * DOCUMENT_COMMENTS_MAX (the list has no paging). DELETE of one comment answers 204 with no body:
 * the public SDKs expect none (the TypeScript SDK's `deleteCommentByHost` resolves to void; the
 * Python client's `delete_comment` returns `{code, status}` for an empty body), and re-sending
 * the comments left would make every delete as large as the list.
 */
export const hostCommentsResultSchema = z
  .object({ ip: z.string(), comments: z.array(hostCommentSchema) })
  .loose();
export const certificateCommentsResultSchema = z
  .object({ fingerprint: z.string(), comments: z.array(certificateCommentSchema) })
  .loose();

/**
 * POST .../comments and PUT .../comments/{id}: `{contents}`, what the client sends. Its length is
 * counted in characters (code points) as a tag name's is; of the control characters it may hold
 * only tab and line breaks.
 */
export const commentWriteSchema = z.object({
  contents: z
    .string({ error: "contents is required (a string)" })
    .max(COMMENT_MAX_CHARS, `contents must be at most ${COMMENT_MAX_CHARS} characters`)
    .refine((value) => value.trim() !== "", "contents must not be empty")
    .superRefine((value, ctx) => {
      const found = controlCharacterIn(value, COMMENT_CONTROL_CHARACTERS);
      if (found !== null) {
        ctx.addIssue({
          code: "custom",
          message: `contents must not hold control characters other than tab and line breaks (${found})`,
        });
      }
    }),
});
export type CommentWrite = z.infer<typeof commentWriteSchema>;

/** A stored comment, whichever worker stores it (times in epoch ms). */
export interface StoredComment {
  readonly id: string;
  readonly document: string;
  readonly authorId: string;
  readonly contents: string;
  readonly createdAt: number;
}

export function renderComment(index: AnnotatedIndex, comment: StoredComment): DocumentComment {
  // Key order as in the fixtures: id, the document, author_id, contents, created_at.
  const rest = {
    author_id: comment.authorId,
    contents: comment.contents,
    created_at: annotationTimestamp(comment.createdAt),
  };
  return index === "hosts"
    ? { id: comment.id, ip: comment.document, ...rest }
    : { id: comment.id, fingerprint: comment.document, ...rest };
}

/** `{ip, comments}` or `{fingerprint, comments}`. */
export function renderDocumentComments(
  index: AnnotatedIndex,
  document: string,
  comments: readonly StoredComment[],
) {
  const rendered = comments.map((comment) => renderComment(index, comment));
  return index === "hosts"
    ? { ip: document, comments: rendered }
    : { fingerprint: document, comments: rendered };
}
