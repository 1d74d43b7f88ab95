import { env } from "cloudflare:workers";
import type { FieldType, ResolvedTable, ScanHint, ScanRequest, SourceRow } from "@scangate/sql";
import { beforeAll, describe, expect, it } from "vitest";
import { endOfDay, historyDays } from "../src/snapshots/build";
import { loadSnapshotCatalog, type SnapshotCatalog } from "../src/snapshots/catalog";
import { valueAt, type Json } from "../src/snapshots/definitions";
import { createSnapshotRowSource, MAX_WINDOW_ROWS } from "../src/snapshots/row-source";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";

beforeAll(() => seedDatasetAndSnapshots());

interface Version {
  ip: string;
  validFrom: number;
  validTo: number | null;
  doc: Json;
}

async function versions(): Promise<Version[]> {
  const { results } = await env.DB.prepare(
    "SELECT ip, valid_from, valid_to, doc FROM host_history ORDER BY ip, valid_from",
  ).all<{ ip: string; valid_from: number; valid_to: number | null; doc: string }>();
  return results.map((r) => ({
    ip: r.ip,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    doc: JSON.parse(r.doc) as Json,
  }));
}

function validAt(all: Version[], day: string): Version[] {
  const at = endOfDay(day);
  return all.filter((v) => v.validFrom <= at && (v.validTo === null || v.validTo > at));
}

/** A D1 binding that records every statement the source runs (SQL and parameters). */
function recorded(db: D1Database): { db: D1Database; statements: { sql: string; params: unknown[] }[] } {
  const statements: { sql: string; params: unknown[] }[] = [];
  const statement = (sql: string, params: unknown[]): unknown => ({
    bind: (...values: unknown[]) => statement(sql, values),
    raw: () => {
      statements.push({ sql, params });
      return db
        .prepare(sql)
        .bind(...params)
        .raw();
    },
    first: () => {
      statements.push({ sql, params });
      return db
        .prepare(sql)
        .bind(...params)
        .first();
    },
  });
  return { db: { prepare: (sql: string) => statement(sql, []) } as unknown as D1Database, statements };
}

/** Rows the database read to answer a statement (D1's own count). */
async function rowsRead(sql: string, params: unknown[]): Promise<number> {
  return (
    await env.SNAPSHOTS.prepare(sql)
      .bind(...params)
      .all()
  ).meta.rows_read;
}

async function scanAll(
  source: ReturnType<typeof createSnapshotRowSource>,
  request: Omit<ScanRequest, "after">,
): Promise<{ rows: SourceRow[]; scans: number }> {
  const rows: SourceRow[] = [];
  let after: string | null = null;
  let scans = 0;
  do {
    const batch = await source.scan({ ...request, after });
    expect(batch.rows.length).toBeLessThanOrEqual(Math.min(request.batchRows, MAX_WINDOW_ROWS) * 10);
    rows.push(...batch.rows);
    after = batch.next;
    scans += 1;
  } while (after !== null);
  return { rows, scans };
}

let catalog: SnapshotCatalog;
let days: string[];
const table = (series: string, day: string): ResolvedTable => catalog.resolve(`${series}.${day}`)!;

beforeAll(async () => {
  catalog = await loadSnapshotCatalog(env.SNAPSHOTS);
  days = [...catalog.days];
});

