import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  columnValue,
  endOfDay,
  historyDays,
  MAX_STATEMENT_BYTES,
  snapshotStatements,
  type SnapshotSources,
} from "../src/snapshots/build";
import { readPublishedTables } from "../src/snapshots/catalog";
import { SnapshotSourceCollector } from "../src/snapshots/collect";
import { SNAPSHOT_FIELDS, valueAt } from "../src/snapshots/definitions";
import { executeStatements, publishSnapshots, readSnapshotSources } from "../src/snapshots/publish";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";

beforeAll(() => seedDatasetAndSnapshots());

type Row = Record<string, unknown>;

async function rowsOf(table: string, order: string): Promise<Row[]> {
  return (await env.SNAPSHOTS.prepare(`SELECT * FROM "${table}" ORDER BY "${order}"`).all<Row>()).results;
}

describe("snapshot tables", () => {
  it("publishes one table per series and day of the host history", async () => {
    const sources = await readSnapshotSources(env.DB);
    const days = historyDays(sources.hostHistory);
    expect(days.length).toBeGreaterThan(1);
    const published = await readPublishedTables(env.SNAPSHOTS);
    for (const series of ["ipv4", "certificates", "websites"] as const) {
      expect(published.bySeries.get(series)).toEqual(days.map((day) => `${series}.${day}`));
    }
  });

  it("holds nothing but snapshot tables in the SNAPSHOTS database", async () => {
    const { results } = await env.SNAPSHOTS.prepare(
      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    ).all<{ name: string }>();
    expect(results.length).toBeGreaterThan(0);
    for (const { name } of results) expect(name).toMatch(/^(ipv4|certificates|websites)\.\d{8}$/);
  });

  it("fills each day's ipv4 table with the host versions valid at the end of that day", async () => {
    const sources = await readSnapshotSources(env.DB);
    const days = historyDays(sources.hostHistory);
    for (const day of [days[0]!, days.at(-1)!]) {
      const at = endOfDay(day);
      const docs = sources.hostHistory
        .filter((h) => h.validFrom <= at && (h.validTo === null || h.validTo > at))
        .map((h) => JSON.parse(h.doc) as Row & { ip: string; services: Row[] })
        .sort((a, b) => (a.ip < b.ip ? -1 : 1));
      const rows = await rowsOf(`ipv4.${day}`, "ip");
      expect(rows.map((r) => r.ip)).toEqual(docs.map((d) => d.ip));
      rows.forEach((row, i) => {
        const doc = docs[i]!;
        expect(row["location.country"]).toBe(valueAt(doc, "location.country"));
        expect(row["autonomous_system.asn"]).toBe(valueAt(doc, "autonomous_system.asn"));
        expect(row["location.coordinates.latitude"]).toBe(valueAt(doc, "location.coordinates.latitude"));
        expect(row.services_count).toBe(doc.services.length);
        expect(JSON.parse(row["services.port"] as string)).toEqual(doc.services.map((s) => s.port));
        expect(JSON.parse(row.protocols as string)).toEqual(
          doc.services.map((s) => `${String(s.port)}/${String(s.service_name).toLowerCase()}`),
        );
        expect(row.last_updated_at).toBe(new Date(doc.last_updated_at as string).toISOString());
      });
    }
  });

  it("lists certificates added by the end of the day, booleans as 0/1", async () => {
    const sources = await readSnapshotSources(env.DB);
    const day = historyDays(sources.hostHistory).at(-1)!;
    const docs = sources.certificates
      .filter((c) => c.addedAt <= endOfDay(day))
      .map((c) => JSON.parse(c.doc) as Row)
      .sort((a, b) =>
        String(valueAt(a, "parsed.fingerprint_sha256")).localeCompare(
          String(valueAt(b, "parsed.fingerprint_sha256")),
        ),
      );
    const rows = await rowsOf(`certificates.${day}`, "parsed.fingerprint_sha256");
    expect(rows.map((r) => r["parsed.fingerprint_sha256"])).toEqual(
      docs.map((d) => valueAt(d, "parsed.fingerprint_sha256")),
    );
    rows.forEach((row, i) => {
      const valid = valueAt(docs[i], "validation.nss.valid");
      expect(row["validation.nss.valid"]).toBe(valid === undefined ? null : valid ? 1 : 0);
      expect(JSON.parse(row["parsed.names"] as string)).toEqual(valueAt(docs[i], "parsed.names"));
    });
  });

  it("lists every website on every day with its protocols and tags", async () => {
    const sources = await readSnapshotSources(env.DB);
    const days = historyDays(sources.hostHistory);
    for (const day of [days[0]!, days.at(-1)!]) {
      const rows = await rowsOf(`websites.${day}`, "domain");
      expect(rows.map((r): unknown[] => [r.domain, JSON.parse(r.protocols as string), r.alexa_rank])).toEqual(
        [...sources.websites]
          .sort((a, b) => a.domain.localeCompare(b.domain))
          .map((w) => [w.domain, w.protocols, w.alexaRank]),
      );
    }
  });

  it("rebuilds the same tables when published again", async () => {
    const before = await readPublishedTables(env.SNAPSHOTS);
    const table = [...before.names][0]!;
    const count = async () =>
      (await env.SNAPSHOTS.prepare(`SELECT count(*) AS n FROM "${table}"`).first<{ n: number }>())!.n;
    const rows = await count();
    await publishSnapshots(env.DB, env.SNAPSHOTS);
    expect((await readPublishedTables(env.SNAPSHOTS)).names).toEqual(before.names);
    expect(await count()).toBe(rows);
  });
});

