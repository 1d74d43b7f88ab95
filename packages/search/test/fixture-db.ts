import initSqlJs from "sql.js";
import type { Database } from "sql.js";
import { compileSearch, parseIpv4, type Dialect, type SqlFragment } from "../src/index";
import { hostsRegistry } from "./registries";

/**
 * A real SQLite (sql.js, WASM) holding the tables hostsRegistry describes, seeded with five
 * hosts known by a letter. Columns follow the registry's conventions (NOCASE text, INTEGER
 * ip/epoch-ms/0-1). sql.js is built with FTS4 but not FTS5; the compiled `MATCH ?` with a
 * quoted phrase means the same to both, so the full-text table here is FTS4.
 */
export const NOW = new Date("2026-11-22T12:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = NOW.getTime();

const SCHEMA = `
CREATE TABLE hosts (
  ip TEXT PRIMARY KEY, ip_num INTEGER NOT NULL, country TEXT COLLATE NOCASE, city TEXT COLLATE NOCASE,
  latitude REAL, asn INTEGER, as_description TEXT COLLATE NOCASE, updated_at INTEGER, tor_exit INTEGER);
CREATE INDEX hosts_ip_num ON hosts (ip_num);
CREATE INDEX hosts_country ON hosts (country);
CREATE INDEX hosts_city ON hosts (city);
CREATE TABLE host_services (
  ip TEXT NOT NULL, port INTEGER NOT NULL, service_name TEXT COLLATE NOCASE, banner TEXT COLLATE NOCASE,
  observed_at INTEGER, tls_version TEXT COLLATE NOCASE);
CREATE INDEX host_services_ip ON host_services (ip);
CREATE INDEX host_services_port ON host_services (port);
CREATE INDEX host_services_name ON host_services (service_name);
CREATE TABLE host_tags (ip TEXT NOT NULL, tag TEXT COLLATE NOCASE NOT NULL, PRIMARY KEY (ip, tag));
CREATE INDEX host_tags_tag ON host_tags (tag);
CREATE VIRTUAL TABLE hosts_fts USING fts4(body);
`;

interface Service {
  port: number;
  name: string;
  banner: string | null;
  tls?: string;
}

interface Host {
  letter: string;
  ip: string;
  country: string | null;
  city: string | null;
  latitude: number | null;
  asn: number;
  description: string;
  updatedAt: number;
  torExit: number | null;
  services: Service[];
  tags: string[];
}

export const HOSTS: Host[] = [
  {
    letter: "A",
    ip: "1.2.3.4",
    country: "Germany",
    city: "Berlin",
    latitude: 52.52,
    asn: 3320,
    description: "Deutsche Telekom AG",
    updatedAt: now - 2 * HOUR,
    torExit: 0,
    services: [
      { port: 22, name: "HTTP", banner: "HTTP/1.1 200 OK Server: nginx" },
      { port: 80, name: "SSH", banner: "SSH-2.0-OpenSSH_8.9" },
    ],
    tags: ["web"],
  },
  {
    letter: "B",
    ip: "1.2.3.10",
    country: "Germany",
    city: "Munich",
    latitude: 48.14,
    asn: 3320,
    description: "Deutsche Telekom AG",
    updatedAt: now - 3 * DAY,
    torExit: 1,
    services: [{ port: 22, name: "SSH", banner: "SSH-2.0-OpenSSH_7.4" }],
    tags: ["db", "web"],
  },
  {
    letter: "C",
    ip: "10.0.0.1",
    country: "United States",
    city: "Mountain View",
    latitude: 37.39,
    asn: 15169,
    description: "Google LLC",
    updatedAt: Date.UTC(2020, 0, 15),
    torExit: 0,
    services: [
      { port: 443, name: "HTTP", banner: "HTTP/1.1 301 Moved", tls: "TLSv1_3" },
      { port: 80, name: "HTTP", banner: "HTTP/1.1 301 Moved" },
    ],
    tags: [],
  },
  {
    letter: "D",
    ip: "8.8.8.8",
    country: null,
    city: null,
    latitude: null,
    asn: 15169,
    description: "Google LLC",
    updatedAt: Date.UTC(2019, 11, 31, 23, 59, 59, 999),
    torExit: 0,
    services: [],
    tags: ["dns"],
  },
  {
    letter: "E",
    ip: "192.168.1.1",
    country: "France",
    city: "Paris",
    latitude: 48.86,
    asn: 12322,
    description: "Free SAS, a French internet service provider based in Paris",
    updatedAt: now - 10 * DAY,
    torExit: null,
    services: [
      { port: 53, name: "DNS", banner: null },
      { port: 22, name: "SSH", banner: "SSH-2.0-dropbear 'quoted'" },
    ],
    tags: ["db"],
  },
];

function run(db: Database, sql: string, params: (string | number | null)[]): void {
  db.run(sql, params);
}

export async function openFixtureDb(): Promise<Database> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(SCHEMA);
  HOSTS.forEach((host, index) => {
    const rowid = index + 1;
    run(db, "INSERT INTO hosts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
      host.ip,
      parseIpv4(host.ip) ?? 0,
      host.country,
      host.city,
      host.latitude,
      host.asn,
      host.description,
      host.updatedAt,
      host.torExit,
    ]);
    const words = [host.ip, host.country, host.city, host.description];
    for (const service of host.services) {
      run(db, "INSERT INTO host_services VALUES (?, ?, ?, ?, ?, ?)", [
        host.ip,
        service.port,
        service.name,
        service.banner,
        host.updatedAt,
        service.tls ?? null,
      ]);
      words.push(service.name, service.banner);
    }
    for (const tag of host.tags) run(db, "INSERT INTO host_tags VALUES (?, ?)", [host.ip, tag]);
    run(db, "INSERT INTO hosts_fts (rowid, body) VALUES (?, ?)", [rowid, words.filter(Boolean).join(" ")]);
  });
  return db;
}

export function rows(db: Database, statement: SqlFragment): Record<string, unknown>[] {
  const prepared = db.prepare(statement.sql);
  prepared.bind(statement.params);
  const out: Record<string, unknown>[] = [];
  while (prepared.step()) out.push(prepared.getAsObject());
  prepared.free();
  return out;
}

/** Letters of the hosts a query matches, in order, by running its compiled SQL. */
export function matching(db: Database, query: string, dialect: Dialect = "v2"): string {
  const compiled = compileSearch(query, dialect, hostsRegistry, { now: NOW });
  if (!compiled.ok) throw new Error(`${query}: ${compiled.error.message}`);
  const found = rows(db, {
    sql: `SELECT r.ip FROM hosts r WHERE ${compiled.value.sql}`,
    params: compiled.value.params,
  });
  const letters = found.map((row) => HOSTS.find((host) => host.ip === row.ip)?.letter ?? "?");
  return letters.sort().join("");
}
