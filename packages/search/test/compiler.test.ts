import { describe, expect, it } from "vitest";
import {
  QueryError,
  compileAggregate,
  compileQuery,
  compileSearch,
  parseQuery,
  type CompileOptions,
  type Dialect,
  type IndexRegistry,
  type SqlFragment,
} from "../src/index";
import { certificatesRegistry, hostsRegistry } from "./registries";

const NOW = new Date("2026-11-22T12:34:56.789Z");
const DAY = 86_400_000;
const TODAY = Date.UTC(2026, 10, 22);

function compiled(
  input: string,
  dialect: Dialect = "v2",
  registry: IndexRegistry = hostsRegistry,
  options: CompileOptions = {},
): SqlFragment {
  const result = compileSearch(input, dialect, registry, { now: NOW, ...options });
  if (!result.ok) throw new Error(`expected ${JSON.stringify(input)} to compile: ${result.error.message}`);
  return result.value;
}

function compileError(
  input: string,
  dialect: Dialect = "v2",
  registry: IndexRegistry = hostsRegistry,
): QueryError {
  const result = compileSearch(input, dialect, registry, { now: NOW });
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} not to compile, got ${result.value.sql}`);
  expect(result.error).toBeInstanceOf(QueryError);
  return result.error;
}

const SERVICES = "r.ip IN (SELECT s.ip FROM host_services s WHERE";
const TAGS = "r.ip IN (SELECT v.ip FROM host_tags v WHERE";
const FTS = "r.rowid IN (SELECT rowid FROM hosts_fts WHERE hosts_fts MATCH ?)";

describe("compileQuery: one condition per field type and storage", () => {
  const CASES: [string, string, (string | number)[]][] = [
    // keyword root column: case-insensitive equality (the column is NOCASE)
    ["location.country: Germany", "r.country = ?", ["Germany"]],
    [
      "location.country = Germany",
      "(r.country = ? AND r.country = ? COLLATE BINARY)",
      ["Germany", "Germany"],
    ],
    ['location.city: "New York"', "r.city = ?", ["New York"]],
    ["location.city: `New York`", "r.city = ?", ["New York"]],
    ["location.country: *", "r.country IS NOT NULL", []],
    ["_exists_: location.country", "r.country IS NOT NULL", []],
    // text: contains, LIKE metacharacters escaped
    ["autonomous_system.description: google", "r.as_description LIKE ? ESCAPE '\\'", ["%google%"]],
    [
      'autonomous_system.description: "100%_off\\\\"',
      "r.as_description LIKE ? ESCAPE '\\'",
      ["%100\\%\\_off\\\\%"],
    ],
    [
      "autonomous_system.description = Google",
      "(r.as_description = ? AND r.as_description = ? COLLATE BINARY)",
      ["Google", "Google"],
    ],
    // numbers bound as numbers
    ["autonomous_system.asn: 15169", "r.asn = ?", [15169]],
    ["autonomous_system.asn: -1", "r.asn = ?", [-1]],
    ["autonomous_system.asn > 1000", "r.asn > ?", [1000]],
    ["autonomous_system.asn >= 1000", "r.asn >= ?", [1000]],
    ["autonomous_system.asn < 1000", "r.asn < ?", [1000]],
    ["autonomous_system.asn <= 1000", "r.asn <= ?", [1000]],
    ["autonomous_system.asn: [1 TO 5]", "r.asn BETWEEN ? AND ?", [1, 5]],
    ["autonomous_system.asn: {1 TO 5}", "(r.asn > ? AND r.asn < ?)", [1, 5]],
    ["autonomous_system.asn: [1 TO 5}", "(r.asn >= ? AND r.asn < ?)", [1, 5]],
    ["autonomous_system.asn: [* TO 5]", "r.asn <= ?", [5]],
    ["autonomous_system.asn: [* TO *]", "r.asn IS NOT NULL", []],
    ["autonomous_system.asn: [1.5 TO 2]", "r.asn BETWEEN ? AND ?", [1.5, 2]],
    ["location.coordinates.latitude: 48.85", "r.latitude = ?", [48.85]],
    ["location.coordinates.latitude: [-90 TO 1e1]", "r.latitude BETWEEN ? AND ?", [-90, 10]],
    // booleans as 0/1
    ["tor_exit: true", "r.tor_exit = ?", [1]],
    ["tor_exit: FALSE", "r.tor_exit = ?", [0]],
    // ip fields are integers: addresses, CIDR blocks and ranges
    ["ip: 1.2.3.4", "r.ip_num = ?", [16909060]],
    ["ip: 1.2.3.0/24", "r.ip_num BETWEEN ? AND ?", [16909056, 16909311]],
    ["ip: 1.2.3.77/24", "r.ip_num BETWEEN ? AND ?", [16909056, 16909311]],
    ["ip: 0.0.0.0/0", "r.ip_num BETWEEN ? AND ?", [0, 4294967295]],
    ["ip: 255.255.255.255/32", "r.ip_num = ?", [4294967295]],
    ["ip: [1.2.3.4 TO 1.2.3.9]", "r.ip_num BETWEEN ? AND ?", [16909060, 16909065]],
    ["ip: {1.2.3.4 TO 1.2.3.9}", "(r.ip_num > ? AND r.ip_num < ?)", [16909060, 16909065]],
    ["ip: [10.0.0.0/8 TO *]", "r.ip_num >= ?", [167772160]],
    ["ip: {10.0.0.0/8 TO *]", "r.ip_num > ?", [184549375]],
    ["ip: {1.2.3.4, 1.2.3.5}", "r.ip_num IN (?, ?)", [16909060, 16909061]],
    [
      "ip: {1.2.3.4, 10.0.0.0/8}",
      "(r.ip_num = ? OR r.ip_num BETWEEN ? AND ?)",
      [16909060, 167772160, 184549375],
    ],
    // timestamps: dates name intervals, relative dates use options.now
    [
      "last_updated_at: 2020-01-01",
      "r.updated_at BETWEEN ? AND ?",
      [Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 2) - 1],
    ],
    ["last_updated_at >= now-1d", "r.updated_at >= ?", [NOW.getTime() - DAY]],
    ["last_updated_at > now-2h", "r.updated_at > ?", [NOW.getTime() - 2 * 3_600_000]],
    ["last_updated_at < now/d", "r.updated_at < ?", [TODAY]],
    ["last_updated_at > now/d", "r.updated_at > ?", [TODAY + DAY - 1]],
    ["last_updated_at: [now-7d/d TO now]", "r.updated_at BETWEEN ? AND ?", [TODAY - 7 * DAY, NOW.getTime()]],
    [
      "last_updated_at: [2020-01-01 TO 2020-01-31]",
      "r.updated_at BETWEEN ? AND ?",
      [Date.UTC(2020, 0, 1), Date.UTC(2020, 1, 1) - 1],
    ],
    [
      "last_updated_at: {2020-01-01 TO 2020-02-01}",
      "(r.updated_at > ? AND r.updated_at < ?)",
      [Date.UTC(2020, 0, 2) - 1, Date.UTC(2020, 1, 1)],
    ],
    ["last_updated_at >= 2020-01-01T10:00:00Z", "r.updated_at >= ?", [Date.UTC(2020, 0, 1, 10)]],
    ["last_updated_at: 2020-01-01T10:00:00.123Z", "r.updated_at = ?", [Date.UTC(2020, 0, 1, 10, 0, 0, 123)]],
    // wildcards: LIKE for `:`, GLOB (case-sensitive) for `=`
    ["location.city: par*", "r.city LIKE ? ESCAPE '\\'", ["par%"]],
    ["location.city: p?r_s*", "r.city LIKE ? ESCAPE '\\'", ["p_r\\_s%"]],
    ["location.city: 100\\*%*", "r.city LIKE ? ESCAPE '\\'", ["100*\\%%"]],
    ["location.city = Par*", "r.city GLOB ?", ["Par*"]],
    ["location.city = P\\[a?*", "r.city GLOB ?", ["P[[]a?*"]],
    ["autonomous_system.description: goo*le", "r.as_description LIKE ? ESCAPE '\\'", ["%goo%le%"]],
    // regular expressions: the GLOB-expressible subset
    ["location.city: /par.*/", "r.city GLOB ?", ["par*"]],
    ["location.city: /[pP]aris/", "r.city GLOB ?", ["[pP]aris"]],
    ["location.city: /^Par.s$/", "r.city GLOB ?", ["Par?s"]],
    ["location.city: /a\\.b\\d{2}/", "r.city GLOB ?", ["a.b[0-9][0-9]"]],
    // keyword ranges compare strings
    ["location.city: [a TO m]", "r.city BETWEEN ? AND ?", ["a", "m"]],
    // sets
    ["location.country: {Germany, France}", "r.country IN (?, ?)", ["Germany", "France"]],
    ["tor_exit: {true, false}", "r.tor_exit IN (?, ?)", [1, 0]],
    ["location.city: {Par*, Berlin}", "(r.city LIKE ? ESCAPE '\\' OR r.city = ?)", ["Par%", "Berlin"]],
    [
      "location.city = {Paris, Berlin}",
      "((r.city = ? AND r.city = ? COLLATE BINARY) OR (r.city = ? AND r.city = ? COLLATE BINARY))",
      ["Paris", "Paris", "Berlin", "Berlin"],
    ],
    // side table
    ["tags: web", `${TAGS} v.tag = ?)`, ["web"]],
    ["tags: *", `${TAGS} v.tag IS NOT NULL)`, []],
    ["tags: {web, db}", `${TAGS} v.tag IN (?, ?))`, ["web", "db"]],
    // scoped, outside a scope block: any service of the host
    ["services.port: 22", `${SERVICES} s.port = ?)`, [22]],
    ["services.port: {22, 80, 443}", `${SERVICES} s.port IN (?, ?, ?))`, [22, 80, 443]],
    ["services.banner: /SSH-2\\.0/", `${SERVICES} s.banner GLOB ?)`, ["*SSH-2.0*"]],
    ["services.banner: /^SSH/", `${SERVICES} s.banner GLOB ?)`, ["SSH*"]],
    ["services.tls.version_selected: *", `${SERVICES} s.tls_version IS NOT NULL)`, []],
    ["services: *", "r.ip IN (SELECT s.ip FROM host_services s)", []],
    ["services.observed_at >= now-1d", `${SERVICES} s.observed_at >= ?)`, [NOW.getTime() - DAY]],
    // full text
    ["nginx", FTS, ['"nginx"']],
    ['"foo \\"bar\\""', FTS, ['"foo ""bar"""']],
    ["ngin*", FTS, ['"ngin"*']],
    ["ngin\\*", FTS, ['"ngin*"']],
    // match all and nothing
    ["*", "1", []],
    ["", "1", []],
    ["not *", "0", []],
    ["* and location.country: DE", "r.country = ?", ["DE"]],
    ["* or location.country: DE", "1", []],
  ];

  it.each(CASES)("%j compiles to %s with %j", (input, sql, params) => {
    expect(compiled(input)).toEqual({ sql, params });
  });
});

describe("compileQuery: boolean structure", () => {
  it("negates with IS NOT TRUE so documents without the field match a negation", () => {
    expect(compiled("not location.country: US")).toEqual({
      sql: "(r.country = ?) IS NOT TRUE",
      params: ["US"],
    });
  });

  it("joins AND and OR with parentheses and keeps parameters in SQL order", () => {
    expect(compiled("location.country: DE and (services.port: 22 or tags: web)")).toEqual({
      sql: `(r.country = ? AND (${SERVICES} s.port = ?) OR ${TAGS} v.tag = ?)))`,
      params: ["DE", 22, "web"],
    });
  });

  it("puts every condition of a services: (...) block on the same service row", () => {
    expect(compiled("services: (port: 22 and not service_name: SSH)")).toEqual({
      sql: `${SERVICES} (s.port = ? AND (s.service_name = ?) IS NOT TRUE))`,
      params: [22, "SSH"],
    });
  });

  it("compiles same_service(...) exactly like services: (...), with short or full field names", () => {
    const block = compiled("services: (port: 22 and service_name: SSH)");
    expect(compiled("same_service(port: 22 and service_name: SSH)")).toEqual(block);
    expect(compiled("same_service(services.port: 22 and services.service_name: SSH)")).toEqual(block);
  });

  it("checks separate services.* conditions against any service each", () => {
    expect(compiled("services.port: 22 and services.service_name: SSH")).toEqual({
      sql: `(${SERVICES} s.port = ?) AND ${SERVICES} s.service_name = ?))`,
      params: [22, "SSH"],
    });
  });

  it("scopes nested groups inside a services block to the same row", () => {
    expect(compiled("services: (port: {22, 2222} and tls: (version_selected: TLSv1_3))")).toEqual({
      sql: `${SERVICES} (s.port IN (?, ?) AND s.tls_version = ?))`,
      params: [22, 2222, "TLSv1_3"],
    });
  });

  it("prefixes field names inside a group of a non-scope field", () => {
    expect(compiled("location: (country: US and city: Paris)")).toEqual({
      sql: "(r.country = ? AND r.city = ?)",
      params: ["US", "Paris"],
    });
  });

  it("applies bare terms inside field: (...) to that field, Lucene style", () => {
    expect(compiled("tags: (web or db)", "v1")).toEqual({
      sql: `(${TAGS} v.tag = ?) OR ${TAGS} v.tag = ?))`,
      params: ["web", "db"],
    });
  });

  it("uses the dialect's implicit operator between adjacent terms", () => {
    expect(compiled("location.country: DE location.city: Berlin", "v1").sql).toBe(
      "(r.country = ? OR r.city = ?)",
    );
    expect(compiled("location.country: DE location.city: Berlin", "v2").sql).toBe(
      "(r.country = ? AND r.city = ?)",
    );
  });

  it("splits long OR lists into a balanced tree (D1 limits expression depth)", () => {
    const ports = Array.from({ length: 16 }, (_, i) => `autonomous_system.asn: ${i}`).join(" or ");
    const { sql, params } = compiled(ports);
    expect(params).toEqual(Array.from({ length: 16 }, (_, i) => i));
    expect(sql.startsWith("(((r.asn = ? OR r.asn = ? OR r.asn = ? OR r.asn = ?) OR")).toBe(true);
  });

  it("qualifies columns with the root alias the caller chooses", () => {
    expect(compiled("location.country: DE and tags: web", "v2", hostsRegistry, { rootAlias: "h" })).toEqual({
      sql: "(h.country = ? AND h.ip IN (SELECT v.ip FROM host_tags v WHERE v.tag = ?))",
      params: ["DE", "web"],
    });
  });

  it("matches field names case-insensitively when there is no exact match", () => {
    expect(compiled("Location.Country: DE").sql).toBe("r.country = ?");
  });

  it("uses instr instead of LIKE for text values too long for a D1 pattern", () => {
    const long = "x".repeat(60);
    expect(compiled(`autonomous_system.description: "${long}"`)).toEqual({
      sql: "instr(lower(r.as_description), lower(?)) > 0",
      params: [long],
    });
  });

  it("matches a wildcard pattern too long for a D1 pattern in pieces cut at its stars", () => {
    const head = "a".repeat(45);
    expect(compiled(`location.city: "${head}:*:*:*:*"`)).toEqual({
      sql: "(r.city LIKE ? ESCAPE '\\' AND r.city LIKE ? ESCAPE '\\')",
      params: [`${head}:%:%`, "%:%:%"],
    });
  });

  it("compares a literal piece too long for a D1 pattern even alone as text", () => {
    const cpe = "cpe:2.3:o:microsoft:windows_server_2008_r2:6.1";
    expect(compiled(`location.city: "${cpe}:*:*"`)).toEqual({
      sql: "(lower(substr(r.city, 1, 47)) = lower(?) AND r.city LIKE ? ESCAPE '\\')",
      params: [`${cpe}:`, "%:%"],
    });
    expect(compiled(`autonomous_system.description: "${cpe}:*"`).params).toContain(`${cpe}:`);
  });

  it("resolves relative dates against the current time by default", () => {
    const parsed = parseQuery("last_updated_at >= now", "v2");
    if (!parsed.ok) throw parsed.error;
    const before = Date.now();
    const result = compileQuery(parsed.value, hostsRegistry);
    if (!result.ok) throw result.error;
    expect(result.value.params[0]).toBeGreaterThanOrEqual(before);
    expect(result.value.params[0]).toBeLessThanOrEqual(Date.now());
  });
});

describe("compileQuery: errors name the field or token", () => {
  // input, position, token, a part of the message
  const CASES: [string, number, string, string][] = [
    [
      "servics.port: 22",
      0,
      "servics.port",
      'unknown field "servics.port"; did you mean "services.port"? (at position 0)',
    ],
    ["location.country: DE and nope: 1", 25, "nope", 'unknown field "nope" at position 25'],
    [
      "services: (prot: 22)",
      11,
      "prot",
      'unknown field "services.prot"; did you mean "services.port"? (at position 11)',
    ],
    [
      "services: (location.country: DE)",
      11,
      "location.country",
      '"location.country" is not a field of services',
    ],
    ["services: (tags: web)", 11, "tags", '"tags" is not a field of services'],
    ["services: (ssh)", 11, "ssh", 'the bare term "ssh" at position 11 needs a field inside services: (...)'],
    ["services.port: abc", 15, "abc", 'expected an integer for "services.port", got "abc" at position 15'],
    ["services.port: 22.5", 15, "22.5", "expected an integer"],
    ["services.port: 99999999999999999999", 15, "99999999999999999999", "expected an integer"],
    ["services.port: [a TO 5]", 16, "a", "expected a number"],
    ["location.coordinates.latitude: north", 31, "north", "expected a number"],
    ["tor_exit: yes", 10, "yes", 'expected true or false for "tor_exit", got "yes"'],
    ["ip: 1.2.3.256", 4, "1.2.3.256", 'expected an IPv4 address for "ip", got "1.2.3.256"'],
    ["ip: 1.2.3", 4, "1.2.3", "expected an IPv4 address"],
    ["ip: 01.2.3.4", 4, "01.2.3.4", "expected an IPv4 address"],
    ["ip: 1.2.3.0/33", 4, "1.2.3.0/33", "expected an IPv4 CIDR block like 10.0.0.0/8"],
    ["ip: 1.2.3.0/", 4, "1.2.3.0/", "expected an IPv4 CIDR block"],
    ["ip: [1.2.3.4 TO ::1]", 16, "::1", "only IPv4 addresses are indexed"],
    ["ip: 1.2.3.*", 4, "1.2.3.*", "use CIDR notation like 10.0.0.0/8"],
    [
      "last_updated_at: 2020-13-01",
      17,
      "2020-13-01",
      'expected a date (YYYY-MM-DD, an RFC 3339 time, or date math like now-1d) for "last_updated_at"',
    ],
    ["last_updated_at: 2021-02-29", 17, "2021-02-29", "expected a date"],
    ["last_updated_at > yesterday", 18, "yesterday", "expected a date"],
    ["last_updated_at > now-1x", 18, "now-1x", "expected a date"],
    ["last_updated_at > now/q", 18, "now/q", "expected a date"],
    [
      "services.port: 2*",
      15,
      "2*",
      'wildcards apply only to text and keyword fields, and "services.port" is integer',
    ],
    ["tor_exit: [0 TO 1]", 10, "[0 TO 1]", 'ranges do not apply to the boolean field "tor_exit"'],
    ["ip: /1\\.2.*/", 4, "/1\\.2.*/", "regular expressions apply only to text and keyword fields"],
    ["location.city: /a+/", 15, "/a+/", "regular expression not supported: /a+/ at position 15"],
    ["location.city: /(ab)+/", 15, "/(ab)+/", "regular expression not supported"],
    ["location.city: /\\bx/", 15, "/\\bx/", "regular expression not supported"],
    ["location.city: /(?=a)b/", 15, "/(?=a)b/", "regular expression not supported"],
    ["/abc/", 0, "/abc/", "a regular expression needs a field"],
    ["*nginx", 0, "*nginx", "full-text terms take only a trailing * wildcard"],
    ["ng?nx", 0, "ng?nx", "full-text terms take only a trailing * wildcard"],
    ['""', 0, '""', "empty search term at position 0"],
    [
      "location.city: " + "a?".repeat(30) + "*",
      15,
      "a?".repeat(30) + "*",
      "is too long: patterns match at most 50 bytes",
    ],
  ];

  it.each(CASES)("%j fails at position %i on %j", (input, position, token, message) => {
    const error = compileError(input);
    expect(error.position).toBe(position);
    expect(error.token).toBe(token);
    expect(error.message).toContain(message);
  });

  it("refuses full-text terms on an index without a full-text table", () => {
    const error = compileError("parsed.validity.length: 1 and letsencrypt", "v2", certificatesRegistry);
    expect(error.message).toContain(
      'full-text search is not available on the certificates index: name a field for "letsencrypt"',
    );
    expect(error.position).toBe(30);
  });

  it("refuses same_service(...) on an index without services", () => {
    const error = compileError("same_service(port: 22)", "v2", certificatesRegistry);
    expect(error.message).toContain('unknown field "services.port"');
  });

  it("refuses queries with more bound values than a D1 statement may carry", () => {
    const values = Array.from({ length: 91 }, (_, i) => i).join(", ");
    const error = compileError(`services.port: {${values}}`);
    expect(error.message).toContain("query has too many values: at most 90");
    expect(error.position).toBe(15);
    const ninety = Array.from({ length: 90 }, (_, i) => i).join(", ");
    expect(compiled(`services.port: {${ninety}}`).params).toHaveLength(90);
  });

  it("lets the caller lower the bound-value limit", () => {
    const result = compileSearch("tags: a or tags: b or tags: c", "v2", hostsRegistry, { maxParams: 2 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.position).toBe(28);
  });

  it("treats a registry identifier that is not a plain SQL name as a bug, not a query error", () => {
    const broken: IndexRegistry = {
      ...hostsRegistry,
      fields: { name: { type: "keyword", storage: { kind: "column", column: "name; DROP" } } },
    };
    expect(() => compileSearch("name: x", "v2", broken)).toThrow(/not a plain SQL name/);
  });
});

describe("names a query gives are own keys of the registry", () => {
  for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"]) {
    it(`${name} is no field and no scope`, () => {
      expect(compileError(`${name}: 1`).message).toContain(`unknown field "${name}"`);
      expect(compileError(`${name}: (port: 22)`).message).toContain("unknown field");
      expect(compileError(`services: (${name}: 1)`).message).toContain("unknown field");
      const where = compileSearch("*", "v2", hostsRegistry, { now: NOW });
      if (!where.ok) throw where.error;
      const aggregate = compileAggregate(hostsRegistry, name, where.value, { buckets: 5 });
      expect(aggregate.ok).toBe(false);
    });
  }
});
