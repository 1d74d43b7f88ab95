import { env } from "cloudflare:workers";
import {
  certificateDocumentSchema,
  hostDocumentSchema,
  ipv4DocumentSchema,
  websiteDocumentSchema,
} from "@scangate/core";
import type { IndexRegistry } from "@scangate/search";
import { beforeAll, describe, expect, it } from "vitest";
import {
  certificatesRegistry,
  hostsRegistryV2,
  ipv4RegistryV1,
  websitesRegistry,
} from "../src/dataset/registries";
import { seedTestDataset } from "./seed-fixture";

const db = env.DB;

async function count(sql: string, ...params: unknown[]): Promise<number> {
  const row = await db
    .prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function columnsOf(table: string): Promise<Set<string>> {
  const { results } = await db
    .prepare(`SELECT name FROM pragma_table_info(?)`)
    .bind(table)
    .all<{ name: string }>();
  return new Set(results.map((r) => r.name));
}

beforeAll(async () => {
  await seedTestDataset();
});

describe("the seeded dataset", () => {
  it("fills every table with the generated records and records what it is", async () => {
    const { summary } = env.TEST_DATASET;
    expect(await count("SELECT count(*) AS n FROM hosts")).toBe(summary.hosts);
    expect(await count("SELECT count(*) AS n FROM certificates")).toBe(summary.certificates);
    expect(await count("SELECT count(*) AS n FROM websites")).toBe(summary.websites);
    expect(await count("SELECT count(*) AS n FROM host_services")).toBe(summary.services);
    expect(await count("SELECT count(*) AS n FROM host_history")).toBe(summary.historyRows);
    expect(await count("SELECT count(*) AS n FROM hosts_fts")).toBe(summary.hosts);
    expect(await count("SELECT count(*) AS n FROM certificates_fts")).toBe(summary.certificates);
    expect(await count("SELECT count(*) AS n FROM websites_fts")).toBe(summary.websites);
    const meta = await db
      .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
      .first<{ value: string }>();
    expect(meta?.value).toBe(summary.fingerprint);
  });

  it("seeding a second time in the same database changes nothing", async () => {
    const before = await count("SELECT count(*) AS n FROM hosts");
    await seedTestDataset();
    expect(await count("SELECT count(*) AS n FROM hosts")).toBe(before);
  });

  it("stores documents that parse with the core wire schemas", async () => {
    const hosts = await db.prepare("SELECT doc, v1_doc FROM hosts").all<{ doc: string; v1_doc: string }>();
    for (const row of hosts.results) {
      hostDocumentSchema.parse(JSON.parse(row.doc));
      ipv4DocumentSchema.parse(JSON.parse(row.v1_doc));
    }
    const history = await db.prepare("SELECT doc FROM host_history").all<{ doc: string }>();
    for (const row of history.results) hostDocumentSchema.parse(JSON.parse(row.doc));
    const certs = await db.prepare("SELECT doc FROM certificates").all<{ doc: string }>();
    for (const row of certs.results) certificateDocumentSchema.parse(JSON.parse(row.doc));
    const sites = await db.prepare("SELECT doc FROM websites").all<{ doc: string }>();
    for (const row of sites.results) websiteDocumentSchema.parse(JSON.parse(row.doc));
    expect(hosts.results.length + certs.results.length + sites.results.length).toBeGreaterThan(0);
  });

  it("keeps one host_services row per service of each current host document", async () => {
    const hosts = await db.prepare("SELECT ip, doc FROM hosts").all<{ ip: string; doc: string }>();
    const services = await db
      .prepare("SELECT ip, port, service_name, certificate FROM host_services ORDER BY ip, port")
      .all<{ ip: string; port: number; service_name: string; certificate: string | null }>();
    const fromRows = new Map<string, string[]>();
    for (const s of services.results) {
      fromRows.set(s.ip, [
        ...(fromRows.get(s.ip) ?? []),
        `${s.port}/${s.service_name}/${s.certificate ?? ""}`,
      ]);
    }
    for (const host of hosts.results) {
      const doc = hostDocumentSchema.parse(JSON.parse(host.doc));
      const fromDoc = doc.services.map((s) => `${s.port}/${s.service_name}/${s.certificate ?? ""}`);
      expect(fromRows.get(host.ip) ?? []).toEqual(fromDoc);
    }
  });

  it("serves TLS leaves that are certificates of the dataset", async () => {
    const missing = await count(
      "SELECT count(*) AS n FROM host_services s WHERE s.certificate IS NOT NULL AND NOT EXISTS (SELECT 1 FROM certificates c WHERE c.sha256 = s.certificate)",
    );
    expect(missing).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM host_services WHERE certificate IS NOT NULL"),
    ).toBeGreaterThan(0);
  });
});

