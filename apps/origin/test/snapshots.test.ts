import { env } from "cloudflare:workers";
import type { FieldType } from "@scangate/sql";
import { beforeAll, describe, expect, it } from "vitest";
import {
  endOfDay,
  historyDays,
  MAX_STATEMENT_BYTES,
  snapshotStatements,
  startOfDay,
  type SnapshotSources,
} from "../src/snapshots/build";
import { valueAt, type Json, type SeriesSources, type SnapshotSeries } from "../src/snapshots/definitions";
import {
  LAYOUT_TABLES,
  SNAPSHOT_LAYOUT,
  seriesStorage,
  sourceList,
  sourceValue,
} from "../src/snapshots/layout";
import {
  executeStatements,
  publishSnapshots,
  readSnapshotSources,
  readSnapshotState,
} from "../src/snapshots/publish";
import { SNAPSHOT_DEFINITIONS } from "../src/snapshots/series";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";

beforeAll(() => seedDatasetAndSnapshots());

type Row = Record<string, unknown>;

async function rows(sql: string, ...params: unknown[]): Promise<Row[]> {
  return (
    await env.SNAPSHOTS.prepare(sql)
      .bind(...params)
      .all<Row>()
  ).results;
}

/** The versions the validity rule shows on `day`, in row order. */
function visibleOn(day: string): string {
  const at = endOfDay(day);
  return `valid_from <= ${at} AND (valid_to IS NULL OR valid_to > ${at})`;
}

interface Dataset {
  sources: SnapshotSources;
  days: string[];
  hosts: { ip: string; validFrom: number; validTo: number | null; doc: Json }[];
  certificates: { addedAt: number; doc: Json }[];
}

async function dataset(): Promise<Dataset> {
  const sources = await readSnapshotSources(env.DB);
  return {
    sources,
    days: historyDays(sources.hostHistory, sources.seedDay),
    hosts: sources.hostHistory.map((h) => ({ ...h, doc: JSON.parse(h.doc) as Json })),
    certificates: sources.certificates.map((c) => ({ ...c, doc: JSON.parse(c.doc) as Json })),
  };
}

/** Every row source of the dataset as the build reads it, per series. */
function rowSources(data: Dataset): { [S in SnapshotSeries]: SeriesSources[S][] } {
  const names = new Map(
    data.certificates.map((c) => [
      valueAt(c.doc, "parsed.fingerprint_sha256"),
      valueAt(c.doc, "parsed.names"),
    ]),
  );
  return {
    ipv4: data.hosts.map((h) => ({
      doc: h.doc,
      certificateNames: (sha: string) => names.get(sha) as string[] | undefined,
    })),
    certificates: data.certificates.map((c) => ({ doc: c.doc })),
    websites: data.sources.websites.map((site) => ({ site, doc: JSON.parse(site.doc) as Json })),
  };
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "STRING":
      return typeof value === "string";
    case "INTEGER":
      return Number.isSafeInteger(value);
    case "FLOAT":
      return typeof value === "number" && Number.isFinite(value);
    case "BOOLEAN":
      return typeof value === "boolean";
    case "TIMESTAMP":
      return typeof value === "string" && /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value));
  }
}

