import { and, eq, inArray, is, lt, or, Param, Placeholder, sql } from "drizzle-orm";
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

const utf8 = new TextEncoder();

/** D1 allows 100 bound parameters per statement; bulk asks for at most 50 ids. */
const IDS_PER_QUERY = 90;
/** A document row binds 7 parameters: 14 rows stay under D1's 100. */
const ROWS_PER_UPSERT = 14;

/** Placeholder names of the `i`th key or row of a prepared statement. */
const slot = (i: number, column: string) => sql.placeholder(`${column}${i}`);

/** Documents by `count` keys (an OR of whole keys), prepared once per count. */
function documentsByKeys(db: EdgeDb, count: number) {
  return db
    .select()
    .from(documents)
    .where(
      or(
        ...Array.from({ length: count }, (_, i) =>
          and(
            eq(documents.index, slot(i, "index")),
            eq(documents.id, slot(i, "id")),
            eq(documents.atTime, slot(i, "atTime")),
          ),
        ),
      ),
    )
    .prepare();
}

/** An upsert's conflict clause: a row stored again replaces the one under its key. */
const REPLACE_ON_KEY = {
  target: [documents.index, documents.id, documents.atTime],
  set: {
    body: sql`excluded.body`,
    negative: sql`excluded.negative`,
    fetchedAt: sql`excluded.fetched_at`,
    expiresAt: sql`excluded.expires_at`,
  },
};

/**
 * The upsert of `count` rows: its SQL built by Drizzle once per count, prepared on the D1
 * binding, with the placeholder names in the order the statement binds them. Run through D1's
 * own batch, as a flush of more rows than one statement binds needs several at once.
 */
function upsertOf(db: EdgeDb, count: number): { statement: D1PreparedStatement; names: string[] } {
  const query = db
    .insert(documents)
    .values(
      Array.from({ length: count }, (_, i) => ({
        index: slot(i, "index"),
        id: slot(i, "id"),
        atTime: slot(i, "atTime"),
        body: slot(i, "body"),
        negative: slot(i, "negative"),
        fetchedAt: slot(i, "fetchedAt"),
        expiresAt: slot(i, "expiresAt"),
      })),
    )
    .onConflictDoUpdate(REPLACE_ON_KEY)
    .toSQL();
  // Each value Drizzle binds is a placeholder, as its column's parameter.
  const names = query.params.map((param: unknown) => {
    const value: unknown = is(param, Param) ? param.value : param;
    if (!is(value, Placeholder))
      throw new Error("the document upsert binds a value that is not a placeholder");
    return value.name;
  });
  return { statement: db.$client.prepare(query.sql), names };
}

/** The placeholder values of `items` for a statement prepared for their count. */
function slotValues<T extends object>(items: readonly T[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  items.forEach((item, i) => {
    for (const [column, value] of Object.entries(item)) values[`${column}${i}`] = value;
  });
  return values;
}

/**
 * Statements by count, prepared on first use: Drizzle builds each statement's SQL once per
 * isolate, not once per call (for an upsert of 14 rows that was a deep walk of its parts).
 */
function preparedByCount<S>(prepare: (count: number) => S): (count: number) => S {
  const made = new Map<number, S>();
  return (count) => {
    let statement = made.get(count);
    if (!statement) made.set(count, (statement = prepare(count)));
    return statement;
  };
}

export class D1DocumentCache implements DocumentCache {
  private readonly byKeys = preparedByCount((count) => documentsByKeys(this.db, count));
  private readonly upserts = preparedByCount((count) => upsertOf(this.db, count));
  private readonly reads = new BatchedReads((keys) => this.readKeys(keys));

  constructor(private readonly db: EdgeDb) {}

  /** Concurrent reads share statements (`BatchedReads`). */
  get(key: DocumentKey, keepAlive?: (work: Promise<void>) => void): Promise<CachedDocument | null> {
    return this.reads.get(key, keepAlive);
  }

  /** Documents by key, in one statement prepared for their count; found rows by `documentKeyOf`. */
  private async readKeys(keys: readonly DocumentKey[]): Promise<Map<string, CachedDocument>> {
    const found = new Map<string, CachedDocument>();
    // An OR of whole keys: SQLite looks each up in the primary key (a row-value IN scans).
    const rows = await this.byKeys(keys.length).all(
      slotValues(keys.map(({ index, id, atTime }) => ({ index, id, atTime }))),
    );
    for (const row of rows) found.set(documentKeyOf(row), row);
    return found;
  }

  /** D1 holds nothing in memory. */
  peek(): CachedDocument | null {
    return null;
  }

  /** Nothing is held to keep the bytes with: encoded each time. */
  bodyBytes(_key: DocumentKey, body: string, render?: (body: string) => string): Uint8Array {
    return utf8.encode(render ? render(body) : body);
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

  /**
   * Upserts in as few statements as D1's parameter limit allows (up to 14 rows each), run as
   * one D1 call: the usual write-behind flush is one statement, a larger one a batch.
   */
  async put(entries: ReadonlyArray<{ key: DocumentKey; doc: CachedDocument }>): Promise<void> {
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < entries.length; i += ROWS_PER_UPSERT) {
      const chunk = entries.slice(i, i + ROWS_PER_UPSERT);
      const { statement, names } = this.upserts(chunk.length);
      const values = slotValues(
        chunk.map(({ key, doc }) => ({
          index: key.index,
          id: key.id,
          atTime: key.atTime,
          body: doc.body,
          // Bound as given (no column mapping runs): SQLite's integer for the boolean.
          negative: doc.negative ? 1 : 0,
          fetchedAt: doc.fetchedAt,
          expiresAt: doc.expiresAt,
        })),
      );
      statements.push(statement.bind(...names.map((name) => values[name])));
    }
    const [only] = statements;
    if (statements.length === 1 && only) await only.run();
    else if (statements.length > 1) await this.db.$client.batch(statements);
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
