import { z } from "zod";
import { TAG_NAME_MAX_CHARS } from "../limits";
import { controlCharacterIn } from "../text";
import { annotationTimestamp, annotationTimestampSchema, type AnnotatedIndex } from "./annotations";

// Tags (GET/POST /v2/tags, GET/PUT/DELETE /v2/tags/{id}, the tag's host and certificate lists,
// and the tags on one document). Shapes from the official client 2.1.9 (`create_tag`,
// `list_all_tags`, `list_hosts_with_tag`, ...) and the fixtures of its test suite
// (censys-python tests/search/v2/test_tags.py); where those are silent, the comment says so.

/** `#rrggbb`, as the client's examples (`#ff0000`) write it. */
export const tagColorSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "expected a color as #rrggbb (e.g. #ff0000)");

/** A tag as the API answers it. */
export const tagSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    // Inferred: the fixtures always carry `metadata.color`; a tag created without a color
    // answers an empty `metadata` object rather than leaving the key out.
    metadata: z.object({ color: tagColorSchema.optional() }).loose(),
    created_at: annotationTimestampSchema,
    updated_at: annotationTimestampSchema,
  })
  .loose();
export type Tag = z.infer<typeof tagSchema>;

/**
 * A tag name: stored as sent (trimmed), compared in `nameKey` form (NFC, ignoring case), so
 * `Café` with a composed or a decomposed accent, in any case, is one name (409 for the second).
 * Its length is counted in characters (code points: zod's `max`, as JSON Schema's `maxLength`), and
 * it holds no control character.
 */
const tagNameSchema = z
  .string({ error: "name is required (a string)" })
  .trim()
  .min(1, "name must not be empty")
  .max(TAG_NAME_MAX_CHARS, `name must be at most ${TAG_NAME_MAX_CHARS} characters`)
  .superRefine((name, ctx) => {
    const found = controlCharacterIn(name);
    if (found !== null)
      ctx.addIssue({ code: "custom", message: `name must not hold control characters (${found})` });
  });

/**
 * POST /v2/tags and PUT /v2/tags/{id}: `{name, metadata?: {color?}}`, what `create_tag` and
 * `update_tag` send. Inferred for PUT: without `metadata` the color is kept (the client leaves
 * it out when no color is given); `metadata` without `color` (or `color: null`) clears it.
 */
export const tagWriteSchema = z.object({
  name: tagNameSchema,
  metadata: z
    .object({ color: tagColorSchema.nullable().optional() }, { error: "metadata must be an object" })
    .loose()
    .optional(),
});
export type TagWrite = z.infer<typeof tagWriteSchema>;

/** GET /v2/tags: `result.tags`, at most ANNOTATION_TAGS_MAX (the holder's cap; no paging). */
export const tagsListResultSchema = z.object({ tags: z.array(tagSchema) }).loose();
export type TagsListResult = z.infer<typeof tagsListResultSchema>;

/** GET /v2/tags/{id}/hosts: `result.hosts`, each `{ip, tagged_at}` (the fixtures' shape). */
export const taggedHostSchema = z.object({ ip: z.string(), tagged_at: annotationTimestampSchema }).loose();
export const tagHostsResultSchema = z.object({ hosts: z.array(taggedHostSchema) }).loose();
export type TagHostsResult = z.infer<typeof tagHostsResultSchema>;

/** GET /v2/tags/{id}/certificates: `result.certs`, each `{fingerprint, tagged_at}`. */
export const taggedCertificateSchema = z
  .object({ fingerprint: z.string(), tagged_at: annotationTimestampSchema })
  .loose();
export const tagCertificatesResultSchema = z.object({ certs: z.array(taggedCertificateSchema) }).loose();
export type TagCertificatesResult = z.infer<typeof tagCertificatesResultSchema>;

/**
 * GET /v2/hosts/{ip}/tags and /v2/certificates/{fingerprint}/tags: `result.tags`, beside the
 * document's id (inferred from the public OpenAPI's `{ip, tags}` / `{fingerprint, tags}`).
 */
export const hostTagsResultSchema = z.object({ ip: z.string(), tags: z.array(tagSchema) }).loose();
export const certificateTagsResultSchema = z
  .object({ fingerprint: z.string(), tags: z.array(tagSchema) })
  .loose();
export type DocumentTagsResult =
  | z.infer<typeof hostTagsResultSchema>
  | z.infer<typeof certificateTagsResultSchema>;

/** A stored tag, whichever worker stores it (times in epoch ms). */
export interface StoredTag {
  readonly id: string;
  readonly name: string;
  readonly color: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export function renderTag(tag: StoredTag): Tag {
  return {
    id: tag.id,
    name: tag.name,
    metadata: tag.color === null ? {} : { color: tag.color },
    created_at: annotationTimestamp(tag.createdAt),
    updated_at: annotationTimestamp(tag.updatedAt),
  };
}

/** `{ip, tags}` or `{fingerprint, tags}`. */
export function renderDocumentTags(
  index: AnnotatedIndex,
  document: string,
  tags: readonly StoredTag[],
): DocumentTagsResult {
  const rendered = tags.map(renderTag);
  return index === "hosts" ? { ip: document, tags: rendered } : { fingerprint: document, tags: rendered };
}

/** `{hosts: [{ip, tagged_at}]}` or `{certs: [{fingerprint, tagged_at}]}`. */
export function renderTaggedDocuments(
  index: AnnotatedIndex,
  rows: readonly { document: string; taggedAt: number }[],
): TagHostsResult | TagCertificatesResult {
  return index === "hosts"
    ? { hosts: rows.map((row) => ({ ip: row.document, tagged_at: annotationTimestamp(row.taggedAt) })) }
    : {
        certs: rows.map((row) => ({
          fingerprint: row.document,
          tagged_at: annotationTimestamp(row.taggedAt),
        })),
      };
}