describe("snapshot tables", () => {
  it("publishes every day of the host history, marked with the layout and the dataset", async () => {
    const { days } = await dataset();
    expect(days.length).toBeGreaterThan(1);
    const state = await readSnapshotState(env.SNAPSHOTS);
    expect(state.days).toEqual(days);
    expect(state.layout).toBe(SNAPSHOT_LAYOUT);
    expect(state.dataset).toBe(env.TEST_DATASET.summary.fingerprint);
  });

  it("holds nothing but the layout's tables and the key indexes", async () => {
    const objects = await rows(
      "SELECT type, name FROM sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_' AND substr(name, 1, 4) <> '_cf_'",
    );
    expect(objects.filter((o) => o.type === "table").map((o) => o.name)).toEqual(
      expect.arrayContaining(LAYOUT_TABLES),
    );
    expect(objects.map((o) => o.name).sort()).toEqual(
      [...LAYOUT_TABLES, "ipv4_rows_key", "certificates_rows_key", "websites_rows_key"].sort(),
    );
  });

  it("keeps every table within D1's 100 columns, a wide series continuing row for row", async () => {
    for (const series of ["ipv4", "certificates", "websites"] as const) {
      const { tables, columns } = seriesStorage(series);
      const stored: string[] = [];
      for (const table of tables) {
        const info = await rows("SELECT name FROM pragma_table_info(?)", table);
        expect(info.length).toBeLessThanOrEqual(100);
        stored.push(
          ...info.map((c) => String(c.name)).filter((n) => !["row_id", "valid_from", "valid_to"].includes(n)),
        );
        const ids = await rows(`SELECT row_id FROM ${table} ORDER BY row_id`);
        expect(ids.map((r) => r.row_id)).toEqual(ids.map((_, i) => i + 1));
      }
      expect(stored).toEqual(columns.map((c) => c.name));
    }
    expect(seriesStorage("certificates").tables).toEqual(["certificates_rows", "certificates_rows_2"]);
  });

  it("stores each host version once, in (ip, valid_from) order, with its validity", async () => {
    const { hosts } = await dataset();
    const stored = await rows("SELECT row_id, ip, valid_from, valid_to FROM ipv4_rows ORDER BY row_id");
    const expected = [...hosts].sort((a, b) =>
      a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.validFrom - b.validFrom,
    );
    expect(stored).toEqual(
      expected.map((h, i) => ({ row_id: i + 1, ip: h.ip, valid_from: h.validFrom, valid_to: h.validTo })),
    );
  });

  it("shows on each day the host versions valid at its end", async () => {
    const { hosts, days } = await dataset();
    for (const day of [days[0]!, days[Math.floor(days.length / 2)]!, days.at(-1)!]) {
      const at = endOfDay(day);
      const expected = hosts
        .filter((h) => h.validFrom <= at && (h.validTo === null || h.validTo > at))
        .map((h) => [h.ip, h.doc.last_updated_at]);
      const stored = await rows(
        `SELECT ip, last_updated_at FROM ipv4_rows WHERE ${visibleOn(day)} ORDER BY row_id`,
      );
      expect(stored.map((r) => r.ip)).toEqual(expected.map(([ip]) => ip));
      expect(new Set(stored.map((r) => r.ip)).size).toBe(stored.length);
    }
  });

  it("stores a host's top-level fields typed and its v1 protocols as the v1 index has them", async () => {
    const { hosts } = await dataset();
    const current = new Map(hosts.filter((h) => h.validTo === null).map((h) => [h.ip, h.doc]));
    const stored = await rows("SELECT * FROM ipv4_rows WHERE valid_to IS NULL ORDER BY row_id");
    const v1 = await env.DB.prepare("SELECT ip, protocol FROM host_protocols").all<{
      ip: string;
      protocol: string;
    }>();
    expect(stored).toHaveLength(current.size);
    for (const row of stored) {
      const doc = current.get(String(row.ip))!;
      const services = doc.services as Json[];
      expect(row["location.country"]).toBe(valueAt(doc, "location.country"));
      expect(row["autonomous_system.asn"]).toBe(valueAt(doc, "autonomous_system.asn"));
      expect(row["location.coordinates.latitude"]).toBe(valueAt(doc, "location.coordinates.latitude"));
      expect(row.last_updated_at).toBe(new Date(String(doc.last_updated_at)).toISOString());
      expect(row.services_count).toBe(services.length);
      const protocols = JSON.parse(String(row.protocols)) as string[];
      expect(protocols).toHaveLength(services.length);
      expect(new Set(protocols)).toEqual(
        new Set(v1.results.filter((p) => p.ip === row.ip).map((p) => p.protocol)),
      );
    }
  });

  it("keeps each service's fields together in one element, software and leaf names included", async () => {
    const data = await dataset();
    const names = new Map(
      data.certificates.map((c) => [
        valueAt(c.doc, "parsed.fingerprint_sha256"),
        valueAt(c.doc, "parsed.names"),
      ]),
    );
    const stored = await rows("SELECT ip, valid_from, services FROM ipv4_rows ORDER BY row_id");
    const byVersion = new Map(data.hosts.map((h) => [`${h.ip}@${h.validFrom}`, h.doc]));
    let tls = 0;
    for (const row of stored) {
      const services = byVersion.get(`${String(row.ip)}@${String(row.valid_from)}`)!.services as Json[];
      const elements = JSON.parse(String(row.services)) as Json[];
      expect(elements.map((e) => [e.port, e.service_name, e.transport_protocol])).toEqual(
        services.map((s) => [s.port, s.service_name, s.transport_protocol]),
      );
      elements.forEach((element, i) => {
        const service = services[i]!;
        const software = (service.software ?? []) as Json[];
        expect(element["software.product"]).toEqual(software.map((s) => s.product));
        expect(element["software.vendor"]).toEqual(software.map((s) => s.vendor));
        const server = valueAt(service, "http.response.headers.Server") as string[] | undefined;
        expect(element["http.response.headers.server"]).toBe(server?.join(", "));
        expect(element["http.response.status_code"]).toBe(valueAt(service, "http.response.status_code"));
        expect(element.observed_at).toBe(new Date(String(service.observed_at)).toISOString());
        if (service.certificate !== undefined) {
          tls += 1;
          expect(element["tls.certificate.fingerprint_sha256"]).toBe(service.certificate);
          expect(element["tls.certificate.names"]).toEqual(names.get(service.certificate));
          expect(element["tls.version_selected"]).toBe(valueAt(service, "tls.version_selected"));
        } else {
          expect(element).not.toHaveProperty("tls.certificate.fingerprint_sha256");
          expect(element["tls.certificate.names"]).toEqual([]);
        }
      });
    }
    expect(tls).toBeGreaterThan(0);
  });

  it("stores each certificate from its added time, booleans as 0/1, its CT entries as a record", async () => {
    const { certificates, days } = await dataset();
    const lastEnd = endOfDay(days.at(-1)!);
    const expected = certificates
      .filter((c) => c.addedAt <= lastEnd)
      .sort((a, b) =>
        String(valueAt(a.doc, "parsed.fingerprint_sha256")).localeCompare(
          String(valueAt(b.doc, "parsed.fingerprint_sha256")),
        ),
      );
    const stored = await rows(
      `SELECT r.valid_from, r.valid_to, r."parsed.fingerprint_sha256", r."validation.nss.valid", r."parsed.names",
              r2."zlint.errors_present", r2.ct
         FROM certificates_rows AS r JOIN certificates_rows_2 AS r2 USING (row_id) ORDER BY row_id`,
    );
    expect(stored.map((r) => r["parsed.fingerprint_sha256"])).toEqual(
      expected.map((c) => valueAt(c.doc, "parsed.fingerprint_sha256")),
    );
    let logged = 0;
    stored.forEach((row, i) => {
      const { doc, addedAt } = expected[i]!;
      expect([row.valid_from, row.valid_to]).toEqual([addedAt, null]);
      expect(row["validation.nss.valid"]).toBe(valueAt(doc, "validation.nss.valid") ? 1 : 0);
      expect(row["zlint.errors_present"]).toBe(valueAt(doc, "zlint.errors_present") ? 1 : 0);
      expect(JSON.parse(String(row["parsed.names"]))).toEqual(valueAt(doc, "parsed.names"));
      const ct = (doc.ct ?? {}) as Record<string, Json>;
      const entries = JSON.parse(String(row.ct)) as Json[];
      expect(entries).toEqual(
        Object.entries(ct).map(([log, entry]) => ({
          log_name: log,
          index: entry.index,
          added_to_ct_at: new Date(String(entry.added_to_ct_at)).toISOString(),
          ct_to_censys_at: new Date(String(entry.ct_to_censys_at)).toISOString(),
        })),
      );
      logged += entries.length;
    });
    expect(logged).toBeGreaterThan(0);
  });

  it("lists every website once, valid from the first history day, with its per-port services", async () => {
    const { sources, days } = await dataset();
    const stored = await rows(
      `SELECT domain, valid_from, valid_to, protocols, alexa_rank, "p443.https.get.title", "p443.https.tls.certificate.parsed.names"
         FROM websites_rows ORDER BY row_id`,
    );
    const sites = [...sources.websites].sort((a, b) => (a.domain < b.domain ? -1 : 1));
    expect(stored.map((r) => r.domain)).toEqual(sites.map((w) => w.domain));
    stored.forEach((row, i) => {
      const site = sites[i]!;
      const doc = JSON.parse(site.doc) as Json;
      expect([row.valid_from, row.valid_to]).toEqual([startOfDay(days[0]!), null]);
      expect([JSON.parse(String(row.protocols)), row.alexa_rank]).toEqual([site.protocols, site.alexaRank]);
      expect(row["p443.https.get.title"]).toBe(valueAt(doc, "443.https.get.title") ?? null);
      expect(JSON.parse(String(row["p443.https.tls.certificate.parsed.names"]))).toEqual(
        valueAt(doc, "443.https.tls.certificate.parsed.names") ?? [],
      );
    });
  });

  it("rebuilds the same tables when published again", async () => {
    const count = async () => (await rows("SELECT count(*) AS n FROM ipv4_rows"))[0]!.n;
    const before = [await readSnapshotState(env.SNAPSHOTS), await count()];
    await publishSnapshots(env.DB, env.SNAPSHOTS);
    expect([await readSnapshotState(env.SNAPSHOTS), await count()]).toEqual(before);
  });

  it("builds the same tables from the host history read in many small pages", async () => {
    const everything = async () =>
      Promise.all(
        ["ipv4_rows", "certificates_rows", "websites_rows", "snapshot_days"].map((table) =>
          rows(`SELECT * FROM ${table} ORDER BY 1`),
        ),
      );
    const before = await everything();
    const versions = (await env.DB.prepare("SELECT count(*) AS n FROM host_history").first<{ n: number }>())
      ?.n;
    // Pages of 7 rows: the history in many parts, the last one partial.
    expect(versions ?? 0).toBeGreaterThan(7 * 3);
    try {
      await publishSnapshots(env.DB, env.SNAPSHOTS, { pageRows: 7 });
      expect(await everything()).toEqual(before);
    } finally {
      await publishSnapshots(env.DB, env.SNAPSHOTS);
    }
  });

  it("drops the tables of an older layout, and anything else, when publishing", async () => {
    await env.SNAPSHOTS.batch([
      env.SNAPSHOTS.prepare('CREATE TABLE "ipv4.20260101" (ip TEXT)'),
      env.SNAPSHOTS.prepare('CREATE VIEW "certificates.20260101" AS SELECT 1 AS x'),
    ]);
    const before = await readSnapshotState(env.SNAPSHOTS);
    expect(before.objects.map(([, name]) => name)).toContain("ipv4.20260101");
    await publishSnapshots(env.DB, env.SNAPSHOTS);
    const after = await readSnapshotState(env.SNAPSHOTS);
    expect(after.objects.map(([, name]) => name)).not.toContain("ipv4.20260101");
    expect(after.objects.map(([, name]) => name)).not.toContain("certificates.20260101");
    expect(after.days).toEqual(before.days);
  });
});

