import initSqlJs from "sql.js";
import type { Database } from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import { compileSearch, textWords, type Dialect, type FieldDef, type IndexRegistry } from "../src/index";
import { rows } from "./fixture-db";

// The storages and schema knowledge beyond plain columns, run on a real SQLite: leaf values of
// services (headers as a key/value map), a distinct-values table for bodies named by their
// hash, families of fields no document holds, `.raw` sub-fields, objects and regex alternatives.
//
// X 1.1.1.1  service 80: headers Server "nginx/1.18.0", Location "https://cfx.re/join/abc"; body "<h1>Titan Stealer</h1>"
//            service 22: banner "SSH-2.0-OpenSSH_8.9", no headers
// Y 2.2.2.2  service 80: headers Server "Apache", X-Rancher-Version "v2.7"; body "<p>It works</p>"
// Z 3.3.3.3  service 443: headers Server "nginx"; tls version TLSv1_3; subject organization "Partners LLC"

const leaf = (id: number, type: FieldDef["type"]): FieldDef => ({
  type,
  storage: { kind: "leaf", id, scope: "services" },
});

const registry: IndexRegistry = {
  name: "hosts",
  root: { table: "hosts", key: "ip" },
  scopes: { services: { table: "host_services", key: "ip" } },
  leaves: { values: "field_values", words: "field_words" },
  maps: ["services.http.response.headers"],
  families: [
    { pattern: /^services\.kubernetes(\..+)?$/, type: "keyword" },
    { pattern: /^services\.http\.response\.headers\.[a-z0-9_]+$/, type: "text" },
  ],
  fields: {
    ip: { type: "ip", storage: { kind: "column", column: "ip_num" } },
    "location.country": { type: "keyword", storage: { kind: "column", column: "country" } },
    "services.port": { type: "integer", storage: { kind: "scoped", scope: "services", column: "port" } },
    "services.tls.version_selected": {
      type: "keyword",
      storage: { kind: "scoped", scope: "services", column: "tls_version" },
    },
    "services.http.response.headers.server": leaf(1, "text"),
    "services.http.response.headers.location": leaf(2, "text"),
    "services.http.response.headers.x_rancher_version": leaf(3, "text"),
    "services.http.response.body_hashes": leaf(4, "keyword"),
    "services.tls.certificates.leaf_data.subject.organization": leaf(5, "text"),
    "services.banner": leaf(6, "text"),
    "services.http.response.body": {
      type: "text",
      storage: {
        kind: "hashed",
        field: "services.http.response.body_hashes",
        table: "http_bodies",
        key: "sha256",
        column: "body",
        keyPrefix: "sha256:",
      },
    },
  },
};

interface Service {
  port: number;
  tls?: string;
  leaves: [number, string][];
}
const HOSTS: { letter: string; ip: string; num: number; country: string; services: Service[] }[] = [
  {
    letter: "X",
    ip: "1.1.1.1",
    num: 16843009,
    country: "Germany",
    services: [
      {
        port: 80,
        leaves: [
          [1, "nginx/1.18.0"],
          [2, "https://cfx.re/join/abc"],
          [4, "sha256:aa"],
        ],
      },
      { port: 22, leaves: [[6, "SSH-2.0-OpenSSH_8.9"]] },
    ],
  },
  {
    letter: "Y",
    ip: "2.2.2.2",
    num: 33686018,
    country: "France",
    services: [
      {
        port: 80,
        leaves: [
          [1, "Apache"],
          [3, "v2.7"],
          [4, "sha256:bb"],
        ],
      },
    ],
  },
  {
    letter: "Z",
    ip: "3.3.3.3",
    num: 50529027,
    country: "United States",
    services: [
      {
        port: 443,
        tls: "TLSv1_3",
        leaves: [
          [1, "nginx"],
          [5, "Partners LLC"],
        ],
      },
    ],
  },
];

let db: Database;
beforeAll(async () => {
  const SQL = await initSqlJs();
  db = new SQL.Database();
  db.exec(`
    CREATE TABLE hosts (ip TEXT PRIMARY KEY, ip_num INTEGER, country TEXT COLLATE NOCASE);
    CREATE TABLE host_services (id INTEGER PRIMARY KEY, ip TEXT, port INTEGER, tls_version TEXT COLLATE NOCASE);
    CREATE TABLE field_values (field INTEGER, value COLLATE NOCASE, doc INTEGER, scope INTEGER);
    CREATE TABLE field_words (field INTEGER, word TEXT, doc INTEGER, scope INTEGER);
    CREATE TABLE http_bodies (sha256 TEXT PRIMARY KEY, body TEXT);
    INSERT INTO http_bodies VALUES ('aa', '<h1>Titan Stealer</h1>'), ('bb', '<p>It works</p>');
  `);
  let serviceId = 0;
  HOSTS.forEach((host, i) => {
    const doc = i + 1;
    db.run("INSERT INTO hosts (rowid, ip, ip_num, country) VALUES (?, ?, ?, ?)", [
      doc,
      host.ip,
      host.num,
      host.country,
    ]);
    for (const service of host.services) {
      const id = ++serviceId;
      db.run("INSERT INTO host_services VALUES (?, ?, ?, ?)", [
        id,
        host.ip,
        service.port,
        service.tls ?? null,
      ]);
      for (const [field, value] of service.leaves) {
        db.run("INSERT INTO field_values VALUES (?, ?, ?, ?)", [field, value, doc, id]);
        for (const word of new Set(textWords(value)))
          db.run("INSERT INTO field_words VALUES (?, ?, ?, ?)", [field, word, doc, id]);
      }
    }
  });
});

