import {
  ANNOTATION_CAPS,
  fullestCap,
  nameKey,
  type AnnotatedIndex,
  type AnnotationCap,
  type StoredComment,
  type StoredTag,
} from "@scangate/core";
import { and, asc, eq, ne, notExists, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { annotationComments, annotationTagged, annotationTags } from "../db/schema-annotations";

export type CommentRecord = StoredComment & { readonly index: AnnotatedIndex; readonly owner: string };

/** A tag change: `color` undefined keeps the stored color, null clears it. */
export interface TagChange {
  readonly name: string;
  readonly color?: string | null | undefined;
}

/** A write refused because a cap (core's ANNOTATION_CAPS, per account) is reached. */
export interface CapReached {
  readonly ok: false;
  readonly reason: AnnotationCap;
}
export type TagWriteResult =
  | { ok: true; tag: StoredTag }
  | { ok: false; reason: "duplicate_name" }
  | CapReached;
/** `changed` false: the tag was on the document already (its first time is kept). */
export type AttachResult = { ok: true; changed: boolean } | CapReached;
export type CommentWriteResult = { ok: true; comment: CommentRecord } | CapReached;

/**
 * One account's tags and comments. Every method takes the owning account's API id: another
 * account's records are invisible (a tag or comment id of theirs is simply not found). Each
 * account's caps hold whatever the concurrency (each insert counts and writes in one statement)
 * and the lists stop at them. Names are compared in core's `nameKey` form (NFC, ignoring case).
 */
export interface AnnotationStore {
  listTags(owner: string): Promise<StoredTag[]>;
  tag(owner: string, id: string): Promise<StoredTag | null>;
  createTag(owner: string, change: TagChange, now: number): Promise<TagWriteResult>;
  /** Null when the account has no such tag. */
  updateTag(owner: string, id: string, change: TagChange, now: number): Promise<TagWriteResult | null>;
  deleteTag(owner: string, id: string): Promise<StoredTag | null>;
  taggedDocuments(tagId: string, index: AnnotatedIndex): Promise<{ document: string; taggedAt: number }[]>;
  documentTags(owner: string, index: AnnotatedIndex, document: string): Promise<StoredTag[]>;
  attach(
    owner: string,
    tagId: string,
    index: AnnotatedIndex,
    document: string,
    now: number,
  ): Promise<AttachResult>;
  /** False when the tag was not on the document. */
  detach(tagId: string, index: AnnotatedIndex, document: string): Promise<boolean>;
  comments(owner: string, index: AnnotatedIndex, document: string): Promise<CommentRecord[]>;
  comment(owner: string, id: string): Promise<CommentRecord | null>;
  addComment(
    owner: string,
    index: AnnotatedIndex,
    document: string,
    contents: string,
    now: number,
  ): Promise<CommentWriteResult>;
  updateComment(owner: string, id: string, contents: string, now: number): Promise<CommentRecord | null>;
  deleteComment(owner: string, id: string): Promise<boolean>;
}

function randomId(prefix: "tag" | "cmt"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const { tags, comments, tag_links, tag_documents, document_tags, document_comments } = ANNOTATION_CAPS;

type CommentRow = typeof annotationComments.$inferSelect;
const commentRecord = (row: CommentRow): CommentRecord => ({
  id: row.id,
  owner: row.owner,
  index: row.index,
  document: row.document,
  authorId: row.owner,
  contents: row.contents,
  createdAt: row.createdAt,
});

export function d1AnnotationStore(db: D1Database): AnnotationStore {
  const orm = drizzle(db);
  return {
    listTags: (owner) =>
      orm
        .select()
        .from(annotationTags)
        .where(eq(annotationTags.owner, owner))
        .orderBy(asc(annotationTags.nameKey))
        .limit(tags),
    async tag(owner, id) {
      const rows = await orm
        .select()
        .from(annotationTags)
        .where(and(eq(annotationTags.owner, owner), eq(annotationTags.id, id)));
      return rows[0] ?? null;
    },
    async createTag(owner, change, now) {
      const tag: StoredTag = {
        id: randomId("tag"),
        name: change.name,
        color: change.color ?? null,
        createdAt: now,
        updatedAt: now,
      };
      const key = nameKey(change.name);
      const inserted = await orm.all(sql`
        insert into annotation_tags (id, owner, name, name_key, color, created_at, updated_at)
        select ${tag.id}, ${owner}, ${tag.name}, ${key}, ${tag.color}, ${now}, ${now}
        where (select count(*) from annotation_tags where owner = ${owner}) < ${tags}
        on conflict (owner, name_key) do nothing
        returning id`);
      if (inserted.length > 0) return { ok: true, tag };
      const taken = await orm
        .select({ id: annotationTags.id })
        .from(annotationTags)
        .where(and(eq(annotationTags.owner, owner), eq(annotationTags.nameKey, key)));
      return taken.length > 0 ? { ok: false, reason: "duplicate_name" } : { ok: false, reason: "tags" };
    },
    async updateTag(owner, id, change, now) {
      const key = nameKey(change.name);
      // One statement, so no concurrent rename can take the name between the check and the write.
      const clash = orm
        .select({ id: annotationTags.id })
        .from(annotationTags)
        .where(
          and(eq(annotationTags.owner, owner), eq(annotationTags.nameKey, key), ne(annotationTags.id, id)),
        );
      const rows = await orm
        .update(annotationTags)
        .set({
          name: change.name,
          nameKey: key,
          ...(change.color === undefined ? {} : { color: change.color }),
          updatedAt: now,
        })
        .where(and(eq(annotationTags.owner, owner), eq(annotationTags.id, id), notExists(clash)))
        .returning();
      const tag = rows[0];
      if (tag) return { ok: true, tag };
      // No row changed: either there is no such tag or another tag has the name.
      return (await this.tag(owner, id)) ? { ok: false, reason: "duplicate_name" } : null;
    },
    async deleteTag(owner, id) {
      const tag = await this.tag(owner, id);
      if (!tag) return null;
      await orm.batch([
        orm.delete(annotationTagged).where(eq(annotationTagged.tagId, id)),
        orm.delete(annotationTags).where(and(eq(annotationTags.owner, owner), eq(annotationTags.id, id))),
      ]);
      return tag;
    },
    taggedDocuments: (tagId, index) =>
      orm
        .select({ document: annotationTagged.document, taggedAt: annotationTagged.taggedAt })
        .from(annotationTagged)
        .where(and(eq(annotationTagged.tagId, tagId), eq(annotationTagged.index, index)))
        .orderBy(asc(annotationTagged.taggedAt), asc(annotationTagged.document))
        .limit(tag_documents),
    async documentTags(owner, index, document) {
      const rows = await orm
        .select({ tag: annotationTags })
        .from(annotationTagged)
        .innerJoin(annotationTags, eq(annotationTags.id, annotationTagged.tagId))
        .where(
          and(
            eq(annotationTags.owner, owner),
            eq(annotationTagged.index, index),
            eq(annotationTagged.document, document),
          ),
        )
        .orderBy(asc(annotationTags.nameKey))
        .limit(document_tags);
      return rows.map((row) => row.tag);
    },
    async attach(owner, tagId, index, document, now) {
      // The account's links: those of its own tags (a link has no owner of its own).
      const ownLinks = sql`select count(*) from annotation_tagged
        where tag_id in (select id from annotation_tags where owner = ${owner})`;
      const onDocument = sql`select count(*) from annotation_tagged
        where "index" = ${index} and document = ${document}
          and tag_id in (select id from annotation_tags where owner = ${owner})`;
      const onTag = sql`select count(*) from annotation_tagged where tag_id = ${tagId}`;
      const inserted = await orm.all(sql`
        insert into annotation_tagged (tag_id, "index", document, tagged_at)
        select ${tagId}, ${index}, ${document}, ${now}
        where (${onTag}) < ${tag_documents}
          and (${onDocument}) < ${document_tags}
          and (${ownLinks}) < ${tag_links}
        on conflict do nothing
        returning tag_id`);
      if (inserted.length > 0) return { ok: true, changed: true };
      const [row] = await orm.all<{
        present: number;
        on_tag: number;
        on_document: number;
        links: number;
      }>(sql`
        select
          exists(select 1 from annotation_tagged
            where tag_id = ${tagId} and "index" = ${index} and document = ${document}) as present,
          (${onTag}) as on_tag, (${onDocument}) as on_document, (${ownLinks}) as links`);
      if (!row || row.present) return { ok: true, changed: false };
      return {
        ok: false,
        reason: fullestCap({
          tag_documents: row.on_tag,
          document_tags: row.on_document,
          tag_links: row.links,
        }),
      };
    },
    async detach(tagId, index, document) {
      const rows = await orm
        .delete(annotationTagged)
        .where(
          and(
            eq(annotationTagged.tagId, tagId),
            eq(annotationTagged.index, index),
            eq(annotationTagged.document, document),
          ),
        )
        .returning({ tagId: annotationTagged.tagId });
      return rows.length > 0;
    },
    async comments(owner, index, document) {
      const rows = await orm
        .select()
        .from(annotationComments)
        .where(
          and(
            eq(annotationComments.owner, owner),
            eq(annotationComments.index, index),
            eq(annotationComments.document, document),
          ),
        )
        .orderBy(asc(annotationComments.createdAt), asc(sql`rowid`))
        .limit(document_comments);
      return rows.map(commentRecord);
    },
    async comment(owner, id) {
      const rows = await orm
        .select()
        .from(annotationComments)
        .where(and(eq(annotationComments.owner, owner), eq(annotationComments.id, id)));
      return rows[0] ? commentRecord(rows[0]) : null;
    },
    async addComment(owner, index, document, contents, now) {
      const comment: CommentRecord = {
        id: randomId("cmt"),
        owner,
        index,
        document,
        authorId: owner,
        contents,
        createdAt: now,
      };
      const onDocument = sql`select count(*) from annotation_comments
        where owner = ${owner} and "index" = ${index} and document = ${document}`;
      const own = sql`select count(*) from annotation_comments where owner = ${owner}`;
      const inserted = await orm.all(sql`
        insert into annotation_comments (id, owner, "index", document, contents, created_at, updated_at)
        select ${comment.id}, ${owner}, ${index}, ${document}, ${contents}, ${now}, ${now}
        where (${onDocument}) < ${document_comments} and (${own}) < ${comments}
        returning id`);
      if (inserted.length > 0) return { ok: true, comment };
      const [row] = await orm.all<{ on_document: number; own: number }>(
        sql`select (${onDocument}) as on_document, (${own}) as own`,
      );
      return {
        ok: false,
        reason: fullestCap({ document_comments: row?.on_document ?? 0, comments: row?.own ?? 0 }),
      };
    },
    async updateComment(owner, id, contents, now) {
      const rows = await orm
        .update(annotationComments)
        .set({ contents, updatedAt: now })
        .where(and(eq(annotationComments.owner, owner), eq(annotationComments.id, id)))
        .returning();
      return rows[0] ? commentRecord(rows[0]) : null;
    },
    async deleteComment(owner, id) {
      const rows = await orm
        .delete(annotationComments)
        .where(and(eq(annotationComments.owner, owner), eq(annotationComments.id, id)))
        .returning({ id: annotationComments.id });
      return rows.length > 0;
    },
  };
}