describe("snapshot fields", () => {
  it("read values of the declared type only, for every field of every series in the dataset", async () => {
    const sources = rowSources(await dataset());
    const problems: string[] = [];
    const check = (name: string, type: FieldType, repeated: boolean, value: unknown) => {
      if (value === null || value === undefined) return;
      const values = repeated ? (Array.isArray(value) ? value : [Symbol("not an array")]) : [value];
      for (const item of values) if (!hasType(item, type)) problems.push(`${name}: ${String(item)}`);
    };
    for (const series of ["ipv4", "certificates", "websites"] as const) {
      const definition = SNAPSHOT_DEFINITIONS[series];
      for (const source of sources[series] as never[]) {
        for (const f of definition.fields) check(f.name, f.type, f.mode === "REPEATED", f.read(source));
        for (const record of definition.records)
          for (const element of record.elements(source))
            for (const f of record.fields)
              check(f.name, f.type, f.mode === "REPEATED", f.read(element, source));
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it("each hold a value somewhere in the dataset (paths are the documents' own)", async () => {
    const sources = rowSources(await dataset());
    const present = (value: unknown) =>
      Array.isArray(value) ? value.length > 0 : value !== null && value !== undefined;
    const empty: string[] = [];
    for (const series of ["ipv4", "certificates", "websites"] as const) {
      const definition = SNAPSHOT_DEFINITIONS[series];
      const all = sources[series] as never[];
      for (const f of definition.fields) if (!all.some((s) => present(f.read(s)))) empty.push(f.name);
      for (const record of definition.records)
        for (const f of record.fields)
          if (!all.some((s) => record.elements(s).some((e) => present(f.read(e, s))))) empty.push(f.name);
    }
    // Lints no certificate fails and web ports no website uses in this small dataset.
    expect(empty.filter((name) => !/^zlint\.lints\.|^p\d+\./.test(name))).toEqual([]);
  });

  it("convert to SourceRow values without coercing across types", () => {
    expect(sourceList(["a", null, undefined, 3, "b"], "STRING")).toEqual(["a", "b"]);
    expect(sourceList(undefined, "STRING")).toEqual([]);
    expect(sourceList("one", "STRING")).toEqual(["one"]);
    expect([
      sourceValue(13335, "INTEGER"),
      sourceValue("13335", "INTEGER"),
      sourceValue(1.5, "INTEGER"),
    ]).toEqual([13335, null, null]);
    expect(sourceValue("2024-05-15T00:00:00.123456789Z", "TIMESTAMP")).toBe("2024-05-15T00:00:00.123Z");
    expect(sourceValue("not a time", "TIMESTAMP")).toBeNull();
    expect([sourceValue(true, "BOOLEAN"), sourceValue("yes", "BOOLEAN"), sourceValue(1, "BOOLEAN")]).toEqual([
      true,
      null,
      null,
    ]);
  });
});

describe("snapshot statements", () => {
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
      services: [{ port: 22, service_name: "SSH", banner: "SSH-2.0-é".repeat(20) }],
    });
  const sources = (hosts: number, city = "Zurich"): SnapshotSources => ({
    hostHistory: Array.from({ length: hosts }, (_, i) => ({
      ip: `10.0.${Math.floor(i / 256)}.${i % 256}`,
      validFrom: Date.UTC(2026, 0, 1),
      validTo: null,
      doc: hostDoc(i, city),
    })),
    certificates: [],
    websites: [],
  });

  it("cut INSERTs below D1's statement size limit, counted in UTF-8 bytes", () => {
    const statements = [...snapshotStatements(sources(3000), { days: [day] })];
    const inserts = statements.filter((s) => s.startsWith("INSERT INTO ipv4_rows "));
    expect(inserts.length).toBeGreaterThan(1);
    for (const sql of statements)
      expect(new TextEncoder().encode(sql).byteLength).toBeLessThanOrEqual(MAX_STATEMENT_BYTES);
  });

  it("publish only the days asked for, with the host versions those days show", () => {
    const statements = [...snapshotStatements(sources(2), { days: ["20251231"] })];
    expect(statements.filter((s) => s.startsWith("INSERT INTO ipv4_rows "))).toEqual([]);
    expect(statements).toContain("INSERT INTO snapshot_days (day) VALUES ('20251231')");
  });

  it("keep quotes and odd characters in values intact", async () => {
    const city = `O'Brien "quoted" -- not a comment; \\ back`;
    try {
      await executeStatements(env.SNAPSHOTS, snapshotStatements(sources(2, city), { days: [day] }));
      const stored = await rows('SELECT "location.city" AS city, services FROM ipv4_rows ORDER BY row_id');
      expect(stored.map((r) => r.city)).toEqual([city, city]);
      expect((JSON.parse(String(stored[0]?.services)) as Json[])[0]?.banner).toBe("SSH-2.0-é".repeat(20));
    } finally {
      await publishSnapshots(env.DB, env.SNAPSHOTS);
    }
  });
});