function matching(query: string, dialect: Dialect = "v2"): string {
  const compiled = compileSearch(query, dialect, registry);
  if (!compiled.ok) throw new Error(`${query}: ${compiled.error.message}`);
  const found = rows(db, {
    sql: `SELECT r.ip FROM hosts r WHERE ${compiled.value.sql}`,
    params: compiled.value.params,
  });
  return found
    .map((row) => HOSTS.find((host) => host.ip === row.ip)?.letter ?? "?")
    .sort()
    .join("");
}

describe("key/value maps: headers searched by key and value", () => {
  it.each([
    ["services.http.response.headers: (key: Server and value: nginx)", "XZ"],
    ["services.http.response.headers: (key: server and value: apache)", "Y"],
    ["services.http.response.headers: (name: Server and value: nginx)", "XZ"],
    ['services.http.response.headers: (key: "Location" and value.headers: "https://cfx.re/join/*")', "X"],
    ["services.http.response.headers: (key: Location and value: nginx)", ""],
    ["services.http.response.headers: (key: Server and not value: nginx)", "Y"],
    ['services.http.response.headers.unknown.name: "X-Rancher-Version"', "Y"],
    ["services.http.response.headers.key: Location", "X"],
    ["services.http.response.headers.value: apache", "Y"],
    ["services: (port: 80 and http.response.headers: (key: Server and value: nginx))", "X"],
    ["services.http.response.headers: (key: {Location, X-Rancher-Version})", "XY"],
    ["services.http.response.headers: (key: x-* and value: v2.7)", "Y"],
    ["services.http.response.headers.key: No-Such-Header", ""],
  ])("%j matches %s", (query, expected) => {
    expect(matching(query)).toBe(expected);
  });

  it("pairs the key with its own value: Location holds no nginx though the host's Server does", () => {
    expect(
      matching(
        "services.http.response.headers.key: Location and services.http.response.headers.value: nginx",
      ),
    ).toBe("X");
    expect(matching("services.http.response.headers: (key: Location and value: nginx)")).toBe("");
  });
});

describe("fields the schema has beyond the documents'", () => {
  it.each([
    ["services.kubernetes.pod_names: *", ""],
    ["not services.kubernetes.pod_names: *", "XYZ"],
    ["services.kubernetes: *", ""],
    ["services.http.response.headers.www_authenticate: basic", ""],
    ["services: (port: 80 and kubernetes.version_info.git_version: v1)", ""],
  ])("%j is a known field that no host holds: %s", (query, expected) => {
    expect(matching(query)).toBe(expected);
  });

  it("an unknown name outside every family is still refused", () => {
    const result = compileSearch("services.kubernetez.pod_names: x", "v2", registry);
    expect(result.ok || result.error.message).toMatch(/^unknown field "services\.kubernetez\.pod_names"/);
  });
});

describe("objects, bodies, v1 .raw and regex alternatives", () => {
  it.each([
    ["services.tls: *", "Z"],
    ["services.http: *", "XYZ"],
    ["services: (port: 22 and http: *)", ""],
    ['services.http.response.body: "Titan Stealer"', "X"],
    ["services.http.response.body: {works, titan}", "XY"],
    ['services.http.response.body = "*Stealer*"', "X"],
    ["services.http.response.body: /.*(stealer|works).*/", "Y"],
    ["services: (port: 80 and http.response.body: works)", "Y"],
    ["location.country.raw: Germany", "X"],
    ["location.country.raw: germany", ""],
    // Unanchored on a text field, the empty alternative matches any value.
    ["services.tls.certificates.leaf_data.subject.organization: /(ACME|Partners)? ?(co|llc|inc)?/", "Z"],
    ["services.tls.certificates.leaf_data.subject.organization: /^(ACME|Partners)? ?(co|LLC|inc)?$/", "Z"],
    ["services.banner: /SSH-2\\.0-OpenSSH_<7-8>\\.9/", "X"],
    ["ip: 2001:db8::1", ""],
    ['ip: "2001::/3" or ip: 1.1.1.1', "X"],
  ])("%j matches %s", (query, expected) => {
    expect(matching(query)).toBe(expected);
  });
});
