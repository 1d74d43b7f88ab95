import fc from "fast-check";
import type { Database } from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import { andOf, orOf, type QueryNode, type TermValue, type Value } from "../src/ast";
import {
  compileCenqlSearch,
  compileSearch,
  convertLegacyQuery,
  parseQuery,
  printCenql,
  type CenqlRegistries,
  type Dialect,
  type IndexRegistry,
} from "../src/index";
import { HOSTS, NOW, matching, openFixtureDb, rows } from "./fixture-db";
import { certificatesRegistry, hostsRegistry } from "./registries";
import { showQuery } from "./show-query";

const websitesRegistry: IndexRegistry = {
  name: "websites",
  root: { table: "websites", key: "domain" },
  scopes: {},
  fields: { domain: { type: "keyword", storage: { kind: "column", column: "domain" } } },
};
const REGISTRIES: CenqlRegistries = {
  host: hostsRegistry,
  cert: certificatesRegistry,
  web: websitesRegistry,
};

function converted(text: string, dialect: "v1" | "v2", index: "hosts" | "certificates" | "websites"): string {
  const registry = { hosts: hostsRegistry, certificates: certificatesRegistry, websites: websitesRegistry }[
    index
  ];
  const result = convertLegacyQuery(text, dialect, index, { registry });
  if (!result.ok) throw new Error(`${text}: ${result.error.message}`);
  return result.value;
}

