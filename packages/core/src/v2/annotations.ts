import { z } from "zod";
import { ApiError } from "../errors";
import { canonicalIpAddress } from "../ip-address";
import { requireFingerprint, requireHostIp } from "./inputs";
import {
  ANNOTATION_COMMENTS_MAX,
  ANNOTATION_TAG_LINKS_MAX,
  ANNOTATION_TAGS_MAX,
  DOCUMENT_COMMENTS_MAX,
  DOCUMENT_TAGS_MAX,
  TAG_DOCUMENTS_MAX,
} from "../limits";
import { pathText } from "../text";

// What tags and comments are put on: v2 hosts (by IP) and certificates (by SHA-256
// fingerprint). Shared by the tag and comment routes of both workers.

export const ANNOTATED_INDEXES = ["hosts", "certificates"] as const;
export type AnnotatedIndex = (typeof ANNOTATED_INDEXES)[number];

/** The key a document of each index is named by in annotation bodies (`ip`, `fingerprint`). */
export const ANNOTATED_ID_KEYS = { hosts: "ip", certificates: "fingerprint" } as const satisfies Record<
  AnnotatedIndex,
  string
>;

/**
 * The stored id of a document named in a path: an IP in its canonical spelling (an IPv6 address
 * in RFC 5952's form, so `2001:DB8::1` and `2001:0db8:0:0:0:0:0:1` are one host), or a
 * fingerprint lowercased. Text that is not well-formed is a 400; anything else that is not an id
 * is the 422 the v2 views answer for a malformed id. The document need not be in the dataset (the
 * public service tags any IP it is given).
 */
export function annotatedDocumentId(index: AnnotatedIndex, raw: string): string {
  pathText(ANNOTATED_ID_KEYS[index], raw);
  return index === "hosts" ? canonicalIpAddress(requireHostIp(raw)) : requireFingerprint(raw);
}

/**
 * Annotation times as the public service writes them (its fixtures: `2021-01-01T00:00:00.000000Z`):
 * UTC with six fractional digits.
 */
export function annotationTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** `2021-01-01T00:00:00.000000Z`. */
export const annotationTimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, "expected YYYY-MM-DDThh:mm:ss.ffffffZ");

/** The caps on what one holder (the edge's team, an origin account) keeps: core's limits. */
export const ANNOTATION_CAPS = {
  tags: ANNOTATION_TAGS_MAX,
  comments: ANNOTATION_COMMENTS_MAX,
  tag_links: ANNOTATION_TAG_LINKS_MAX,
  tag_documents: TAG_DOCUMENTS_MAX,
  document_tags: DOCUMENT_TAGS_MAX,
  document_comments: DOCUMENT_COMMENTS_MAX,
} as const;
export type AnnotationCap = keyof typeof ANNOTATION_CAPS;

/**
 * The cap a refused write met, from the counts read after it: the fullest one. (A delete may
 * have made room between the two; the cap that was full is then still the fullest.)
 */
export function fullestCap(counts: Partial<Record<AnnotationCap, number>>): AnnotationCap {
  let fullest: AnnotationCap | undefined;
  let share = -1;
  for (const [cap, count] of Object.entries(counts) as [AnnotationCap, number][]) {
    if (count / ANNOTATION_CAPS[cap] > share) [fullest, share] = [cap, count / ANNOTATION_CAPS[cap]];
  }
  if (fullest === undefined) throw new Error("fullestCap needs at least one count");
  return fullest;
}

/**
 * The 409 for a write that a cap refuses: the holder's state (full) conflicts with it, and it
 * succeeds once something is deleted. `holder` names who keeps them: "team" or "account".
 */
export function annotationCapError(cap: AnnotationCap, holder: "team" | "account"): ApiError {
  const max = ANNOTATION_CAPS[cap].toLocaleString("en-US");
  const why = {
    tags: `The ${holder} already keeps ${max} tags, the most it may; delete one to create another.`,
    comments: `The ${holder} already keeps ${max} comments, the most it may; delete one to add another.`,
    tag_links: `The ${holder}'s tags are already on ${max} documents in all, the most they may be; take a tag off a document first.`,
    tag_documents: `This tag is already on ${max} documents, the most one tag may be on.`,
    document_tags: `This document already carries ${max} tags, the most one document may.`,
    document_comments: `This document already has ${max} comments, the most one document may.`,
  }[cap];
  return new ApiError("conflict", why, { limit: ANNOTATION_CAPS[cap] });
}