describe("snapshot statements", () => {
  it("are the same whether built from generator rows (seed script) or read from the main database", async () => {
    const collector = new SnapshotSourceCollector();
    for (const table of ["host_history", "certificates", "websites", "website_protocols", "website_tags"]) {
      const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all<
        Record<string, string | number | null>
      >();
      for (const row of results) collector.add(table, row);
    }
    const fromRows = [...snapshotStatements(collector.sources())];
    const fromDatabase = [...snapshotStatements(await readSnapshotSources(env.DB))];
    expect(fromRows.length).toBeGreaterThan(0);
    expect(fromRows).toEqual(fromDatabase);
  });

  it("read the main database page by page into the same sources as in one read", async () => {
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM host_history").all<{ n: number }>();
    // A page size that leaves a partial last page of the host history.
    const pageRows = 7;
    expect(results[0]?.n ?? 0).toBeGreaterThan(pageRows * 3);
    expect((results[0]?.n ?? 0) % pageRows).not.toBe(0);
    const whole = await readSnapshotSources(env.DB, 1_000_000);
    expect(await readSnapshotSources(env.DB, pageRows)).toEqual(whole);
    expect(whole.hostHistory).toHaveLength(results[0]?.n ?? -1);
  });

  const day = "20260101";
  const hostDoc = (i: number, city: string) =>
    JSON.stringify({
      ip: `10.0.${Math.floor(i / 256)}.${i % 256}`,
      location: { city },
      services: [{ port: 22, service_name: "SSH" }],
    });
  const sources = (hosts: number, city = "Zurich"): SnapshotSources => ({
    hostHistory: Array.from({ length: hosts }, (_, i) => ({
      ip: `h${i}`,
      validFrom: Date.UTC(2026, 0, 1),
      validTo: null,
      doc: hostDoc(i, city),
    })),
    certificates: [],
    websites: [],
  });

  it("cuts INSERTs below D1's statement size limit", () => {
    const statements = [...snapshotStatements(sources(3000), [day])];
    const inserts = statements.filter((s) => s.startsWith('INSERT INTO "ipv4.'));
    expect(inserts.length).toBeGreaterThan(1);
    for (const sql of statements)
      expect(new TextEncoder().encode(sql).byteLength).toBeLessThanOrEqual(MAX_STATEMENT_BYTES);
  });

  it("keeps quotes and odd characters in values intact", async () => {
    const city = `O'Brien "quoted" -- not a comment; \\ back`;
    await executeStatements(env.SNAPSHOTS, snapshotStatements(sources(2, city), ["20260101"]));
    const rows = await rowsOf("ipv4.20260101", "ip");
    expect(rows.map((r) => r["location.city"])).toEqual([city, city]);
    await env.SNAPSHOTS.batch(
      ["ipv4", "certificates", "websites"].map((s) => env.SNAPSHOTS.prepare(`DROP TABLE "${s}.20260101"`)),
    );
  });

  it("stores REPEATED values as JSON arrays without nulls and converts scalars to the column type", () => {
    const repeated = SNAPSHOT_FIELDS.ipv4.find((f) => f.name === "services.certificate")!;
    expect(columnValue(repeated, ["a", null, undefined, "b"])).toBe('["a","b"]');
    expect(columnValue(repeated, undefined)).toBe("[]");
    const integer = SNAPSHOT_FIELDS.ipv4.find((f) => f.name === "autonomous_system.asn")!;
    expect(columnValue(integer, "13335")).toBe(13335);
    expect(columnValue(integer, "AS13335")).toBeNull();
    const timestamp = SNAPSHOT_FIELDS.ipv4.find((f) => f.name === "last_updated_at")!;
    expect(columnValue(timestamp, "2024-05-15T00:00:00.123456789Z")).toBe("2024-05-15T00:00:00.123Z");
    const boolean = SNAPSHOT_FIELDS.certificates.find((f) => f.name === "precert")!;
    expect([columnValue(boolean, true), columnValue(boolean, false), columnValue(boolean, "yes")]).toEqual([
      1,
      0,
      null,
    ]);
  });
});
