/**
 * Empties a test file's storage before it runs. The Workers pool runs every test file of the
 * origin in one runtime (`isolate: false` in vitest.config.ts): with a runtime per file, starting
 * it and loading the worker's modules were 428 s of the suite's 854 s in CI. So each file begins
 * by dropping what the files before it stored, as a runtime of its own would have started.
 */

/** Drops every table and view of `db`, including its record of applied migrations. */
export async function emptyDatabase(db: D1Database): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND type IN ('table', 'view')",
    )
    .all<{ type: "table" | "view"; name: string; sql: string | null }>();
  // A virtual table (full-text search) drops its own shadow tables, so it goes first, and a
  // shadow table it already dropped is skipped.
  const ordered = [...results].sort((a, b) => rank(a) - rank(b));
  const gone = new Set<string>();
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  await db.exec("PRAGMA defer_foreign_keys = ON");
  for (const { type, name, sql } of ordered) {
    if (gone.has(name)) continue;
    await db.prepare(`DROP ${type === "view" ? "VIEW" : "TABLE"} IF EXISTS ${quoted(name)}`).run();
    gone.add(name);
    if (sql?.startsWith("CREATE VIRTUAL TABLE"))
      for (const other of results) if (other.name.startsWith(`${name}_`)) gone.add(other.name);
  }
}

function rank({ type, sql }: { type: string; sql: string | null }): number {
  if (type === "view") return 0;
  return sql?.startsWith("CREATE VIRTUAL TABLE") ? 1 : 2;
}

/** Deletes every object of `bucket`. */
export async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (let cursor: string | undefined; ; ) {
    const page = await bucket.list({ cursor, limit: 1000 });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
    if (!page.truncated) return;
    cursor = page.cursor;
  }
}