describe("snapshot row source", () => {
  it("gives each day the host versions valid at its end, in row order", async () => {
    const all = await versions();
    expect(days).toEqual(historyDays(all, env.TEST_DATASET.summary.day.replaceAll("-", "")));
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    for (const day of [days[0]!, days.at(-1)!]) {
      const { rows } = await scanAll(source, {
        table: table("ipv4", day),
        columns: ["ip", "last_updated_at"],
        hints: [],
        batchRows: 25,
      });
      const expected = validAt(all, day);
      expect(rows).toEqual(
        expected.map((v) => ({
          ip: v.ip,
          last_updated_at: new Date(String(v.doc.last_updated_at)).toISOString(),
        })),
      );
    }
  });

  it("shows a host changed mid-history in its old version on an old day and its new one on the latest", async () => {
    const all = await versions();
    const [first, last] = [days[0]!, days.at(-1)!];
    const changed = [...new Set(all.map((v) => v.ip))].find((ip) => {
      const [old] = validAt(all, first).filter((v) => v.ip === ip);
      const [now] = validAt(all, last).filter((v) => v.ip === ip);
      return (
        old && now && old !== now && JSON.stringify(old.doc.services) !== JSON.stringify(now.doc.services)
      );
    });
    expect(changed).toBeDefined();
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    for (const day of [first, last]) {
      const [expected] = validAt(all, day).filter((v) => v.ip === changed);
      const { rows } = await scanAll(source, {
        table: table("ipv4", day),
        columns: ["ip", "services", "services_count"],
        hints: [{ column: "ip", values: [changed!] }],
        batchRows: 100,
      });
      expect(rows).toHaveLength(1);
      const services = expected!.doc.services as Json[];
      expect(rows[0]!.services_count).toBe(services.length);
      expect((rows[0]!.services as Json[]).map((s) => [s.port, s.service_name])).toEqual(
        services.map((s) => [s.port, s.service_name]),
      );
    }
  });

  it("runs one statement per scan, each reading a bounded window however large the table", async () => {
    const { db, statements } = recorded(env.SNAPSHOTS);
    const source = createSnapshotRowSource(db);
    const window = 20;
    const { rows, scans } = await scanAll(source, {
      table: table("ipv4", days.at(-1)!),
      columns: ["ip", "services"],
      hints: [{ column: "location.country_code", values: ["US", "DE"] }],
      batchRows: window,
    });
    const total = (await env.SNAPSHOTS.prepare("SELECT count(*) AS n FROM ipv4_rows").first<{ n: number }>())!
      .n;
    expect(scans).toBe(Math.ceil(total / window));
    // One statement per scan, plus the table's last row_id read once.
    expect(statements).toHaveLength(scans + 1);
    expect(statements.filter((s) => s.sql.includes("max(row_id)"))).toHaveLength(1);
    // The window's rows, the hint's two values (json_each) and one more.
    for (const { sql, params } of statements) {
      expect(await rowsRead(sql, params)).toBeLessThanOrEqual(window + 2 + 1);
      expect(sql).not.toMatch(/'(US|DE)'/);
    }
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.ip)).size).toBe(rows.length);
  });

  it("narrows a scan with hints on the key through its index, and on other columns in the window", async () => {
    const history = await versions();
    const all = validAt(history, days.at(-1)!);
    const ips = [all[3]!.ip, all[17]!.ip, all.at(-1)!.ip];
    const versionsOfIps = history.filter((v) => ips.includes(v.ip)).length;
    const { db, statements } = recorded(env.SNAPSHOTS);
    const source = createSnapshotRowSource(db);
    const byKey = await scanAll(source, {
      table: table("ipv4", days.at(-1)!),
      columns: ["ip"],
      hints: [{ column: "ip", values: ips }],
      batchRows: 100,
    });
    expect(byKey).toEqual({ rows: [...ips].sort().map((ip) => ({ ip })), scans: 1 });
    expect(statements[0]!.sql).toContain("INDEXED BY ipv4_rows_key");
    // Those hosts' versions (index entry and row) and the hint's values (read into the IN list
    // and its Bloom filter): a cost of the hint, not of the table.
    expect(await rowsRead(statements[0]!.sql, statements[0]!.params)).toBeLessThanOrEqual(
      2 * versionsOfIps + 2 * ips.length + 2,
    );

    const country = String(valueAt(all[0]!.doc, "location.country_code"));
    const { rows } = await scanAll(source, {
      table: table("ipv4", days.at(-1)!),
      columns: ["ip", "location.country_code"],
      hints: [{ column: "location.country_code", values: [country] }],
      batchRows: 50,
    });
    expect(rows).toEqual(
      all
        .filter((v) => valueAt(v.doc, "location.country_code") === country)
        .map((v) => ({ ip: v.ip, "location.country_code": country })),
    );
  });

  it("leaves to the engine the hints SQL could not apply exactly", async () => {
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    const request = { table: table("ipv4", days.at(-1)!), columns: ["ip"], batchRows: 1_000 };
    const { rows: every } = await scanAll(source, { ...request, hints: [] });
    const loose: ScanHint[][] = [
      [{ column: "last_updated_at", values: ["2026-10-31 00:00:00"] }],
      [{ column: "autonomous_system.asn", values: ["13335"] }],
      [{ column: "protocols", values: ["443/https"] }],
      [{ column: "services.port", values: [22] }],
      [{ column: "no.such.column", values: [1] }],
      [{ column: "ip", values: Array.from({ length: 1_001 }, (_, i) => `10.0.0.${i}`) }],
    ];
    for (const hints of loose) expect((await scanAll(source, { ...request, hints })).rows).toEqual(every);
  });

  it("returns the requested columns only, typed as the schema says", async () => {
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    const check = (value: unknown, type: FieldType): boolean => {
      switch (type) {
        case "STRING":
          return typeof value === "string";
        case "INTEGER":
          return Number.isSafeInteger(value);
        case "FLOAT":
          return typeof value === "number";
        case "BOOLEAN":
          return typeof value === "boolean";
        case "TIMESTAMP":
          return typeof value === "string" && new Date(value).toISOString() === value;
      }
    };
    for (const series of ["ipv4", "certificates", "websites"] as const) {
      const schema = catalog.schema(series);
      const topLevel = schema.fields.filter((f) => f.record === undefined);
      const columns = [...topLevel.map((f) => f.name), ...schema.records];
      const { rows } = await scanAll(source, {
        table: table(series, days.at(-1)!),
        columns,
        hints: [],
        batchRows: 500,
      });
      expect(rows.length).toBeGreaterThan(0);
      const seen = new Set<string>();
      for (const row of rows) {
        expect(Object.keys(row).sort()).toEqual([...columns].sort());
        for (const field of topLevel) {
          const value = row[field.name];
          if (field.mode === "REPEATED") {
            expect(Array.isArray(value), field.name).toBe(true);
            for (const item of value as unknown[])
              expect(check(item, field.type), `${field.name}: ${String(item)}`).toBe(true);
          } else if (value !== null) {
            expect(check(value, field.type), `${field.name}: ${JSON.stringify(value)}`).toBe(true);
            if (field.type === "BOOLEAN") seen.add(field.name);
          } else expect(field.mode).not.toBe("REQUIRED");
        }
        for (const record of schema.records) {
          for (const element of row[record] as Json[]) {
            for (const field of schema.fields.filter((f) => f.record === record)) {
              const value = element[field.name.slice(record.length + 1)];
              if (field.mode === "REPEATED") expect(Array.isArray(value), field.name).toBe(true);
              const values =
                field.mode === "REPEATED" ? (value as unknown[]) : value === undefined ? [] : [value];
              for (const item of values)
                expect(check(item, field.type), `${field.name}: ${String(item)}`).toBe(true);
            }
          }
        }
      }
      if (series === "certificates") expect(seen).toContain("validation.nss.valid");
    }
  });

  it("reads columns past a series' first table by joining its next one row for row", async () => {
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    const { results } = await env.DB.prepare("SELECT doc FROM certificates").all<{ doc: string }>();
    const docs = new Map(
      results.map((r) => {
        const doc = JSON.parse(r.doc) as Json;
        return [valueAt(doc, "parsed.fingerprint_sha256"), doc];
      }),
    );
    const { rows } = await scanAll(source, {
      table: table("certificates", days.at(-1)!),
      columns: ["parsed.fingerprint_sha256", "zlint.errors_present", "metadata.source", "ct"],
      hints: [{ column: "metadata.source", values: ["ct"] }],
      batchRows: 40,
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const doc = docs.get(row["parsed.fingerprint_sha256"])!;
      expect(row["zlint.errors_present"]).toBe(valueAt(doc, "zlint.errors_present"));
      expect(row["metadata.source"]).toBe("ct");
      expect((row.ct as Json[]).map((e) => e.log_name)).toEqual(Object.keys((doc.ct ?? {}) as Json));
    }
  });

  it("reads more columns than D1 answers in one row, the same values as a narrower scan", async () => {
    const { db, statements } = recorded(env.SNAPSHOTS);
    const source = createSnapshotRowSource(db);
    const schema = catalog.schema("certificates");
    const all = [
      ...schema.fields.filter((f) => f.record === undefined).map((f) => f.name),
      ...schema.records,
    ];
    expect(all.length).toBeGreaterThan(100);
    const request = { table: table("certificates", days.at(-1)!), hints: [], batchRows: 1_000 };
    const wide = await scanAll(source, { ...request, columns: all });
    expect(statements.filter((s) => !s.sql.includes("max(row_id)"))).toHaveLength(wide.scans);
    for (const some of [all.slice(0, 5), all.slice(-40)]) {
      const narrow = await scanAll(source, { ...request, columns: some });
      expect(wide.rows.map((row) => Object.fromEntries(some.map((name) => [name, row[name]])))).toEqual(
        narrow.rows,
      );
    }
  });

  it("ends a scan past the table's last row, and refuses a cursor it did not give", async () => {
    const source = createSnapshotRowSource(env.SNAPSHOTS);
    const request = { table: table("websites", days.at(-1)!), columns: ["domain"], hints: [], batchRows: 10 };
    expect(await source.scan({ ...request, after: "999999" })).toEqual({ rows: [], next: null });
    await expect(source.scan({ ...request, after: "1; DROP TABLE ipv4_rows" })).rejects.toThrow(/cursor/);
    const unknown = { ...request.table, series: "hosts", name: "hosts.20261031" };
    await expect(source.scan({ ...request, table: unknown, after: null })).rejects.toThrow(/snapshot table/);
  });
});
