import type { AnnotatedIndex } from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { newRecordId } from "../auth/secrets";
import type { EdgeDb } from "../db/client";
import {
  annotationComments,
  annotationTagged,
  annotationTags,
  type AnnotationCommentRow,
  type AnnotationTagRow,
} from "../db/schema";

export type TagRow = AnnotationTagRow;
export type CommentRow = AnnotationCommentRow;

/** A tag change: `color` undefined keeps the stored color, null clears it. */
export interface TagChange {
  readonly name: string;
  readonly color?: string | null | undefined;
}

export type TagWriteResult = { ok: true; tag: TagRow } | { ok: false; reason: "duplicate_name" };

/** Names are unique ignoring case. */
const nameKey = (name: string) => name.toLowerCase();

/**
 * The team's tags and comments in the edge's D1. Every tenant shares them: tags have no owner
 * beyond who created them, comments are read by all and changed by their author (the routes
 * decide who may; this store only stores).
 */
export class AnnotationStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  listTags(): Promise<TagRow[]> {
    return this.db.select().from(annotationTags).orderBy(asc(annotationTags.nameKey));
  }

  async tag(id: string): Promise<TagRow | null> {
    const rows = await this.db.select().from(annotationTags).where(eq(annotationTags.id, id));
    return rows[0] ?? null;
  }

  async createTag(change: TagChange, by: string): Promise<TagWriteResult> {
    const now = this.clock.now();
    const rows = await this.db
      .insert(annotationTags)
      .values({
        id: newRecordId("tag"),
        name: change.name,
        nameKey: nameKey(change.name),
        color: change.color ?? null,
        createdBy: by,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: annotationTags.nameKey })
      .returning();
    const tag = rows[0];
    return tag ? { ok: true, tag } : { ok: false, reason: "duplicate_name" };
  }

  /** Null when there is no such tag. */
  async updateTag(id: string, change: TagChange): Promise<TagWriteResult | null> {
    const key = nameKey(change.name);
    const clash = await this.db
      .select({ id: annotationTags.id })
      .from(annotationTags)
      .where(and(eq(annotationTags.nameKey, key), ne(annotationTags.id, id)));
    if (clash.length > 0) return { ok: false, reason: "duplicate_name" };
    try {
      const rows = await this.db
        .update(annotationTags)
        .set({
          name: change.name,
          nameKey: key,
          ...(change.color === undefined ? {} : { color: change.color }),
          updatedAt: this.clock.now(),
        })
        .where(eq(annotationTags.id, id))
        .returning();
      const tag = rows[0];
      return tag ? { ok: true, tag } : null;
    } catch (error) {
      // A concurrent rename took the name between the check and the update.
      if (String(error).includes("UNIQUE")) return { ok: false, reason: "duplicate_name" };
      throw error;
    }
  }

  /** The deleted tag (its document links go with it), or null when there was none. */
  async deleteTag(id: string): Promise<TagRow | null> {
    const [, deleted] = await this.db.batch([
      this.db.delete(annotationTagged).where(eq(annotationTagged.tagId, id)),
      this.db.delete(annotationTags).where(eq(annotationTags.id, id)).returning(),
    ]);
    return deleted[0] ?? null;
  }

  /** The documents of `index` carrying the tag, oldest tagging first. */
  taggedDocuments(tagId: string, index: AnnotatedIndex): Promise<{ document: string; taggedAt: number }[]> {
    return this.db
      .select({ document: annotationTagged.document, taggedAt: annotationTagged.taggedAt })
      .from(annotationTagged)
      .where(and(eq(annotationTagged.tagId, tagId), eq(annotationTagged.index, index)))
      .orderBy(asc(annotationTagged.taggedAt), asc(annotationTagged.document));
  }

  async documentTags(index: AnnotatedIndex, document: string): Promise<TagRow[]> {
    const rows = await this.db
      .select({ tag: annotationTags })
      .from(annotationTagged)
      .innerJoin(annotationTags, eq(annotationTags.id, annotationTagged.tagId))
      .where(and(eq(annotationTagged.index, index), eq(annotationTagged.document, document)))
      .orderBy(asc(annotationTags.nameKey));
    return rows.map((row) => row.tag);
  }

  /** Puts the tag on the document; false when it was there already (its first time is kept). */
  async attach(tagId: string, index: AnnotatedIndex, document: string, by: string): Promise<boolean> {
    const rows = await this.db
      .insert(annotationTagged)
      .values({ tagId, index, document, taggedBy: by, taggedAt: this.clock.now() })
      .onConflictDoNothing()
      .returning({ tagId: annotationTagged.tagId });
    return rows.length > 0;
  }

  /** Takes the tag off the document; false when it was not on it. */
  async detach(tagId: string, index: AnnotatedIndex, document: string): Promise<boolean> {
    const rows = await this.db
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
  }

  /** The document's comments, oldest first. */
  comments(index: AnnotatedIndex, document: string): Promise<CommentRow[]> {
    return this.db
      .select()
      .from(annotationComments)
      .where(and(eq(annotationComments.index, index), eq(annotationComments.document, document)))
      .orderBy(asc(annotationComments.createdAt), asc(sql`rowid`));
  }

  async comment(id: string): Promise<CommentRow | null> {
    const rows = await this.db.select().from(annotationComments).where(eq(annotationComments.id, id));
    return rows[0] ?? null;
  }

  async addComment(
    index: AnnotatedIndex,
    document: string,
    authorId: string,
    contents: string,
  ): Promise<CommentRow> {
    const now = this.clock.now();
    const rows = await this.db
      .insert(annotationComments)
      .values({ id: newRecordId("cmt"), index, document, authorId, contents, createdAt: now, updatedAt: now })
      .returning();
    const row = rows[0];
    if (!row) throw new Error("comment insert returned no row");
    return row;
  }

  async updateComment(id: string, contents: string): Promise<CommentRow | null> {
    const rows = await this.db
      .update(annotationComments)
      .set({ contents, updatedAt: this.clock.now() })
      .where(eq(annotationComments.id, id))
      .returning();
    return rows[0] ?? null;
  }

  async deleteComment(id: string): Promise<CommentRow | null> {
    const rows = await this.db.delete(annotationComments).where(eq(annotationComments.id, id)).returning();
    return rows[0] ?? null;
  }

  /** What one tenant did lately, newest first (its dashboard). */
  async recentBy(tenantId: string, limit: number): Promise<{ tags: TagRow[]; comments: CommentRow[] }> {
    const [tags, comments] = await Promise.all([
      this.db
        .select()
        .from(annotationTags)
        .where(eq(annotationTags.createdBy, tenantId))
        .orderBy(desc(annotationTags.createdAt), desc(sql`rowid`))
        .limit(limit),
      this.db
        .select()
        .from(annotationComments)
        .where(eq(annotationComments.authorId, tenantId))
        .orderBy(desc(annotationComments.createdAt), desc(sql`rowid`))
        .limit(limit),
    ]);
    return { tags, comments };
  }
}
