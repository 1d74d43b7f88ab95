import { env } from "cloudflare:workers";
import { parseIpv4 } from "@scangate/search";
import { isoSeconds } from "../../src/dataset/clock";
import { LeafRecorder } from "../../src/dataset/field-catalog";
import { v1HostDocument } from "../../src/dataset/hosts/v1-document";
import { HOT_REGISTRIES } from "../../src/dataset/registries";
import { hostRows, type IndexedHost, type TableRow } from "../../src/dataset/rows";
import { InsertBatcher } from "../../src/dataset/sql";
import { websiteRows } from "../../src/dataset/websites";

/**
 * Hosts a test adds to the seeded dataset, indexed as the seed indexes the generated ones: the
 * same row functions (rows.ts, websites.ts), the v1 face read off the v2 document, and leaf
 * rows numbered after the catalogue already written. Afterwards the dataset's fingerprint
 * changes by what was planted, so the worker reads the catalogue (and every kept total) afresh,
 * and two different plantings never share a fingerprint (the origin's test files share one
 * runtime, and with it the worker's kept catalogue).
 */

export interface PlantedHost {
  /** The v2 host document, as the API would serve it. */
  document: Record<string, unknown>;
  /** Domains served from it (websites of the websites index, one per domain). */
  websites?: string[];
}

interface CatalogRow {
  id: number;
  index_name: string;
  path: string;
  type: string;
  scope: string | null;
}

async function maxOf(sql: string): Promise<number> {
  const row = await env.DB.prepare(sql).first<{ n: number | null }>();
  return row?.n ?? 0;
}

/** A short digest of the planted hosts, for the dataset's fingerprint. */
async function digestOf(planted: readonly PlantedHost[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(planted));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function plantHosts(planted: readonly PlantedHost[]): Promise<void> {
  const catalogue = await env.DB.prepare(
    "SELECT id, index_name, path, type, scope FROM field_catalog",
  ).all<CatalogRow>();
  const leaves = LeafRecorder.resuming(HOT_REGISTRIES, catalogue.results);
  let hostRowid = await maxOf("SELECT max(rowid) AS n FROM hosts");
  let serviceId = await maxOf("SELECT max(id) AS n FROM host_services");
  let websiteRowid = await maxOf("SELECT max(rowid) AS n FROM websites");
  const rows: TableRow[] = [];
  for (const { document, websites = [] } of planted) {
    const ip = String(document.ip);
    const updated = Date.parse(String(document.last_updated_at));
    const host: IndexedHost = {
      ip,
      ipNum: parseIpv4(ip) ?? 0,
      lastUpdatedAt: updated,
      document,
      v1Document: v1HostDocument(document, isoSeconds(updated)),
      historyDocuments: [{ validFrom: updated - 86_400_000, validTo: null, document }],
    };
    const services = Array.isArray(document.services) ? document.services : [];
    const first = serviceId + 1;
    rows.push(...hostRows(host, ++hostRowid, first));
    rows.push(
      ...leaves.rows(
        "hosts",
        document,
        hostRowid,
        services.map((_, i) => first + i),
      ),
    );
    rows.push(...leaves.rows("ipv4", host.v1Document, hostRowid));
    serviceId += services.length;
    for (const domain of websites) {
      const site = websiteRows({ domain, host }, 1, ++websiteRowid);
      rows.push(...site);
      const doc = site.find(([table]) => table === "websites")?.[1].doc;
      rows.push(...leaves.rows("websites", JSON.parse(String(doc)), websiteRowid));
    }
  }
  rows.push(...leaves.catalogRows());
  const statements: string[] = [];
  const batcher = new InsertBatcher((statement) => statements.push(statement));
  const bodies: string[] = [];
  for (const [table, row] of rows) {
    // A planted body may be one the dataset already keeps.
    if (table === "http_bodies") bodies.push(String(row.sha256), String(row.body));
    else batcher.add(table, row);
  }
  batcher.flush();
  const db = env.DB;
  const prepared = statements.map((sql) => db.prepare(sql));
  for (let i = 0; i < bodies.length; i += 2)
    prepared.push(
      db
        .prepare("INSERT OR IGNORE INTO http_bodies (sha256, body) VALUES (?, ?)")
        .bind(bodies[i], bodies[i + 1]),
    );
  prepared.push(
    db
      .prepare("UPDATE dataset_meta SET value = value || ? WHERE key = 'dataset'")
      .bind(`+${await digestOf(planted)}`),
  );
  for (let i = 0; i < prepared.length; i += 25) await db.batch(prepared.slice(i, i + 25));
}
