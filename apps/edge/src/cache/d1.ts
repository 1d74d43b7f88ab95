import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { EdgeDb } from "../db/client";
import { documents } from "../db/schema";
import { BatchedReads } from "./batched-reads";
import {
  type CachedDocument,
  type DocumentCache,
  type DocumentIndex,
  type DocumentKey,
  documentKeyOf,
} from "./interface";

/** D1 allows 100 bound parameters per statement; bulk asks for at most 50 ids. */
const IDS_PER_QUERY = 90;
/** A document row binds 7 parameters: 14 rows stay under D1's 100. */
const ROWS_PER_UPSERT = 14;

/**
 * A document by its key, prepared once per database: every cache miss and every hit memory
 * cannot answer runs it, and building it per call was Drizzle work on each (see the charge
 * statement in quota/ledger.ts for what preparing both saved).
 */
function documentByKey(db: EdgeDb) {
  return db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.index, sql.placeholder("index")),
        eq(documents.id, sql.placeholder("id")),
        eq(documents.atTime, sql.placeholder("atTime")),
      ),
    )
    .prepare();
}

export class D1DocumentCache implements DocumentCache {
  private readonly byKey: ReturnType<typeof documentByKey>;
  private readonly reads = new BatchedReads((keys) => this.readKeys(keys));

  constructor(private readonly db: EdgeDb) {
    this.byKey = documentByKey(db);
  }

  /** Concurrent reads share statements (`BatchedReads`). */
  get(key: DocumentKey, keepAlive?: (work: Promise<void>) => void): Promise<CachedDocument | null> {
    return this.reads.get(key, keepAlive);
  }

  /** Documents by key, in one statement (one key: the prepared one); found rows by `documentKeyOf`. */
  private async readKeys(keys: readonly DocumentKey[]): Promise<Map<string, CachedDocument>> {
    const found = new Map<string, CachedDocument>();
    const [only] = keys;
    if (keys.length === 1 && only) {
      const row = await this.byKey.get({ index: only.index, id: only.id, atTime: only.atTime });
      if (row) found.set(documentKeyOf(only), row);
      return found;
    }
    // An OR of whole keys: SQLite looks each up in the primary key (a row-value IN scans).
    const rows = await this.db
      .select()
      .from(documents)
      .where(
        or(
          ...keys.map((key) =>
            and(eq(documents.index, key.index), eq(documents.id, key.id), eq(documents.atTime, key.atTime)),
          ),
        ),
      );
    for (const row of rows) found.set(documentKeyOf(row), row);
    return found;
  }

  /** D1 holds nothing in memory. */
  peek(): CachedDocument | null {
    return null;
  }

  async getMany(
    index: DocumentIndex,
    ids: readonly string[],
    atTime = "",
  ): Promise<Map<string, CachedDocument>> {
    const found = new Map<string, CachedDocument>();
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      const rows = await this.db
        .select()
        .from(documents)
        .where(
          and(
            eq(documents.index, index),
            eq(documents.atTime, atTime),
            inArray(documents.id, ids.slice(i, i + IDS_PER_QUERY)),
          ),
        );
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  /** Upserts in as few statements as D1's parameter limit allows (one for up to 14 rows). */
  async put(entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>): Promise<void> {
    const statements = [];
    for (let i = 0; i < entries.length; i += ROWS_PER_UPSERT) {
      const rows = entries.slice(i, i + ROWS_PER_UPSERT).map(({ key, doc }) => ({ ...key, ...doc }));
      statements.push(
        this.db
          .insert(documents)
          .values(rows)
          .onConflictDoUpdate({
            target: [documents.index, documents.id, documents.atTime],
            set: {
              body: sql`excluded.body`,
              negative: sql`excluded.negative`,
              fetchedAt: sql`excluded.fetched_at`,
              expiresAt: sql`excluded.expires_at`,
            },
          }),
      );
    }
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /** D1 is the shared store itself: written before this resolves. */
  putSoon(entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>): Promise<void> {
    return this.put(entries);
  }

  async purge(index: DocumentIndex, id: string): Promise<number> {
    const rows = await this.db
      .delete(documents)
      .where(and(eq(documents.index, index), eq(documents.id, id)))
      .returning({ id: documents.id });
    return rows.length;
  }

  async cleanup(now: number, keepStaleMs: number, maxRows: number): Promise<number> {
    const stale = await this.db
      .delete(documents)
      .where(lt(documents.expiresAt, now - keepStaleMs))
      .returning({ id: documents.id });
    // Past the cap, the rows fetched longest ago go first (never-expiring ones included).
    const overflow = await this.db.run(
      sql`delete from ${documents} where rowid in (
        select rowid from ${documents} order by ${documents.fetchedAt} desc limit -1 offset ${maxRows})`,
    );
    return stale.length + (overflow.meta.changes ?? 0);
  }
}
