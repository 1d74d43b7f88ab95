import { type MutableParts, tableNames } from "./d1-snapshot";

// Which stored rows a request changed, cheaply enough to ask after every fuzz batch. A full
// snapshot (test/support/d1-snapshot.ts) reads every row of every table, the whole seeded dataset
// included: hundreds of milliseconds. Here each table gets SQL triggers that note its name when
// any row of it is inserted, updated or deleted; a check reads (and clears) that list, and only
// the tables on it are read again and compared with their digest from the last check. The
// comparison is of the rows' content, so a change undone before the check (a charge, then its
// refund) is no change; exempt tables and columns are as in d1-snapshot.ts.

/** Where the triggers note what changed (not itself watched). */
const TOUCHED = "fuzz_touched";

export interface WatchedDatabase {
  db: D1Database;
  mutable: MutableParts;
  /**
   * Per table, an SQL condition of the rows compared; rows outside it may come and go (the
   * edge's negative cache rows: a 404 the upstream gave is stored, by design).
   */
  compared?: Readonly<Record<string, string>>;
}

const TABLE_COUNT = "select count(*) as n from sqlite_master where type = 'table'";

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

interface TableState {
  rows: number;
  digest: string;
}

export class D1Writes {
  /** database → table → its rows' digest at the last check. */
  private readonly states = new Map<string, Map<string, TableState>>();
  /** database → fingerprinted table → its fingerprint at the last check. */
  private readonly printed = new Map<string, Map<string, string>>();
  /** database → how many tables sqlite_master listed at the last check. */
  private readonly tableCounts = new Map<string, number>();
  constructor(private readonly databases: Record<string, WatchedDatabase>) {}

  /** Installs the triggers and takes every table's first digest. Call once, before any case. */
  async start(): Promise<void> {
    for (const [name, { db }] of Object.entries(this.databases)) {
      await db.prepare(`create table if not exists ${TOUCHED} (name text not null)`).run();
      this.states.set(name, new Map());
      for (const table of await this.watchable(name)) await this.watch(name, table);
      this.printed.set(name, await this.fingerprintsOf(name));
      this.tableCounts.set(name, await this.tableCount(name));
    }
  }

  private async tableCount(name: string): Promise<number> {
    const row = await this.database(name).db.prepare(TABLE_COUNT).first<{ n: number }>();
    return row?.n ?? 0;
  }

  private async watchable(name: string): Promise<string[]> {
    const { db, mutable } = this.database(name);
    return (await tableNames(db)).filter((t) => t !== TOUCHED && !mutable.tables.includes(t));
  }

  private database(name: string): WatchedDatabase {
    const database = this.databases[name];
    if (!database) throw new Error(`no database ${name}`);
    return database;
  }

  private async watch(name: string, table: string): Promise<void> {
    const { db } = this.database(name);
    // No unique key to conflict on: an upsert's own ON CONFLICT would apply inside the trigger too.
    const literal = `'${table.replace(/'/g, "''")}'`;
    const note = `insert into ${TOUCHED} select ${literal} where not exists (select 1 from ${TOUCHED} where name = ${literal})`;
    // An update only of exempt columns (a login time) is not noted.
    const skip = this.database(name).mutable.columns[table] ?? [];
    const { results: columns } = await db
      .prepare(`select name from pragma_table_info(${literal})`)
      .all<{ name: string }>();
    const kept = columns.map((c) => c.name).filter((c) => !skip.includes(c));
    const when =
      skip.length > 0 && kept.length > 0
        ? ` when ${kept.map((c) => `old.${quote(c)} is not new.${quote(c)}`).join(" or ")}`
        : "";
    try {
      await db.batch(
        ["insert", "update", "delete"].map((op) =>
          db.prepare(
            `create trigger if not exists ${quote(`fuzz_${op}_${table}`)} after ${op} on ${quote(table)}${op === "update" ? when : ""} begin ${note}; end`,
          ),
        ),
      );
      this.states.get(name)?.set(table, await this.digest(name, table));
    } catch {
      // A virtual table (a full-text index) or its own tables: SQLite takes no trigger on them.
      // Every check reads their fingerprint instead: the row count and the total length of every
      // column, which any write to an FTS5 index moves (its segments and sizes).
      await this.fingerprint(name, table);
    }
  }

  /** Tables without triggers → their fingerprint expression, per database. */
  private readonly fingerprints = new Map<string, Map<string, string>>();

