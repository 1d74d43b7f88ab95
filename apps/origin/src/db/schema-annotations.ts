import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Tags and comments (the v2 tag and comment API). They belong to the origin account that made
 * them (`owner`, its API id): another account neither sees nor changes them. Tag names are
 * unique per account ignoring case (`name_key` is the lowercased name).
 */
export const annotationTags = sqliteTable(
  "annotation_tags",
  {
    /** `tag_<random>`. */
    id: text("id").primaryKey(),
    owner: text("owner").notNull(),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    /** `#rrggbb`, or null for none. */
    color: text("color"),
    /** Epoch ms. */
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("annotation_tags_owner_name").on(t.owner, t.nameKey)],
);

/** Which documents carry which tag: `index` is hosts or certificates, `document` its id. */
export const annotationTagged = sqliteTable(
  "annotation_tagged",
  {
    tagId: text("tag_id")
      .notNull()
      .references(() => annotationTags.id, { onDelete: "cascade" }),
    index: text("index", { enum: ["hosts", "certificates"] }).notNull(),
    document: text("document").notNull(),
    taggedAt: integer("tagged_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tagId, t.index, t.document] }),
    index("annotation_tagged_document").on(t.index, t.document),
  ],
);

/** Comments on hosts and certificates, each in its author account's own set. */
export const annotationComments = sqliteTable(
  "annotation_comments",
  {
    /** `cmt_<random>`. */
    id: text("id").primaryKey(),
    owner: text("owner").notNull(),
    index: text("index", { enum: ["hosts", "certificates"] }).notNull(),
    document: text("document").notNull(),
    contents: text("contents").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("annotation_comments_document").on(t.owner, t.index, t.document, t.createdAt)],
);
