import type { AnnotatedIndex, StoredComment, StoredTag } from "@scangate/core";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { annotationComments, annotationTagged, annotationTags } from "../db/schema-annotations";

export type CommentRecord = StoredComment & { readonly index: AnnotatedIndex; readonly owner: string };

/** A tag change: `color` undefined keeps the stored color, null clears it. */
export interface TagChange {
  readonly name: string;
  readonly color?: string | null | undefined;
}

export type TagWriteResult = { ok: true; tag: StoredTag } | { ok: false; reason: "duplicate_name" };

/**
 * One account's tags and comments. Every method takes the owning account's API id: another
 * account's records are invisible (a tag or comment id of theirs is simply not found).
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
  /** False when the tag was on the document already. */
  attach(tagId: string, index: AnnotatedIndex, document: string, now: number): Promise<boolean>;
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
  ): Promise<CommentRecord>;
  updateComment(owner: string, id: string, contents: string, now: number): Promise<CommentRecord | null>;
  deleteComment(owner: string, id: string): Promise<boolean>;
}

function randomId(prefix: "tag" | "cmt"): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

const nameKey = (name: string) => name.toLowerCase();

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
        .orderBy(asc(annotationTags.nameKey)),
    async tag(owner, id) {
      const rows = await orm
        .select()
        .from(annotationTags)
        .where(and(eq(annotationTags.owner, owner), eq(annotationTags.id, id)));
      return rows[0] ?? null;
    },
    async createTag(owner, change, now) {
      const rows = await orm
        .insert(annotationTags)
        .values({
          id: randomId("tag"),
          owner,
          name: change.name,
          nameKey: nameKey(change.name),
          color: change.color ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: [annotationTags.owner, annotationTags.nameKey] })
        .returning();
      const tag = rows[0];
      return tag ? { ok: true, tag } : { ok: false, reason: "duplicate_name" };
    },
    async updateTag(owner, id, change, now) {
      const key = nameKey(change.name);
      const clash = await orm
        .select({ id: annotationTags.id })
        .from(annotationTags)
        .where(
          and(eq(annotationTags.owner, owner), eq(annotationTags.nameKey, key), ne(annotationTags.id, id)),
        );
      if (clash.length > 0) return { ok: false, reason: "duplicate_name" };
      try {
        const rows = await orm
          .update(annotationTags)
          .set({
            name: change.name,
            nameKey: key,
            ...(change.color === undefined ? {} : { color: change.color }),
            updatedAt: now,
          })
          .where(and(eq(annotationTags.owner, owner), eq(annotationTags.id, id)))
          .returning();
        const tag = rows[0];
        return tag ? { ok: true, tag } : null;
      } catch (error) {
        // A concurrent rename took the name between the check and the update.
        if (String(error).includes("UNIQUE")) return { ok: false, reason: "duplicate_name" };
        throw error;
      }
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
        .orderBy(asc(annotationTagged.taggedAt), asc(annotationTagged.document)),
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
        .orderBy(asc(annotationTags.nameKey));
      return rows.map((row) => row.tag);
    },
    async attach(tagId, index, document, now) {
      const rows = await orm
        .insert(annotationTagged)
        .values({ tagId, index, document, taggedAt: now })
        .onConflictDoNothing()
        .returning({ tagId: annotationTagged.tagId });
      return rows.length > 0;
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
        .orderBy(asc(annotationComments.createdAt), asc(sql`rowid`));
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
      const rows = await orm
        .insert(annotationComments)
        .values({ id: randomId("cmt"), owner, index, document, contents, createdAt: now, updatedAt: now })
        .returning();
      if (!rows[0]) throw new Error("comment insert returned no row");
      return commentRecord(rows[0]);
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