describe("convertLegacyQuery: what the converted queries read like", () => {
  const CASES: [string, "v1" | "v2", "hosts" | "certificates" | "websites", string][] = [
    ["services.port: 22", "v2", "hosts", "host.services.port: 22"],
    [
      "services: (port: 22 and not service_name: SSH)",
      "v2",
      "hosts",
      "host.services: (port: 22 and not protocol: SSH)",
    ],
    [
      "same_service(port: 22 and service_name: SSH)",
      "v2",
      "hosts",
      "host.services: (port: 22 and protocol: SSH)",
    ],
    [
      "same_service(services.port: 22 and services.service_name: SSH)",
      "v2",
      "hosts",
      "host.services: (port: 22 and protocol: SSH)",
    ],
    ["location.country = Germany", "v2", "hosts", "host.location.country = Germany"],
    ["location.city: `New York`", "v2", "hosts", 'host.location.city: "New York"'],
    [
      "location: (country: US and city: Paris)",
      "v2",
      "hosts",
      "host.location.country: US and host.location.city: Paris",
    ],
    ["tags: (web or db)", "v2", "hosts", "host.tags: web or host.tags: db"],
    ["autonomous_system.asn: [3320 TO 12322]", "v2", "hosts", "host.autonomous_system.asn: [3320 to 12322]"],
    ["autonomous_system.asn > 10000", "v2", "hosts", "host.autonomous_system.asn > 10000"],
    ["last_updated_at: [now-7d/d TO *]", "v2", "hosts", "host.last_updated_at >= now-7d/d"],
    ["services.port: {22, 443}", "v2", "hosts", "host.services.port: {22, 443}"],
    ["location.city: m*", "v2", "hosts", "host.location.city: m*"],
    ["services.service_name: /HTT.*/", "v2", "hosts", 'host.services.protocol =~ "^HTT.*$"'],
    // a regex on a text field already matches anywhere unless anchored, as CenQL's do
    ["services.banner: /SSH-2\\.0-Open/", "v2", "hosts", 'host.services.banner =~ "SSH-2\\\\.0-Open"'],
    ["services: *", "v2", "hosts", "host.services: *"],
    ["_exists_: location.country", "v1", "hosts", "host.location.country: *"],
    ['"telekom ag"', "v2", "hosts", '"telekom ag"'],
    ["mountain and view", "v2", "hosts", "mountain and view"],
    [
      "location.city: berlin location.city: paris",
      "v1",
      "hosts",
      "host.location.city: berlin or host.location.city: paris",
    ],
    ["+location.country: germany location.city: berlin", "v1", "hosts", "host.location.country: germany"],
    ["tags: web -tags: db", "v1", "hosts", "host.tags: web and not host.tags: db"],
    ["a\\:b or \\and", "v2", "hosts", "a\\:b or \\and"],
    // v1 ipv4 names
    ["ports: 22", "v1", "hosts", "host.services.port: 22"],
    ["location.latitude: [40 TO 60]", "v1", "hosts", "host.location.coordinates.latitude: [40 to 60]"],
    [
      "autonomous_system.routed_prefix: 1.2.0.0/16",
      "v1",
      "hosts",
      "host.autonomous_system.bgp_prefix: 1.2.0.0/16",
    ],
    ['protocols: "22/ssh"', "v1", "hosts", "host.services: (port: 22 and protocol: ssh)"],
    ['protocols.raw: "22/ssh"', "v1", "hosts", "host.services: (port: 22 and protocol: ssh)"],
    [
      "services.tls.certificates.leaf_data.public_key.fingerprint_sha256: f52b",
      "v2",
      "hosts",
      "host.services.cert.parsed.subject_key_info.fingerprint_sha256: f52b",
    ],
    ['protocols: "443/https"', "v1", "hosts", "host.services: (port: 443 and extended_service_name: https)"],
    [
      "443.https.tls.certificate.parsed.fingerprint_sha256: abc",
      "v1",
      "hosts",
      "host.services: (port: 443 and cert.fingerprint_sha256: abc)",
    ],
    [
      "80.http.get.title: nginx",
      "v1",
      "hosts",
      "host.services: (port: 80 and endpoints.http.html_title: nginx)",
    ],
    [
      '443.https.tls.certificate.parsed.issuer.organization: "Let\'s Encrypt"',
      "v1",
      "hosts",
      'host.services: (port: 443 and cert.parsed.issuer.organization: "Let\'s Encrypt")',
    ],
    [
      '80.http.get.body: "Silver Peak"',
      "v1",
      "hosts",
      'host.services: (port: 80 and endpoints.http.body: "Silver Peak")',
    ],
    [
      "8080.http.get.headers.content_length: 2831",
      "v1",
      "hosts",
      "host.services: (port: 8080 and endpoints.http.headers.content_length: 2831)",
    ],
    [
      "443.https.tls.certificate.parsed.subject_key_info.fingerprint_sha256: f52b",
      "v1",
      "hosts",
      "host.services: (port: 443 and cert.parsed.subject_key_info.fingerprint_sha256: f52b)",
    ],
    [
      "8080.http.get.metadata.manufacturer: Microsoft",
      "v1",
      "hosts",
      "host.services: (port: 8080 and software.vendor: Microsoft)",
    ],
    // certificates and websites
    ["parsed.names: example.com", "v1", "certificates", "cert.names: example.com"],
    [
      "parsed.validity.length > 100",
      "v1",
      "certificates",
      "cert.parsed.validity_period.length_seconds > 100",
    ],
    ["parsed.subject_dn: acme", "v2", "certificates", "cert.parsed.subject_dn: acme"],
    ["example and parsed.names: x", "v1", "certificates", "cert: (example and names: x)"],
    ["domain: example.com", "v1", "websites", "web.hostname: example.com"],
    ["ports: 443", "v1", "websites", "web.port: 443"],
    [
      "443.https.tls.certificate.parsed.subject.common_name: example.com",
      "v1",
      "websites",
      "web.port: 443 and web.cert.parsed.subject.common_name: example.com",
    ],
    ["toString: x and constructor: (y)", "v1", "hosts", "host.toString: x and host.constructor: y"],
  ];

  it.each(CASES)("%j (%s, %s) converts to %j", (input, dialect, index, expected) => {
    expect(converted(input, dialect, index)).toBe(expected);
  });
});

/** As the edge converts: without the origin's registry. */
function convertedWithoutRegistry(text: string): string {
  const result = convertLegacyQuery(text, "v2", "hosts");
  if (!result.ok) throw new Error(`${text}: ${result.error.message}`);
  return result.value;
}

// same_service(...) fields in full (`services.port`) and relative (`port`), as Censys's docs write both.
const SAME_SERVICE_SPELLINGS: [full: string, short: string, cenql: string][] = [
  [
    "same_service(services.port:22 and services.service_name:SSH)",
    "same_service(port:22 and service_name:SSH)",
    "host.services: (port: 22 and protocol: SSH)",
  ],
  ["same_service(services.port:22)", "same_service(port:22)", "host.services: (port: 22)"],
  [
    "not same_service(services.port: 22 and services.service_name: SSH)",
    "not same_service(port: 22 and service_name: SSH)",
    "not host.services: (port: 22 and protocol: SSH)",
  ],
  [
    "same_service(services.service_name: HTTP and services.port: 8080)",
    "same_service(service_name: HTTP and port: 8080)",
    "host.services: (protocol: HTTP and port: 8080)",
  ],
  [
    "same_service(services.http.response.html_title: nginx)",
    "same_service(http.response.html_title: nginx)",
    "host.services: (endpoints.http.html_title: nginx)",
  ],
  [
    'same_service(services.tls.certificates.leaf_data.subject_dn: "CN=acme")',
    'same_service(tls.certificates.leaf_data.subject_dn: "CN=acme")',
    'host.services: (cert.parsed.subject_dn: "CN=acme")',
  ],
  [
    "same_service((services.port: 22 or services.port: 2222) and not services.service_name: HTTP)",
    "same_service((port: 22 or port: 2222) and not service_name: HTTP)",
    "host.services: ((port: 22 or port: 2222) and not protocol: HTTP)",
  ],
  [
    "same_service(services.port: 22 and (service_name: SSH or not services.banner: dropbear))",
    "same_service(port: 22 and (service_name: SSH or not banner: dropbear))",
    "host.services: (port: 22 and (protocol: SSH or not banner: dropbear))",
  ],
  [
    "services: (services.port: 22 and services.service_name: SSH)",
    "services: (port: 22 and service_name: SSH)",
    "host.services: (port: 22 and protocol: SSH)",
  ],
];

