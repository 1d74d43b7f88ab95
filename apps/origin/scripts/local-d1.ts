// The origin's local D1 database, opened the way `wrangler d1 execute --local` opens it (the
// same Miniflare persistence folder and database id), but loaded statement batch by statement
// batch from memory: measured here, this is about 8x faster than `wrangler d1 execute --file`
// (48 MB of INSERTs: 8 s against 66 s), which re-splits the whole file in JavaScript first.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Miniflare } from "miniflare";

type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

export interface LocalD1 {
  db: D1Database;
  dispose(): Promise<void>;
}

/** The DB binding's database id from wrangler.jsonc (no comments in that file but `//` lines are stripped). */
function databaseId(appDir: string): string {
  const text = readFileSync(path.join(appDir, "wrangler.jsonc"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  const config = JSON.parse(text) as { d1_databases?: { binding: string; database_id: string; preview_database_id?: string }[] };
  const entry = config.d1_databases?.find((d) => d.binding === "DB");
  if (!entry) throw new Error("wrangler.jsonc has no D1 binding named DB");
  return entry.preview_database_id ?? entry.database_id;
}

/** `persistTo` as wrangler's --persist-to; wrangler's default is `<app>/.wrangler/state`. */
export async function openLocalD1(appDir: string, persistTo: string | undefined): Promise<LocalD1> {
  const root = persistTo ?? path.join(appDir, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: "export default {}",
    d1Persist: path.join(root, "v3", "d1"),
    d1Databases: { DB: databaseId(appDir) },
  });
  const db = await mf.getD1Database("DB");
  return { db, dispose: () => mf.dispose() };
}

/** Runs statements in batches (one transaction per batch). */
export async function runStatements(db: D1Database, statements: string[], batchSize = 40): Promise<void> {
  for (let i = 0; i < statements.length; i += batchSize) {
    await db.batch(statements.slice(i, i + batchSize).map((s) => db.prepare(s)));
  }
}