describe("search storage", () => {
  it("matches a bare term through hosts_fts by the root table's rowid", async () => {
    const host = await db
      .prepare("SELECT ip, as_name FROM hosts ORDER BY rowid LIMIT 1")
      .first<{ ip: string; as_name: string }>();
    expect(host).not.toBeNull();
    const { results } = await db
      .prepare("SELECT ip FROM hosts WHERE rowid IN (SELECT rowid FROM hosts_fts WHERE hosts_fts MATCH ?)")
      .bind(`"${host?.as_name ?? ""}"`)
      .all<{ ip: string }>();
    expect(results.map((r) => r.ip)).toContain(host?.ip);
    const expected = await count("SELECT count(*) AS n FROM hosts WHERE as_name = ?", host?.as_name);
    expect(results.length).toBe(expected);
  });

  it("compares keyword columns case-insensitively through their index", async () => {
    const row = await db.prepare("SELECT country FROM hosts LIMIT 1").first<{ country: string }>();
    const country = row?.country ?? "";
    const exact = await count("SELECT count(*) AS n FROM hosts WHERE country = ?", country);
    expect(exact).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM hosts WHERE country = ?", country.toUpperCase())).toBe(
      exact,
    );
    const plan = await db
      .prepare("EXPLAIN QUERY PLAN SELECT ip FROM hosts WHERE country = ?")
      .bind(country.toUpperCase())
      .all<{ detail: string }>();
    expect(plan.results.map((r) => r.detail).join(" ")).toContain("hosts_country_ip_num_idx");
  });

  it("maps every registry field to a column or side table that exists", async () => {
    const registries: IndexRegistry[] = [
      hostsRegistryV2,
      ipv4RegistryV1,
      certificatesRegistry,
      websitesRegistry,
    ];
    for (const registry of registries) {
      const rootColumns = await columnsOf(registry.root.table);
      expect(rootColumns.has(registry.root.key), `${registry.name} root key`).toBe(true);
      for (const [field, def] of Object.entries(registry.fields)) {
        const storage = def.storage;
        if (storage.kind === "column") {
          expect(rootColumns.has(storage.column), `${registry.name}.${field}`).toBe(true);
        } else if (storage.kind === "side") {
          const side = await columnsOf(storage.table);
          expect(side.has(storage.key) && side.has(storage.column), `${registry.name}.${field}`).toBe(true);
        } else if (storage.kind === "scoped") {
          const scope = registry.scopes[storage.scope];
          expect(scope, `${registry.name}.${field} scope`).toBeDefined();
          const scoped = await columnsOf(scope?.table ?? "");
          expect(
            scoped.has(storage.column) && scoped.has(scope?.key ?? ""),
            `${registry.name}.${field}`,
          ).toBe(true);
        } else if (storage.kind === "hashed") {
          const table = await columnsOf(storage.table);
          expect(table.has(storage.key) && table.has(storage.column), `${registry.name}.${field}`).toBe(true);
        } else {
          expect.fail(`${registry.name}.${field}: the hot registries hold no leaf fields`);
        }
      }
      if (registry.fullText)
        expect(await count(`SELECT count(*) AS n FROM ${registry.fullText.table}`)).toBeGreaterThan(0);
    }
  });

  it("exposes port 443 certificates of v1 hosts through their side view", async () => {
    const viaView = await count("SELECT count(*) AS n FROM host_port_443_certificates");
    const direct = await count(
      "SELECT count(*) AS n FROM host_services WHERE port = 443 AND certificate IS NOT NULL",
    );
    expect(viaView).toBe(direct);
    expect(direct).toBeGreaterThan(0);
  });
});