describe("convertLegacyQuery without a registry: same_service(...) fields in full or relative", () => {
  it.each(SAME_SERVICE_SPELLINGS)("%j converts as %j does, to %j", (full, short, cenql) => {
    expect(convertedWithoutRegistry(full)).toBe(cenql);
    expect(convertedWithoutRegistry(short)).toBe(cenql);
    expect(convertedWithoutRegistry(full)).toBe(convertedWithoutRegistry(short));
  });

  // The test registry has the services fields port, service_name and banner, not http or tls.
  const REGISTERED = SAME_SERVICE_SPELLINGS.filter(([full]) => !/services\.(http|tls)\./.test(full));
  it.each(REGISTERED)("%j converts with the registry as without it", (full, short) => {
    const withRegistry = convertLegacyQuery(full, "v2", "hosts", { registry: hostsRegistry });
    expect(withRegistry).toEqual({ ok: true, value: convertedWithoutRegistry(short) });
  });

  it("keeps a field that is not a service's inside same_service(...) under services, where nothing has it", () => {
    const query = "same_service(port: 22 and location.country: Germany)";
    expect(convertedWithoutRegistry(query)).toBe("host.services: (port: 22 and location.country: Germany)");
    // The origin's own legacy search refuses it as well.
    const legacy = compileSearch(query, "v2", hostsRegistry, { now: NOW });
    expect(legacy.ok).toBe(false);
    if (!legacy.ok) expect(legacy.error.message).toMatch(/"location\.country" is not a field of services/);
  });
});

describe("convertLegacyQuery: what cannot convert is an error naming it", () => {
  const CASES: [string, "v1" | "v2", "hosts" | "certificates" | "websites", number, string, RegExp][] = [
    ["services.port: (22", "v2", "hosts", 15, "(", /unbalanced "\("/],
    ["location.country = x", "v1", "hosts", 17, "=", /"=" \(exact match\) is v2 syntax/],
    ["/abc/", "v2", "hosts", 0, "/abc/", /a regular expression needs a field/],
    ["443.https.get.title: x", "v2", "websites", 0, "443.https.get.title", /per-port website field/],
    ["22.ssh.v2.banner.nonsense: x", "v1", "hosts", 0, "22.ssh.v2.banner.nonsense", /no CenQL equivalent/],
    ["protocols: 22", "v1", "hosts", 11, "22", /values like "443\/https"/],
    ["80.http.toString: x", "v1", "hosts", 0, "80.http.toString", /no CenQL equivalent/],
    ["protocols: *ssh", "v1", "hosts", 11, "*ssh", /values like "443\/https"/],
  ];

  it.each(CASES)("%j (%s, %s) fails at %i on %j", (input, dialect, index, position, token, message) => {
    const result = convertLegacyQuery(input, dialect, index);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ position, token });
    expect(result.error.message).toMatch(message);
  });
});

let db: Database;
beforeAll(async () => {
  db = await openFixtureDb();
});

/** Letters of the fixture hosts a CenQL query matches. */
function matchingCenql(text: string): string {
  const compiled = compileCenqlSearch(text, REGISTRIES, { now: NOW });
  if (!compiled.ok) throw new Error(`${text}: ${compiled.error.message}`);
  expect(compiled.value.resource).toBe("host");
  const found = rows(db, {
    sql: `SELECT r.ip FROM hosts r WHERE ${compiled.value.where.sql}`,
    params: compiled.value.where.params,
  });
  return found
    .map((row) => HOSTS.find((host) => host.ip === row.ip)?.letter ?? "?")
    .sort()
    .join("");
}

