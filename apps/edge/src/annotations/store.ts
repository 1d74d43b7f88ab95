import {
  ANNOTATION_CAPS,
  fullestCap,
  nameKey,
  type AnnotatedIndex,
  type AnnotationCap,
} from "@scangate/core";
import type { Clock } from "@scangate/core/http";
import { and, asc, desc, eq, ne, notExists, sql } from "drizzle-orm";
import { newRecordId } from "../auth/secrets";
import type { EdgeDb } from "../db/client";
import {
  annotationComments,
  annotationTagged,
  annotationTags,
  type CommentRow,
  type TagRow,
} from "../db/schema";

/** A tag change: `color` undefined keeps the stored color, null clears it. */
export interface TagChange {
  readonly name: string;
  readonly color?: string | null | undefined;
}

/** A write refused because a cap (core's ANNOTATION_CAPS) is reached. */
type CapReached = { readonly ok: false; readonly reason: AnnotationCap };
export type TagWriteResult = { ok: true; tag: TagRow } | { ok: false; reason: "duplicate_name" } | CapReached;
/** `changed` false: the tag was on the document already (its first time is kept). */
export type AttachResult = { ok: true; changed: boolean } | CapReached;
export type CommentWriteResult = { ok: true; comment: CommentRow } | CapReached;

const { tags, comments, tag_links, tag_documents, document_tags, document_comments } = ANNOTATION_CAPS;

/**
 * The team's tags and comments in the edge's D1. Every tenant shares them: tags have no owner
 * beyond who created them, comments are read by all and changed by their author (the routes
 * decide who may; this store only stores). The team's caps hold whatever the concurrency: each
 * insert counts and writes in one statement, `INSERT ... SELECT ... WHERE count < cap`, and the
 * lists stop at the caps. Names are compared in core's `nameKey` form (NFC, ignoring case).
 */
export class AnnotationStore {
  constructor(
    private readonly db: EdgeDb,
    private readonly clock: Clock,
  ) {}

  listTags(): Promise<TagRow[]> {
    return this.db.select().from(annotationTags).orderBy(asc(annotationTags.nameKey)).limit(tags);
  }

  async tag(id: string): Promise<TagRow | null> {
    return (await this.db.select().from(annotationTags).where(eq(annotationTags.id, id)).get()) ?? null;
  }

