// The origin's local D1 database, opened the way `wrangler d1 execute --local` opens it (the
// same Miniflare persistence folder and database id), and loaded from memory rather than from
// SQL files: `wrangler d1 execute --file` re-splits a whole file in JavaScript first (measured
// here: 48 MB of INSERTs in 66 s, against 8 s batch by batch).
//
// How a load keeps its cost per host flat as the dataset grows (on 10,000 hosts, the 2 million
// field_values and field_words rows took about 70% of the time spent in D1 when inserted as
// generated, and their share grew with the dataset):
// - batches travel as one plain HTTP body to a loader worker beside the database, which hands
//   them to its D1 binding, rather than through Miniflare's Node-side binding proxy;
// - the generator keeps generating while the previous batch runs (one batch in flight, so
//   statements still run in the order they were made);
// - the field catalogue's leaf rows (src/dataset/field-catalog.ts) go to plain staging tables
//   first and into their WITHOUT ROWID tables at the end, sorted by primary key: inserted in
//   generation order, each row lands on a random page of a tree far bigger than SQLite's cache.
import path from "node:path";
import { Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import { generateDataset, type DatasetOptions, type DatasetSummary } from "../src/dataset/generate";
import { InsertBatcher, clearDatasetStatements, type DatasetTable, type Row } from "../src/dataset/sql";

type D1Database = Awaited<ReturnType<Miniflare["getD1Database"]>>;

export interface LocalD1 {
  db: D1Database;
  /** Runs statements as one D1 batch (one transaction); rejects after `deadlineMs`. */
  execute(statements: string[], deadlineMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

interface D1Binding {
  binding: string;
  database_id?: string;
  preview_database_id?: string;
}

/** A D1 binding's database id as wrangler reads it from the app's wrangler.jsonc. */
export function d1DatabaseId(appDir: string, binding: string): string {
  const config = unstable_readConfig(
    { config: path.join(appDir, "wrangler.jsonc") },
    { hideWarnings: true },
  ) as unknown as { d1_databases: D1Binding[] };
  const entry = config.d1_databases.find((d) => d.binding === binding);
  const id = entry?.preview_database_id ?? entry?.database_id;
  if (!id) throw new Error(`wrangler.jsonc has no D1 binding named ${binding}`);
  return id;
}

/**
 * The loader worker: statements in, run as one batch, 204 or the error's message out. Each
 * statement comes as its length, a newline and its text: unlike JSON, nothing in the SQL (the
 * documents' quotes above all) is escaped and parsed again.
 */
const LOADER_SCRIPT = `export default {
  async fetch(request, env) {
    const body = await request.text();
    const statements = [];
    for (let at = 0; at < body.length; ) {
      const newline = body.indexOf("\\n", at);
      const end = newline + 1 + Number(body.slice(at, newline));
      statements.push(env.DB.prepare(body.slice(newline + 1, end)));
      at = end;
    }
    try {
      await env.DB.batch(statements);
      return new Response(null, { status: 204 });
    } catch (error) {
      return new Response(error instanceof Error ? error.message : String(error), { status: 500 });
    }
  },
};`;

/** A batch takes milliseconds; one that has not finished in this long is stuck, and the seed says so. */
const BATCH_DEADLINE_MS = 120_000;

/** `persistTo` as wrangler's --persist-to; wrangler's default is `<app>/.wrangler/state`. */
export async function openLocalD1(appDir: string, persistTo: string | undefined): Promise<LocalD1> {
  const root = persistTo ?? path.join(appDir, ".wrangler", "state");
  const mf = new Miniflare({
    modules: true,
    script: LOADER_SCRIPT,
    d1Persist: path.join(root, "v3", "d1"),
    d1Databases: { DB: d1DatabaseId(appDir, "DB") },
  });
  const db = await mf.getD1Database("DB");
  const execute = async (statements: string[], deadlineMs = BATCH_DEADLINE_MS): Promise<void> => {
    if (statements.length === 0) return;
    const response = await mf
      .dispatchFetch("http://loader/", {
        method: "POST",
        body: statements.map((statement) => `${statement.length}\n${statement}`).join(""),
        signal: AbortSignal.timeout(deadlineMs),
      })
      .catch((error: unknown) => {
        if (error instanceof Error && error.name === "TimeoutError")
          throw new Error(
            `a batch of ${statements.length} statements was not done after ${deadlineMs / 1000} s; ` +
              `it begins: ${statements[0]?.slice(0, 80) ?? ""}`,
          );
        throw error;
      });
    if (response.status !== 204) throw new Error(`D1 batch failed: ${await response.text()}`);
  };
  return { db, execute, dispose: () => mf.dispose() };
}

/** Bytes of SQL per D1 batch: fewer, larger transactions, each still far from any deadline. */
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Statements in, D1 batches of about BATCH_BYTES out, one batch in flight while the next one
 * fills: `drain` waits only when a full batch is ready and the previous one is still running.
 */
class BatchPipe {
  private pending: string[] = [];
  private bytes = 0;
  private inflight: Promise<void> = Promise.resolve();

  constructor(private readonly local: LocalD1) {}

  push(statement: string): void {
    this.pending.push(statement);
    this.bytes += statement.length;
  }

  async drain(all = false): Promise<void> {
    if (this.bytes < BATCH_BYTES && !(all && this.pending.length > 0)) return;
    const batch = this.pending;
    this.pending = [];
    this.bytes = 0;
    await this.inflight;
    this.inflight = this.local.execute(batch);
    // A failure surfaces at the next drain or at finish, not as an unhandled rejection.
    this.inflight.catch(() => undefined);
  }

  async finish(): Promise<void> {
    await this.drain(true);
    await this.inflight;
  }
}

/** The leaf tables loaded through staging tables, and how many staging tables each gets. */
const STAGED_TABLES = ["field_values", "field_words"] as const satisfies readonly DatasetTable[];
type StagedTable = (typeof STAGED_TABLES)[number];
/**
 * Rows are spread over the staging tables by field id, so each sort holds a fraction of the
 * rows and each staging table's pages, freed once it is merged, are reused by the next merge.
 */
const STAGE_PARTS = 8;
/** A merge sorts millions of rows in one statement (1,000,000 hosts: about 15 million). */
const MERGE_DEADLINE_MS = 30 * 60_000;

const stagingTable = (table: StagedTable, part: number) => `seed_${table}_${part}`;
const isStaged = (table: DatasetTable): table is StagedTable =>
  (STAGED_TABLES as readonly string[]).includes(table);

function dropStagingStatements(): string[] {
  return STAGED_TABLES.flatMap((table) =>
    Array.from({ length: STAGE_PARTS }, (_, part) => `DROP TABLE IF EXISTS ${stagingTable(table, part)};`),
  );
}

/** Staging tables shaped like their table (same columns and declared types), without its primary key. */
function createStagingStatements(): string[] {
  return STAGED_TABLES.flatMap((table) =>
    Array.from(
      { length: STAGE_PARTS },
      (_, part) => `CREATE TABLE ${stagingTable(table, part)} AS SELECT * FROM ${table} WHERE 0;`,
    ),
  );
}

/** Moves one staging table into its table in primary-key order (field, value or word NOCASE, doc, scope). */
function mergeStatements(table: StagedTable, part: number): string[] {
  const text = table === "field_values" ? "value" : "word";
  const staging = stagingTable(table, part);
  return [
    `INSERT INTO ${table} (field, ${text}, doc, scope) SELECT field, ${text}, doc, scope FROM ${staging} ` +
      `ORDER BY field, ${text} COLLATE NOCASE, doc, scope;`,
    `DROP TABLE ${staging};`,
  ];
}

/**
 * Generates the dataset into the database. Whatever an earlier load left is cleared first,
 * even without dataset_meta (an interrupted load leaves rows but no meta); dataset_meta is
 * written last, after the staged rows are in their tables, so it marks a complete load.
 */
export async function loadDataset(local: LocalD1, options: DatasetOptions): Promise<DatasetSummary> {
  await local.execute([
    ...clearDatasetStatements(),
    ...dropStagingStatements(),
    ...createStagingStatements(),
  ]);
  const pipe = new BatchPipe(local);
  const push = (statement: string) => pipe.push(statement);
  const direct = new InsertBatcher(push);
  const staged = Array.from(
    { length: STAGE_PARTS },
    (_, part) => new InsertBatcher(push, (table) => (isStaged(table) ? stagingTable(table, part) : table)),
  );
  const meta: Row[] = [];
  const summary = await generateDataset(options, {
    add: (table, row) => {
      if (table === "dataset_meta") meta.push(row);
      else if (isStaged(table)) staged[Number(row.field) % STAGE_PARTS]?.add(table, row);
      else direct.add(table, row);
    },
    drain: () => pipe.drain(),
  });
  direct.flush();
  for (const batcher of staged) batcher.flush();
  await pipe.finish();

  const started = performance.now();
  for (const table of STAGED_TABLES)
    for (let part = 0; part < STAGE_PARTS; part++)
      await local.execute(mergeStatements(table, part), MERGE_DEADLINE_MS);
  options.onProgress?.(
    `field catalogue rows sorted into field_values and field_words in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const last: string[] = [];
  const metaBatcher = new InsertBatcher((statement) => last.push(statement));
  for (const row of meta) metaBatcher.add("dataset_meta", row);
  metaBatcher.flush();
  await local.execute(last);
  return summary;
}