describe("convertLegacyQuery without a registry: same_service(...) round trips", () => {
  it.each([
    "same_service(services.port: 22 and services.service_name: SSH)",
    "same_service(services.port: 22)",
    "not same_service(services.port: 22 and services.service_name: SSH)",
    "same_service((services.port: 22 or services.port: 80) and not services.service_name: SSH)",
  ])("%j as CenQL matches the same hosts as the legacy search", (query) => {
    expect(matchingCenql(convertedWithoutRegistry(query))).toBe(matching(db, query, "v2"));
  });
});

// Real queries of the search package's own execution tests, in both dialects.
const ROUND_TRIPS: [string, Dialect & ("v1" | "v2")][] = [
  ["ip: 1.2.3.0/24", "v2"],
  ["ip: [1.2.3.5 TO 1.2.3.255]", "v2"],
  ["ip: {1.2.3.4 TO 1.2.3.10]", "v2"],
  ["ip: {1.2.3.4, 8.8.8.8}", "v2"],
  ["location.country: germany", "v2"],
  ["location.country = Germany", "v2"],
  ["location.country = germany", "v2"],
  ["not location.country: Germany", "v2"],
  ["location.country: *", "v2"],
  ["location.city: m*", "v2"],
  ["location.city = M*", "v2"],
  ["autonomous_system.asn > 10000", "v2"],
  ["autonomous_system.asn: [3320 TO 12322]", "v2"],
  ["location.coordinates.latitude: [40 TO 60]", "v2"],
  ["tor_exit: true", "v2"],
  ["last_updated_at >= now-1d", "v2"],
  ["last_updated_at: [now-7d/d TO *]", "v2"],
  ["last_updated_at: [2020-01-01 TO 2020-01-31]", "v2"],
  ["last_updated_at: 2019", "v2"],
  ["last_updated_at < 2020-01-01", "v2"],
  ["tags: {web, dns}", "v2"],
  ["tags: web and not services.port: 80", "v2"],
  ["services.port: {22, 443}", "v2"],
  ["services.tls.version_selected: *", "v2"],
  ["not services: *", "v2"],
  ["services.banner: openssh", "v2"],
  ["services.banner: OpenSSH_8*", "v2"],
  ["services.service_name: /HTT.*/", "v2"],
  ["services.service_name: /htt.*/", "v2"],
  ["services.banner: /SSH-2\\.0-Open/", "v2"],
  ["services: (port: 22 and banner: \"'quoted'\")", "v2"],
  ['autonomous_system.description: "a French internet service provider based in Paris"', "v2"],
  ["berlin", "v2"],
  ['"telekom ag"', "v2"],
  ["mountain and view", "v2"],
  ["services: (port: 22 and service_name: SSH)", "v2"],
  ["services.port: 22 and services.service_name: SSH", "v2"],
  ["same_service(services.port: 22 and services.service_name: SSH)", "v2"],
  ["services: (port: 22 and not service_name: SSH)", "v2"],
  ["not services: (port: 22 and service_name: SSH)", "v2"],
  ["location.city: berlin location.city: paris", "v1"],
  ["location.city: berlin location.city: paris", "v2"],
  ["location.country: germany tags: db", "v1"],
  ["-tags: web", "v1"],
  ["tags: web -tags: db", "v1"],
  ["+location.country: germany location.city: berlin", "v1"],
  ["tags: (web or dns)", "v1"],
  ["location.country: germany OR location.country: france AND tor_exit: true", "v1"],
  ["(location.country: germany OR location.country: france) AND NOT tor_exit: true", "v2"],
];

