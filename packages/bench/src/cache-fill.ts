// An edge cache that already holds N documents, for the cache-size runs of the scaling mode: a
// D1 database of its own (the edge's schema, from its migrations) filled with certificate rows
// the way the edge stores them. The bodies are real certificate documents of the dataset; the
// ids are random SHA-256-shaped keys, as real fingerprints are. Filling resumes where an earlier
// run stopped, and a database that is full is reused.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { D1Database } from "./cluster";
import { EDGE_DIR } from "./paths";

/** Rows per INSERT ... SELECT statement. */
const CHUNK = 10_000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The edge's migrations, statement by statement (drizzle-kit separates them with breakpoints). */
function migrationStatements(): string[] {
  const dir = path.join(EDGE_DIR, "migrations");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .flatMap((name) => readFileSync(path.join(dir, name), "utf8").split("--> statement-breakpoint"))
    .map((statement) => statement.trim())
    .filter(Boolean);
}

async function hasTable(db: D1Database, name: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?")
    .bind(name)
    .first();
  return row !== null;
}

async function certificateRows(db: D1Database): Promise<number> {
  const row = await db
    .prepare(`SELECT count(*) AS n FROM documents WHERE "index" = 'certificates'`)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

export type FillOutcome =
  | { readonly kind: "ready"; readonly rows: number; readonly seconds: number }
  | {
      readonly kind: "over-budget";
      readonly rows: number;
      readonly seconds: number;
      readonly estimatedSeconds: number;
      readonly rowsPerSecond: number;
    };

/**
 * Brings `edgeDb` to `target` cached certificate documents. Stops early, keeping what it wrote,
 * when the rate so far says the rest would not fit in `budgetSeconds`.
 */
export async function fillEdgeCache(
  edgeDb: D1Database,
  originDb: D1Database,
  target: number,
  budgetSeconds: number,
  progress: (message: string) => void,
): Promise<FillOutcome> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  if (!(await hasTable(edgeDb, "documents"))) {
    await edgeDb.batch(migrationStatements().map((s) => edgeDb.prepare(s)));
  }
  let rows = await certificateRows(edgeDb);
  if (rows >= target) return { kind: "ready", rows, seconds: 0 };

  // The dataset's certificate documents, to copy bodies from (inside SQLite, not through here).
  await edgeDb
    .prepare("CREATE TABLE IF NOT EXISTS bench_bodies (k INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    .run();
  const { results: docs } = await originDb
    .prepare("SELECT doc FROM certificates ORDER BY sha256")
    .all<{ doc: string }>();
  await edgeDb.prepare("DELETE FROM bench_bodies").run();
  for (let i = 0; i < docs.length; i += 50) {
    await edgeDb.batch(
      docs
        .slice(i, i + 50)
        .map((d, j) => edgeDb.prepare("INSERT INTO bench_bodies (k, body) VALUES (?, ?)").bind(i + j, d.doc)),
    );
  }
  const now = Date.now();
  const insert = edgeDb.prepare(
    `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
     INSERT INTO documents ("index", id, at_time, body, negative, fetched_at, expires_at)
     SELECT 'certificates', lower(hex(randomblob(32))), '', b.body, 0, ?3, ?4
     FROM n JOIN bench_bodies b ON b.k = n.i % ?5`,
  );
  const startRows = rows;
  const insertStarted = elapsed();
  let reported = 0;
  while (rows < target) {
    const next = Math.min(target, rows + CHUNK);
    await insert.bind(rows, next, now, now + WEEK_MS, docs.length).run();
    rows = next;
    // The insert rate alone (the set-up above is done once), projected over what is left.
    const rate = (rows - startRows) / (elapsed() - insertStarted);
    const estimatedSeconds = Math.round(elapsed() + (target - rows) / rate);
    if (rows < target && estimatedSeconds > budgetSeconds) {
      await edgeDb.prepare("DROP TABLE bench_bodies").run();
      return {
        kind: "over-budget",
        rows,
        seconds: Math.round(elapsed()),
        estimatedSeconds,
        rowsPerSecond: Math.round(rate),
      };
    }
    if (rows === target || Math.floor((rows / target) * 10) > reported) {
      reported = Math.floor((rows / target) * 10);
      progress(
        `cached documents: ${rows}/${target} (${Math.round((rows / target) * 100)}%, ${Math.round(rate)} rows/s)`,
      );
    }
  }
  await edgeDb.prepare("DROP TABLE bench_bodies").run();
  return { kind: "ready", rows, seconds: Math.round(elapsed()) };
}
