/** What a refused request may change in a database; see the edge's test/reliability/d1-snapshot.ts. */
export interface MutableParts {
  readonly tables: readonly string[];
  readonly columns: Readonly<Record<string, readonly string[]>>;
}

/** The origin records when its account last called (login times); `used` is not exempt. */
export const ORIGIN_MUTABLE: MutableParts = {
  tables: [],
  columns: { account_usage: ["first_login", "last_login"] },
};

/** Table name → row count and a digest of its rows (order-independent). */
export type Snapshot = Map<string, { rows: number; digest: string }>;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every user table of `db` (not SQLite's, D1's or the migrations bookkeeping). */
export async function tableNames(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name <> 'd1_migrations' order by name",
    )
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

export async function snapshotDatabase(db: D1Database, mutable: MutableParts): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  for (const table of await tableNames(db)) {
    if (mutable.tables.includes(table)) continue;
    const { results } = await db
      .prepare(`select * from "${table.replace(/"/g, '""')}"`)
      .all<Record<string, unknown>>();
    const skip = mutable.columns[table] ?? [];
    const rows = results
      .map((row) => JSON.stringify(Object.entries(row).filter(([column]) => !skip.includes(column))))
      .sort();
    snapshot.set(table, { rows: rows.length, digest: await sha256(rows.join("\n")) });
  }
  return snapshot;
}

/** `db.table: rows before → after` for every table whose rows differ. */
export function changedTables(before: Record<string, Snapshot>, after: Record<string, Snapshot>): string[] {
  const changes: string[] = [];
  for (const [db, tables] of Object.entries(after)) {
    const old: Snapshot = before[db] ?? new Map<string, { rows: number; digest: string }>();
    for (const name of new Set([...old.keys(), ...tables.keys()])) {
      const a = old.get(name);
      const b = tables.get(name);
      if (a?.digest !== b?.digest)
        changes.push(`${db}.${name}: ${a?.rows ?? "absent"} rows → ${b?.rows ?? "absent"} rows`);
    }
  }
  return changes;
}