describe("convertLegacyQuery: round trips", () => {
  it.each(ROUND_TRIPS)("%j (%s) as CenQL matches the same hosts", (query, dialect) => {
    expect(matchingCenql(converted(query, dialect, "hosts"))).toBe(matching(db, query, dialect));
  });

  it.each(ROUND_TRIPS)("%j (%s) as CenQL compiles to the same SQL", (query, dialect) => {
    const legacy = compileSearch(query, dialect, hostsRegistry, { now: NOW });
    const cenql = compileCenqlSearch(converted(query, dialect, "hosts"), REGISTRIES, { now: NOW });
    if (!legacy.ok || !cenql.ok) throw new Error(`${query} did not compile`);
    // A keyword regex is written out with its anchors, so its SQL differs in the pattern alone.
    if (/: \//.test(query)) expect(cenql.value.where.sql).toBe(legacy.value.sql);
    else expect(cenql.value.where).toEqual(legacy.value);
  });
});

// ---- printCenql: any tree prints as text that parses back to it ----------------------------

const FIELDS = ["host.services.port", "host.location.country", "cert.parsed.subject_dn", "web.hostname", "x"];
const WORD_CHARS = "abdnortAZ019 .-+!:=<>*?\\\"'`()[]{},&|~^/";
// Words made of the characters that mean something to the parser, and the words that do.
const text = fc.oneof(
  fc
    .array(fc.constantFrom(...WORD_CHARS.split("")), { minLength: 0, maxLength: 8 })
    .map((chars) => chars.join("")),
  fc.constantFrom("and", "OR", "Not", "to", "TO", "*", "-x", "+x", "!x", "<5", ">=5", "same_service", "a=~b"),
);
const termValue = fc.record({ text, quoted: fc.boolean() }).map(
  ({ text: t, quoted }): TermValue => ({
    kind: "term",
    text: t,
    quoted: quoted || t === "",
    position: 0,
    raw: t,
  }),
);
const plainWord = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/).filter((w) => !/^(and|or|not|to)$/.test(w));
const value: fc.Arbitrary<{ op: "match" | "exact"; value: Value }> = fc.oneof(
  fc.record({ op: fc.constantFrom("match" as const, "exact" as const), value: termValue }),
  fc.record({
    op: fc.constant("match" as const),
    value: fc.constant<Value>({ kind: "exists", position: 0, raw: "*" }),
  }),
  fc
    .record({
      low: fc.option(termValue, { nil: null }),
      high: fc.option(termValue, { nil: null }),
      li: fc.boolean(),
      hi: fc.boolean(),
    })
    .map(({ low, high, li, hi }) => ({
      op: "match" as const,
      value: {
        kind: "range",
        lower: low && { value: low, inclusive: li },
        upper: high && { value: high, inclusive: hi },
        position: 0,
        raw: "",
      } satisfies Value,
    })),
  fc.record({ op: fc.constant("match" as const), source: plainWord }).map(({ op, source }) => ({
    op,
    value: { kind: "regex", source: `${source}.*`, position: 0, raw: "" } satisfies Value,
  })),
  fc.array(termValue, { minLength: 1, maxLength: 3 }).map((items) => ({
    op: "match" as const,
    value: { kind: "set", items, position: 0, raw: "" } satisfies Value,
  })),
);
const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
  fc
    .record({ field: fc.constantFrom(...FIELDS), v: value })
    .map(({ field, v }): QueryNode => ({ type: "field", field, position: 0, op: v.op, value: v.value })),
  termValue.filter((t) => t.text.trim() !== "").map((t): QueryNode => ({ type: "text", value: t })),
);
const tree = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((children) => andOf(children)),
    fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((children) => orOf(children)),
    tie("node").map((child): QueryNode => ({ type: "not", child })),
    fc.record({ port: fc.integer({ min: 1, max: 65535 }), name: plainWord }).map(
      ({ port, name }): QueryNode => ({
        type: "group",
        field: "host.services",
        position: 0,
        body: andOf([
          {
            type: "field",
            field: "host.services.port",
            position: 0,
            op: "match",
            value: { kind: "term", text: String(port), quoted: false, position: 0, raw: "" },
          },
          {
            type: "not",
            child: {
              type: "field",
              field: "host.services.protocol",
              position: 0,
              op: "exact",
              value: { kind: "term", text: name, quoted: false, position: 0, raw: "" },
            },
          },
        ]),
      }),
    ),
  ),
})).node;

/** The tree with group-relative names made full, as printCenql reads them back. */
function relativeNames(node: QueryNode, group: string | null): QueryNode {
  switch (node.type) {
    case "and":
    case "or":
      return { ...node, children: node.children.map((child) => relativeNames(child, group)) };
    case "not":
      return { ...node, child: relativeNames(node.child, group) };
    case "field":
      return group && node.field.startsWith(`${group}.`)
        ? { ...node, field: node.field.slice(group.length + 1) }
        : node;
    case "group":
      return { ...node, body: relativeNames(node.body, node.field) };
    default:
      return node;
  }
}

describe("printCenql", () => {
  it("prints any tree as CenQL that parses back to the same tree", () => {
    fc.assert(
      fc.property(tree, (node) => {
        const printed = printCenql(node);
        const reparsed = parseQuery(printed, "cenql");
        if (!reparsed.ok) throw new Error(`${printed}: ${reparsed.error.message}`);
        expect(showQuery(reparsed.value)).toBe(showQuery(relativeNames(node, null)));
      }),
      { numRuns: 500 },
    );
  });
});