  private async fingerprint(name: string, table: string): Promise<void> {
    const { db } = this.database(name);
    const { results } = await db
      .prepare(`select name from pragma_table_info(${`'${table.replace(/'/g, "''")}'`})`)
      .all<{ name: string }>();
    const virtual = await db
      .prepare("select sql like 'create virtual%' as v from sqlite_master where name = ?")
      .bind(table)
      .first<{ v: number }>();
    const lengths = results.map((c) => `total(length(${quote(c.name)}))`).join(" || ',' || ");
    // A virtual table's rows are its own tables' (fingerprinted there): a constant stands for it.
    const expression = virtual?.v
      ? "'virtual'"
      : `(select count(*) || ',' || ${lengths || "''"} from ${quote(table)})`;
    const own = this.fingerprints.get(name) ?? new Map<string, string>();
    own.set(table, expression);
    this.fingerprints.set(name, own);
  }

  /** Every fingerprinted table's fingerprint, in one statement. */
  private fingerprintStatement(name: string): D1PreparedStatement {
    const own = [...(this.fingerprints.get(name) ?? new Map<string, string>())];
    return this.database(name).db.prepare(
      `select ${own.map(([, e], i) => `${e} as f${i}`).join(", ") || "1 as none"}`,
    );
  }

  private fingerprintsFrom(name: string, row: Record<string, unknown> | undefined): Map<string, string> {
    const own = [...(this.fingerprints.get(name) ?? new Map<string, string>())];
    return new Map(own.map(([table], i) => [table, String(row?.[`f${i}`])]));
  }

  private async fingerprintsOf(name: string): Promise<Map<string, string>> {
    const row = await this.fingerprintStatement(name).first<Record<string, unknown>>();
    return this.fingerprintsFrom(name, row ?? undefined);
  }

  private async digest(name: string, table: string): Promise<TableState> {
    const { db, mutable, compared } = this.database(name);
    const where = compared?.[table] ? ` where ${compared[table]}` : "";
    const { results } = await db
      .prepare(`select * from ${quote(table)}${where}`)
      .all<Record<string, unknown>>();
    const skip = mutable.columns[table] ?? [];
    const rows = results
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !skip.includes(column))))
      .sort();
    return { rows: rows.length, digest: await sha256(rows.join("\n")) };
  }

  /**
   * `db.table: rows before → after` for every table whose rows differ from the last check (a
   * table created since counts as changed, and is watched from now on). Resets the baseline.
   */
  async changes(): Promise<string[]> {
    const changes: string[] = [];
    for (const [name, { db }] of Object.entries(this.databases)) {
      const states = this.states.get(name) ?? new Map<string, TableState>();
      const [touched, count, prints] = await db.batch<Record<string, unknown>>([
        db.prepare(`delete from ${TOUCHED} returning name`),
        db.prepare(TABLE_COUNT),
        this.fingerprintStatement(name),
      ]);
      const names = new Set((touched?.results ?? []).map((r) => String(r.name)));
      const tables = Number(count?.results[0]?.n ?? 0);
      if (tables !== this.tableCounts.get(name)) {
        const now = await this.watchable(name);
        for (const table of now) {
          if (states.has(table) || this.fingerprints.get(name)?.has(table)) continue;
          changes.push(`${name}.${table}: created`);
          await this.watch(name, table);
        }
        for (const table of states.keys()) {
          if (now.includes(table)) continue;
          changes.push(`${name}.${table}: dropped`);
          states.delete(table);
          names.delete(table);
        }
        for (const table of this.fingerprints.get(name)?.keys() ?? []) {
          if (now.includes(table)) continue;
          changes.push(`${name}.${table}: dropped`);
          this.fingerprints.get(name)?.delete(table);
        }
        this.tableCounts.set(name, tables);
      }
      for (const table of names) {
        const before = states.get(table);
        const after = await this.digest(name, table);
        states.set(table, after);
        if (before?.digest !== after.digest)
          changes.push(`${name}.${table}: ${before?.rows ?? "absent"} rows → ${after.rows} rows`);
      }
      const printed = this.printed.get(name) ?? new Map<string, string>();
      const now = this.fingerprintsFrom(name, prints?.results[0]);
      for (const [table, print] of now)
        if (printed.get(table) !== print) changes.push(`${name}.${table}: changed (row count or lengths)`);
      this.printed.set(name, now);
    }
    return changes;
  }
}