  async createTag(change: TagChange, by: string): Promise<TagWriteResult> {
    const now = this.clock.now();
    const tag: TagRow = {
      id: newRecordId("tag"),
      name: change.name,
      nameKey: nameKey(change.name),
      color: change.color ?? null,
      createdBy: by,
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await this.db.all(sql`
      insert into annotation_tags (id, name, name_key, color, created_by, created_at, updated_at)
      select ${tag.id}, ${tag.name}, ${tag.nameKey}, ${tag.color}, ${by}, ${now}, ${now}
      where (select count(*) from annotation_tags) < ${tags}
      on conflict (name_key) do nothing
      returning id`);
    if (inserted.length > 0) return { ok: true, tag };
    const taken = await this.db
      .select({ id: annotationTags.id })
      .from(annotationTags)
      .where(eq(annotationTags.nameKey, tag.nameKey));
    return taken.length > 0 ? { ok: false, reason: "duplicate_name" } : { ok: false, reason: "tags" };
  }

  /** Null when there is no such tag. */
  async updateTag(id: string, change: TagChange): Promise<TagWriteResult | null> {
    const key = nameKey(change.name);
    // One statement, so no concurrent rename can take the name between the check and the write.
    const clash = this.db
      .select({ id: annotationTags.id })
      .from(annotationTags)
      .where(and(eq(annotationTags.nameKey, key), ne(annotationTags.id, id)));
    const rows = await this.db
      .update(annotationTags)
      .set({
        name: change.name,
        nameKey: key,
        ...(change.color === undefined ? {} : { color: change.color }),
        updatedAt: this.clock.now(),
      })
      .where(and(eq(annotationTags.id, id), notExists(clash)))
      .returning();
    const tag = rows[0];
    if (tag) return { ok: true, tag };
    // No row changed: either there is no such tag or another tag has the name.
    return (await this.tag(id)) ? { ok: false, reason: "duplicate_name" } : null;
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
      .orderBy(asc(annotationTagged.taggedAt), asc(annotationTagged.document))
      .limit(tag_documents);
  }

  async documentTags(index: AnnotatedIndex, document: string): Promise<TagRow[]> {
    const rows = await this.db
      .select({ tag: annotationTags })
      .from(annotationTagged)
      .innerJoin(annotationTags, eq(annotationTags.id, annotationTagged.tagId))
      .where(and(eq(annotationTagged.index, index), eq(annotationTagged.document, document)))
      .orderBy(asc(annotationTags.nameKey))
      .limit(document_tags);
    return rows.map((row) => row.tag);
  }

  /** Puts the tag on the document, unless it is there already or a cap is reached. */
  async attach(tagId: string, index: AnnotatedIndex, document: string, by: string): Promise<AttachResult> {
    const onTag = sql`select count(*) from annotation_tagged where tag_id = ${tagId}`;
    const onDocument = sql`select count(*) from annotation_tagged
      where "index" = ${index} and document = ${document}`;
    const links = sql`select count(*) from annotation_tagged`;
    const inserted = await this.db.all(sql`
      insert into annotation_tagged (tag_id, "index", document, tagged_by, tagged_at)
      select ${tagId}, ${index}, ${document}, ${by}, ${this.clock.now()}
      where (${onTag}) < ${tag_documents} and (${onDocument}) < ${document_tags} and (${links}) < ${tag_links}
      on conflict do nothing
      returning tag_id`);
    if (inserted.length > 0) return { ok: true, changed: true };
    const [row] = await this.db.all<{
      present: number;
      on_tag: number;
      on_document: number;
      links: number;
    }>(sql`
      select
        exists(select 1 from annotation_tagged
          where tag_id = ${tagId} and "index" = ${index} and document = ${document}) as present,
        (${onTag}) as on_tag, (${onDocument}) as on_document, (${links}) as links`);
    if (!row || row.present) return { ok: true, changed: false };
    return {
      ok: false,
      reason: fullestCap({ tag_documents: row.on_tag, document_tags: row.on_document, tag_links: row.links }),
    };
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
      .orderBy(asc(annotationComments.createdAt), asc(sql`rowid`))
      .limit(document_comments);
  }

  async comment(id: string): Promise<CommentRow | null> {
    return (
      (await this.db.select().from(annotationComments).where(eq(annotationComments.id, id)).get()) ?? null
    );
  }

  /** Adds the comment unless a cap (the document's, the team's) is reached. */
  async addComment(
    index: AnnotatedIndex,
    document: string,
    authorId: string,
    contents: string,
  ): Promise<CommentWriteResult> {
    const now = this.clock.now();
    const comment: CommentRow = {
      id: newRecordId("cmt"),
      index,
      document,
      authorId,
      contents,
      createdAt: now,
      updatedAt: now,
    };
    const onDocument = sql`select count(*) from annotation_comments
      where "index" = ${index} and document = ${document}`;
    const all = sql`select count(*) from annotation_comments`;
    const inserted = await this.db.all(sql`
      insert into annotation_comments (id, "index", document, author_id, contents, created_at, updated_at)
      select ${comment.id}, ${index}, ${document}, ${authorId}, ${contents}, ${now}, ${now}
      where (${onDocument}) < ${document_comments} and (${all}) < ${comments}
      returning id`);
    if (inserted.length > 0) return { ok: true, comment };
    const [row] = await this.db.all<{ on_document: number; all: number }>(
      sql`select (${onDocument}) as on_document, (${all}) as "all"`,
    );
    return {
      ok: false,
      reason: fullestCap({ document_comments: row?.on_document ?? 0, comments: row?.all ?? 0 }),
    };
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