describe("host history", () => {
  it("answers an instant with exactly the version valid then", async () => {
    const host = await db
      .prepare("SELECT ip FROM host_history GROUP BY ip HAVING count(*) > 1 ORDER BY ip LIMIT 1")
      .first<{ ip: string }>();
    expect(host).not.toBeNull();
    const { results: versions } = await db
      .prepare("SELECT valid_from, valid_to, doc FROM host_history WHERE ip = ? ORDER BY valid_from")
      .bind(host?.ip)
      .all<{ valid_from: number; valid_to: number | null; doc: string }>();
    versions.forEach((version, i) => {
      const next = versions[i + 1];
      expect(version.valid_to).toBe(next ? next.valid_from : null);
    });
    for (const version of versions) {
      const instant =
        version.valid_to === null
          ? version.valid_from + 1
          : Math.floor((version.valid_from + version.valid_to) / 2);
      const found = await db
        .prepare(
          "SELECT doc FROM host_history WHERE ip = ? AND valid_from <= ? AND (valid_to IS NULL OR ? < valid_to)",
        )
        .bind(host?.ip, instant, instant)
        .all<{ doc: string }>();
      expect(found.results).toHaveLength(1);
      expect(found.results[0]?.doc).toBe(version.doc);
    }
    const first = versions[0];
    const before = await count(
      "SELECT count(*) AS n FROM host_history WHERE ip = ? AND valid_from <= ? AND (valid_to IS NULL OR ? < valid_to)",
      host?.ip,
      (first?.valid_from ?? 0) - 1,
      (first?.valid_from ?? 0) - 1,
    );
    expect(before).toBe(0);
  });

  it("records services appearing or disappearing between versions", async () => {
    const { results } = await db
      .prepare("SELECT ip, doc FROM host_history ORDER BY ip, valid_from")
      .all<{ ip: string; doc: string }>();
    let changes = 0;
    for (let i = 1; i < results.length; i++) {
      const [prev, cur] = [results[i - 1], results[i]];
      if (!prev || !cur || prev.ip !== cur.ip) continue;
      const ports = (doc: string) =>
        hostDocumentSchema
          .parse(JSON.parse(doc))
          .services.map((s) => s.port)
          .join(",");
      if (ports(prev.doc) !== ports(cur.doc)) changes++;
    }
    expect(changes).toBeGreaterThan(0);
  });
});

describe("documents read by many keys at once", () => {
  beforeAll(() => seedTestDataset());

  it("reads more certificates and hosts than one statement may bind, found ones only", async () => {
    const { readCertificates, readHosts } = await import("../src/services/documents");
    const certificates = (
      await env.DB.prepare("select sha256 from certificates order by sha256 limit 150").all<{
        sha256: string;
      }>()
    ).results.map((row) => row.sha256);
    const hosts = (
      await env.DB.prepare("select ip from hosts order by ip limit 150").all<{ ip: string }>()
    ).results.map((row) => row.ip);
    expect(certificates.length).toBeGreaterThan(100);
    expect(hosts.length).toBeGreaterThan(100);
    const unknownCertificate = "f".repeat(64);
    const foundCertificates = await readCertificates(env.DB, [
      ...certificates.map((s) => s.toUpperCase()),
      unknownCertificate,
    ]);
    expect([...foundCertificates.keys()].sort()).toEqual(certificates.map((s) => s.toLowerCase()).sort());
    const foundHosts = await readHosts(env.DB, [...hosts, "192.0.2.255", ...hosts]);
    expect([...foundHosts.keys()].sort()).toEqual([...hosts].sort());
    expect(foundHosts.get(hosts[0] ?? "")).toMatchObject({ ip: hosts[0] });
  });
});
