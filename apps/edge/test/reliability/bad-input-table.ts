import {
  FIELD_NAME_MAX_CHARS,
  MAX_REQUEST_BODY_BYTES,
  REQUEST_TARGET_MAX_CHARS,
  V1_SEARCH_FIELDS_MAX,
} from "@scangate/core";

// The bad-input table: malformed requests to every route of both workers, each with the answer
// it must get. Data only; bad-input.test.ts runs it. Rows in API_ROWS go to the edge (as a
// tenant) AND straight to the origin (as the edge's upstream account); PLATFORM_ROWS go to the
// edge's /v3 (as the tenant, with its Platform token); `origin` gives the
// origin's answer where it differs. `defect` marks a row whose answer is known to be wrong
// today (the runner expects it to fail) and names the defect for whoever owns it.

/** Body shapes, validated with the @scangate/core schemas of the same names. */
export type Shape = "v1" | "v1_unauthorized" | "v2" | "v2_invalid_query" | "problem";
export type Expected = readonly [status: number, shape: Shape];

/** Values read from the running workers before the table runs (real cursor, real jobs). */
export interface TableContext {
  /** `links.next` of `GET /api/v2/hosts/search?per_page=1` (no q). */
  cursor: string;
  /** A finished query job and export job started through the edge by the calling tenant. */
  queryJob: string;
  exportJob: string;
  /** The newest published ipv4 snapshot table, and a raw-data result id. */
  table: string;
  rawResult: string;
  /** An existing tenant, for admin rows. */
  tenantId: string;
}

/** Who calls: a tenant on the edge, the upstream account on the origin; the admin token. */
export interface Caller {
  apiId: string;
  secret: string;
  adminToken: string;
  /** The tenant's Platform (/v3) bearer token ("" on the origin). */
  platformToken: string;
}

type Dynamic<T> = T | ((ctx: TableContext) => T);

export interface BadRequest {
  what: string;
  method: string;
  path: Dynamic<string>;
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: Dynamic<unknown>;
  /** Content-Type of the body (default application/json); "" sends none. */
  type?: string;
  /** The Authorization header from the caller's credentials; default: the caller's own. */
  auth?: (caller: Caller) => string | null;
  expect: Expected;
  origin?: Expected;
  defect?: { edge?: string; origin?: string };
}

const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;
const V1_400: Expected = [400, "v1"];
const V1_404: Expected = [404, "v1"];
const V1_405: Expected = [405, "v1"];
const V1_413: Expected = [413, "v1"];
const V2_400: Expected = [400, "v2"];
const V2_401: Expected = [401, "v2"];
const V2_404: Expected = [404, "v2"];
const V2_405: Expected = [405, "v2"];
const V2_422: Expected = [422, "v2_invalid_query"];

const enc = encodeURIComponent;
/** Changes one character of a base64url token at `at` (an index inside it), keeping it base64url. */
export function flipAt(token: string, at: number): string {
  const c = token[at] ?? "A";
  return token.slice(0, at) + (c === "A" ? "B" : "A") + token.slice(at + 1);
}
const signatureStart = (cursor: string) => cursor.indexOf(".") + 1;
const oversized = () => JSON.stringify({ query: "x".repeat(MAX_REQUEST_BODY_BYTES) });
const hex64 = (i: number) => i.toString(16).padStart(64, "0");
const INVALID_UTF8 = (prefix: string, suffix: string) =>
  new Uint8Array([
    ...new TextEncoder().encode(prefix),
    0xff,
    0xfe,
    0xc0,
    0xaf,
    ...new TextEncoder().encode(suffix),
  ]);

const JSON_ROUTES = [
  "/api/v1/search/ipv4",
  "/api/v1/search/websites",
  "/api/v1/search/certificates",
  "/api/v1/report/ipv4",
  "/api/v1/report/certificates",
  "/api/v1/bulk/certificates",
  "/api/v1/query",
  "/api/v1/export",
] as const;

const MALFORMED_JSON = [
  ["truncated JSON", '{"query": "*"'],
  ["single-quoted JSON", "{'query': '*'}"],
  ["a trailing comma", '{"query": "*",}'],
  ["plain text", "query=*"],
  ["an empty body", ""],
  ["JSON null", "null"],
  ["a JSON array", "[]"],
  ["a JSON string", '"select 1"'],
] as const;

/** SQL the origin's guard must refuse in query and export jobs (the snapshot table where one is needed). */
const FORBIDDEN_SQL: ReadonlyArray<readonly [string, (ctx: TableContext) => string]> = [
  ["a statement after a semicolon", (ctx) => `select ip from "${ctx.table}"; drop table hosts`],
  ["DROP TABLE", () => "drop table hosts"],
  ["DELETE", (ctx) => `delete from "${ctx.table}"`],
  ["INSERT", () => "insert into account_usage (api_id) values ('x')"],
  ["UPDATE", () => "update account_usage set used = 0"],
  ["a table that is not a published snapshot", () => "select * from account_usage"],
  ["sqlite_master", () => "select sql from sqlite_master"],
  ["PRAGMA", () => "pragma table_list"],
  ["ATTACH", () => "attach database 'x.db' as x"],
  ["load_extension", () => "select load_extension('/tmp/x.so')"],
  [
    "a UNION onto an internal table",
    (ctx) => `select ip from "${ctx.table}" union select api_id from account_usage`,
  ],
  ["unbalanced quotes", (ctx) => `select ip from "${ctx.table}" where ip = '1.1.1.1`],
];

const V1_QUERY_SYNTAX = [
  ["an unclosed range", "ip: [1 TO"],
  ["unbalanced parentheses", "((location.country: US"],
  ["an unterminated phrase", '"unterminated'],
  ["a SQL tautology after an odd double quote", 'ip: 1.1.1.1" OR 1=1 --'],
  ["a SQL DROP after a lone quote", '"; DROP TABLE hosts; --'],
  ["a dangling AND", "location.country: US AND"],
  ["a stray closing parenthesis", "ip: 1.1.1.1) UNION SELECT * FROM account_usage --"],
  ["10,000 nested parentheses", `${"(".repeat(10_000)}x${")".repeat(10_000)}`],
] as const;

const V2_QUERY_SYNTAX = [
  ["an unclosed range", "services.port: [22 TO"],
  ["an unclosed nested scope", "services: (port: 22"],
  ["an unterminated backtick", "services.service_name: `SSH"],
  ["a SQL tautology with a lone quote", "' OR 1=1 --"],
  ["an unclosed set", "services.port: {22, 80"],
  ["a dangling NOT", "location.country: US and not"],
  // Within SEARCH_QUERY_MAX_CHARS, so the parser sees it (a longer q is the edge's 400, below).
  ["2,000 nested parentheses", `${"(".repeat(2_000)}x${")".repeat(2_000)}`],
] as const;

export const API_ROWS: BadRequest[] = [
  // ---- malformed, non-object and oversized JSON bodies on every JSON route ----
  ...JSON_ROUTES.flatMap((path) => [
    ...MALFORMED_JSON.map(
      ([what, body]): BadRequest => ({ what: `${what} body`, method: "POST", path, body, expect: V1_400 }),
    ),
    {
      what: "invalid UTF-8 inside a JSON string",
      method: "POST",
      path,
      body: INVALID_UTF8('{"query": "', '"}'),
      expect: V1_400,
    },
    { what: `a body over MAX_REQUEST_BODY_BYTES`, method: "POST", path, body: oversized, expect: V1_413 },
  ]),
  // ---- v1 search: wrong types, missing fields, pages ----
  ...(
    [
      ["no query", { page: 1 }],
      ["an empty query", { query: "" }],
      ["a blank query", { query: "   " }],
      ["a numeric query", { query: 5 }],
      ["a query array", { query: ["*"] }],
      ["page 0", { query: "*", page: 0 }],
      ["a negative page", { query: "*", page: -1 }],
      ["a fractional page", { query: "*", page: 1.5 }],
      ["a string page", { query: "*", page: "2" }],
      ["fields as a string", { query: "*", fields: "ip" }],
      ["fields with a number", { query: "*", fields: [1] }],
      [
        `${V1_SEARCH_FIELDS_MAX + 1} fields`,
        { query: "*", fields: Array.from({ length: V1_SEARCH_FIELDS_MAX + 1 }, (_, i) => `f${i}`) },
      ],
      ["a field name too long", { query: "*", fields: ["x".repeat(FIELD_NAME_MAX_CHARS + 1)] }],
      ["flatten as a string", { query: "*", flatten: "yes" }],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `search with ${what}`,
      method: "POST",
      path: "/api/v1/search/ipv4",
      body,
      expect: V1_400,
    }),
  ),
  ...V1_QUERY_SYNTAX.map(
    ([what, query]): BadRequest => ({
      what: `search query with ${what}`,
      method: "POST",
      path: "/api/v1/search/ipv4",
      body: { query },
      expect: V1_400,
    }),
  ),
  ...V1_QUERY_SYNTAX.slice(0, 3).map(
    ([what, query]): BadRequest => ({
      what: `report query with ${what}`,
      method: "POST",
      path: "/api/v1/report/websites",
      body: { query, field: "location.country" },
      expect: V1_400,
    }),
  ),
  {
    what: "search of an unknown index",
    method: "POST",
    path: "/api/v1/search/hosts",
    body: { query: "*" },
    expect: V1_404,
  },
  {
    what: "search of an index spelled in upper case",
    method: "POST",
    path: "/api/v1/search/IPV4",
    body: { query: "*" },
    expect: V1_404,
  },
  {
    what: "search of an encoded-slash index",
    method: "POST",
    path: "/api/v1/search/..%2F..%2Fadmin",
    body: { query: "*" },
    expect: V1_400,
  },
  // ---- v1 report ----
  ...(
    [
      ["no field", { query: "*" }],
      ["an empty field", { query: "*", field: "" }],
      ["a numeric field", { query: "*", field: 7 }],
      ["no query", { field: "location.country" }],
      ["buckets 0", { query: "*", field: "location.country", buckets: 0 }],
      ["buckets over 500", { query: "*", field: "location.country", buckets: 501 }],
      ["a billion buckets", { query: "*", field: "location.country", buckets: 1e9 }],
      ["negative buckets", { query: "*", field: "location.country", buckets: -1 }],
      ["string buckets", { query: "*", field: "location.country", buckets: "10" }],
      ["fractional buckets", { query: "*", field: "location.country", buckets: 2.5 }],
      ["a field that does not exist", { query: "*", field: "no.such.field" }],
      ["a SQL injection as the field", { query: "*", field: "ip; drop table hosts" }],
      ["an inherited property name as the field", { query: "*", field: "toString" }],
      ["__proto__ as the field", { query: "*", field: "__proto__" }],
      ["an inherited property name as a query field", { query: "constructor: 1", field: "location.country" }],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `report with ${what}`,
      method: "POST",
      path: "/api/v1/report/ipv4",
      body,
      expect: V1_400,
    }),
  ),
  {
    what: "report of an unknown index",
    method: "POST",
    path: "/api/v1/report/domains",
    body: { query: "*", field: "ip" },
    expect: V1_404,
  },
  // ---- v1 bulk ----
  ...(
    [
      ["no fingerprints", {}],
      ["fingerprints as a string", { fingerprints: hex64(1) }],
      ["an empty list", { fingerprints: [] }],
      ["a number in the list", { fingerprints: [1] }],
      ["null in the list", { fingerprints: [null] }],
      ["51 fingerprints", { fingerprints: Array.from({ length: 51 }, (_, i) => hex64(i + 1)) }],
      // Any shorter string is asked for (one that is not a fingerprint is answered unknown).
      ["a 257-character fingerprint", { fingerprints: [hex64(1), "a".repeat(257)] }],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `bulk with ${what}`,
      method: "POST",
      path: "/api/v1/bulk/certificates",
      body,
      expect: V1_400,
    }),
  ),
  {
    what: "bulk of the ipv4 index",
    method: "POST",
    path: "/api/v1/bulk/ipv4",
    body: { fingerprints: [hex64(1)] },
    expect: V1_404,
  },
  {
    what: "bulk of an unknown index",
    method: "POST",
    path: "/api/v1/bulk/hosts",
    body: { fingerprints: [hex64(1)] },
    expect: V1_404,
  },
  // ---- v1 query and export jobs ----
  { what: "query job with no query", method: "POST", path: "/api/v1/query", body: {}, expect: V1_400 },
  {
    what: "query job with a numeric query",
    method: "POST",
    path: "/api/v1/query",
    body: { query: 1 },
    expect: V1_400,
  },
  {
    what: "query job with a blank query",
    method: "POST",
    path: "/api/v1/query",
    body: { query: "  " },
    expect: V1_400,
  },
  ...FORBIDDEN_SQL.map(
    ([what, sql]): BadRequest => ({
      what: `query job with ${what}`,
      method: "POST",
      path: "/api/v1/query",
      body: (ctx: TableContext) => ({ query: sql(ctx) }),
      expect: V1_400,
    }),
  ),
  ...FORBIDDEN_SQL.slice(0, 6).map(
    ([what, sql]): BadRequest => ({
      what: `export job with ${what}`,
      method: "POST",
      path: "/api/v1/export",
      body: (ctx: TableContext) => ({ query: sql(ctx) }),
      expect: V1_400,
    }),
  ),
  ...(
    [
      ["no query", {}],
      ["format xml", { format: "xml" }],
      ["compress as a string", { compress: "yes" }],
      ["headers as a number", { headers: 1 }],
      ["flatten as a string", { flatten: "no" }],
      ["a two-character delimeter", { delimeter: "ab" }],
      ["a double-quote delimeter", { delimeter: '"' }],
      ["a newline delimeter", { delimeter: "\n" }],
    ] as const
  ).map(
    ([what, extra]): BadRequest => ({
      what: `export job with ${what}`,
      method: "POST",
      path: "/api/v1/export",
      body: (ctx: TableContext) =>
        what === "no query" ? extra : { query: `select ip from "${ctx.table}"`, ...extra },
      expect: V1_400,
    }),
  ),
  // ---- job status, results and files ----
  {
    what: "status of an unknown query job",
    method: "GET",
    path: "/api/v1/query/job_does_not_exist",
    expect: V1_404,
  },
  {
    what: "status of a SQL-injection job id",
    method: "GET",
    path: `/api/v1/query/${enc("x' OR '1'='1")}`,
    expect: V1_404,
  },
  { what: "results page 0", method: "GET", path: (ctx) => `/api/v1/query/${ctx.queryJob}/0`, expect: V1_404 },
  {
    what: "results page -1",
    method: "GET",
    path: (ctx) => `/api/v1/query/${ctx.queryJob}/-1`,
    expect: V1_404,
  },
  {
    what: "a results page that is not a number",
    method: "GET",
    path: (ctx) => `/api/v1/query/${ctx.queryJob}/abc`,
    expect: V1_404,
  },
  {
    what: "a fractional results page",
    method: "GET",
    path: (ctx) => `/api/v1/query/${ctx.queryJob}/1.5`,
    expect: V1_404,
  },
  {
    what: "a results page past 2^64",
    method: "GET",
    path: (ctx) => `/api/v1/query/${ctx.queryJob}/99999999999999999999`,
    expect: V1_404,
  },
  {
    what: "results of an encoded-slash job id",
    method: "GET",
    path: (ctx) => `/api/v1/query/${ctx.queryJob}%2F..%2F..%2Fexport/1`,
    expect: V1_400,
  },
  {
    what: "status of an unknown export job",
    method: "GET",
    path: "/api/v1/export/job_does_not_exist",
    expect: V1_404,
  },
  {
    what: "status of a traversal export id",
    method: "GET",
    path: "/api/v1/export/..%2F..%2Fadmin%2Ftenants",
    expect: V1_400,
  },
  {
    what: "a traversal export file",
    method: "GET",
    path: (ctx) => `/api/v1/export/${ctx.exportJob}/files/..%2F..%2F..%2Fsecret`,
    expect: V1_400,
  },
  {
    what: "export file -1",
    method: "GET",
    path: (ctx) => `/api/v1/export/${ctx.exportJob}/files/-1`,
    expect: V1_404,
  },
  {
    what: "export file 0",
    method: "GET",
    path: (ctx) => `/api/v1/export/${ctx.exportJob}/files/0`,
    expect: V1_404,
  },
  {
    what: "an export file past 2^64",
    method: "GET",
    path: (ctx) => `/api/v1/export/${ctx.exportJob}/files/99999999999999999999`,
    expect: V1_404,
  },
  // ---- query definitions and raw data ----
  { what: "an unknown series", method: "GET", path: "/api/v1/query_definitions/nope", expect: V1_404 },
  { what: "a traversal series", method: "GET", path: "/api/v1/query_definitions/..%2Fipv4", expect: V1_400 },
  {
    what: "a SQL-injection series",
    method: "GET",
    path: `/api/v1/query_definitions/${enc("ipv4' OR 1=1 --")}`,
    expect: V1_404,
  },
  { what: "an unknown raw-data series", method: "GET", path: "/api/v1/data/nope", expect: V1_404 },
  { what: "an invalid-UTF-8 raw-data series", method: "GET", path: "/api/v1/data/%FF%FE", expect: V1_400 },
  { what: "an unknown raw-data result", method: "GET", path: "/api/v1/data/ipv4/nope", expect: V1_404 },
  {
    what: "a traversal raw-data result",
    method: "GET",
    path: "/api/v1/data/ipv4/..%2F..%2F..%2Fadmin",
    expect: V1_400,
  },
  {
    what: "an unknown raw-data file",
    method: "GET",
    path: (ctx) => `/api/v1/data/ipv4/${ctx.rawResult}/files/nope`,
    expect: V1_404,
  },
  {
    what: "a traversal raw-data file",
    method: "GET",
    path: (ctx) => `/api/v1/data/ipv4/${ctx.rawResult}/files/..%2F..%2Fx`,
    expect: V1_400,
  },
  // ---- v1 view: unknown index, invalid ids, traversal, injection, invalid UTF-8 ----
  ...(
    [
      ["an unknown index", "/api/v1/view/hosts/1.1.1.1"],
      ["an invalid IP (octet 999)", "/api/v1/view/ipv4/999.1.1.1"],
      ["an IP with three octets", "/api/v1/view/ipv4/1.1.1"],
      ["an IP with five octets", "/api/v1/view/ipv4/1.1.1.1.1"],
      ["an IP with a leading zero", "/api/v1/view/ipv4/01.1.1.1"],
      ["a non-hex fingerprint", `/api/v1/view/certificates/${"z".repeat(64)}`],
      ["a 63-character fingerprint", `/api/v1/view/certificates/${"a".repeat(63)}`],
      ["a 65-character fingerprint", `/api/v1/view/certificates/${"a".repeat(65)}`],
      ["a domain with a leading hyphen", "/api/v1/view/websites/-bad-.com"],
      ["a domain with an empty label", "/api/v1/view/websites/a..b"],
      ["a SQL tautology id", `/api/v1/view/ipv4/${enc("1.1.1.1' OR '1'='1")}`],
      ["a SQL DROP id", `/api/v1/view/websites/${enc("x'; DROP TABLE websites; --")}`],
      ["a SQL UNION id", `/api/v1/view/certificates/${enc("' UNION SELECT doc FROM certificates --")}`],
    ] as const
  ).map(([what, path]): BadRequest => ({ what: `view with ${what}`, method: "GET", path, expect: V1_404 })),
  // A path whose decoding would move a segment boundary, or that does not decode, has no
  // canonical form: a 400 before any route is found (core http/request-target.ts).
  ...(
    [
      ["an encoded-slash traversal", "/api/v1/view/certificates/..%2F..%2Fadmin"],
      ["an encoded-dot traversal", "/api/v1/view/certificates/%2e%2e%2f%2e%2e%2fadmin"],
      ["an encoded traversal to the account", "/api/v1/view/ipv4/..%2F..%2Fv1%2Faccount"],
      ["an invalid-UTF-8 domain", "/api/v1/view/websites/%FF%FE.com"],
      ["an overlong-UTF-8 slash", "/api/v1/view/certificates/%C0%AF%C0%AF"],
    ] as const
  ).map(([what, path]): BadRequest => ({ what: `view with ${what}`, method: "GET", path, expect: V1_400 })),
  // ---- v2 hosts search: per_page, cursors, search language ----
  ...(
    [
      ["per_page 101", "per_page=101"],
      ["per_page a million", "per_page=1000000"],
      ["per_page -1", "per_page=-1"],
      ["per_page not a number", "per_page=abc"],
      ["a fractional per_page", "per_page=1.5"],
      ["an empty per_page", "per_page="],
      ["per_page as an exponent", "per_page=1e3"],
      ["a garbage cursor", "per_page=1&cursor=not-a-cursor"],
      ["an invalid-UTF-8 cursor", "per_page=1&cursor=%FF%FE"],
      ["a SQL-injection cursor", `per_page=1&cursor=${enc("'; DROP TABLE hosts; --")}`],
    ] as const
  ).map(
    ([what, query]): BadRequest => ({
      what: `host search with ${what}`,
      method: "GET",
      path: `/api/v2/hosts/search?${query}`,
      expect: V2_400,
    }),
  ),
  ...(
    [
      [
        "a cursor with a flipped signature character",
        (c: string) => `per_page=1&cursor=${flipAt(c, signatureStart(c) + 2)}`,
      ],
      ["a cursor with a flipped payload character", (c: string) => `per_page=1&cursor=${flipAt(c, 2)}`],
      [
        "a cursor without its signature",
        (c: string) => `per_page=1&cursor=${c.slice(0, signatureStart(c) - 1)}`,
      ],
      ["a cursor with another q", (c: string) => `per_page=1&q=${enc("services.port: 22")}&cursor=${c}`],
      ["a cursor with another per_page", (c: string) => `per_page=2&cursor=${c}`],
      ["a cursor with the default per_page", (c: string) => `cursor=${c}`],
      [
        "a cursor with a payload copied from another",
        (c: string) => `per_page=1&cursor=${c.slice(0, signatureStart(c))}${c.slice(0, 20)}`,
      ],
    ] as const
  ).map(
    ([what, query]): BadRequest => ({
      what: `host search with ${what}`,
      method: "GET",
      path: (ctx) => `/api/v2/hosts/search?${query(ctx.cursor)}`,
      expect: V2_400,
    }),
  ),
  ...V2_QUERY_SYNTAX.map(
    ([what, q]): BadRequest => ({
      what: `host search q with ${what}`,
      method: "GET",
      path: `/api/v2/hosts/search?q=${enc(q)}`,
      expect: V2_422,
    }),
  ),
  {
    what: "host search q with 10,000 nested parentheses (past SEARCH_QUERY_MAX_CHARS)",
    method: "GET",
    path: `/api/v2/hosts/search?q=${enc(`${"(".repeat(10_000)}x${")".repeat(10_000)}`)}`,
    expect: V2_400,
  },
  {
    what: "host search q with invalid UTF-8",
    method: "GET",
    path: "/api/v2/hosts/search?q=services.port%3A%FF%FE",
    expect: V2_422,
  },
  // ---- v2 hosts aggregate ----
  ...(
    [
      ["no field", "q=*"],
      ["an empty field", "field="],
      ["num_buckets 0", "field=location.country&num_buckets=0"],
      ["num_buckets over the maximum", "field=location.country&num_buckets=1001"],
      ["num_buckets 10^14", "field=location.country&num_buckets=99999999999999"],
      ["negative num_buckets", "field=location.country&num_buckets=-5"],
      ["num_buckets not a number", "field=location.country&num_buckets=abc"],
      ["fractional num_buckets", "field=location.country&num_buckets=2.5"],
    ] as const
  ).map(
    ([what, query]): BadRequest => ({
      what: `aggregate with ${what}`,
      method: "GET",
      path: `/api/v2/hosts/aggregate?${query}`,
      expect: V2_400,
    }),
  ),
  // An unknown field is a query the origin cannot run: the v2 invalid-search 422.
  {
    what: "aggregate of a field that does not exist",
    method: "GET",
    path: "/api/v2/hosts/aggregate?field=no_such_field",
    expect: V2_422,
  },
  {
    what: "aggregate of a SQL injection as the field",
    method: "GET",
    path: `/api/v2/hosts/aggregate?field=${enc("ip) from hosts; drop table hosts; --")}`,
    expect: V2_422,
  },
  ...V2_QUERY_SYNTAX.slice(0, 4).map(
    ([what, q]): BadRequest => ({
      what: `aggregate q with ${what}`,
      method: "GET",
      path: `/api/v2/hosts/aggregate?field=location.country&q=${enc(q)}`,
      expect: V2_422,
    }),
  ),
  // ---- v2 host view ----
  {
    what: "host view of an IP with octet 999",
    method: "GET",
    path: "/api/v2/hosts/999.1.1.1",
    expect: V2_422,
  },
  {
    what: "host view of an IP with three octets",
    method: "GET",
    path: "/api/v2/hosts/1.1.1",
    expect: V2_422,
  },
  {
    what: "host view of a malformed IPv6",
    method: "GET",
    path: "/api/v2/hosts/1:2:3:4:5:6:7:8:9",
    expect: V2_422,
  },
  {
    what: "host view of a word",
    method: "GET",
    path: "/api/v2/hosts/not-an-ip",
    expect: V2_422,
  },
  {
    what: "host view of a SQL tautology",
    method: "GET",
    path: `/api/v2/hosts/${enc("1.1.1.1' OR '1'='1")}`,
    expect: V2_422,
  },
  {
    what: "host view of an encoded traversal",
    method: "GET",
    path: "/api/v2/hosts/..%2F..%2Fv1%2Faccount",
    expect: V2_400,
  },
  {
    what: "host view with an at_time that is a word",
    method: "GET",
    path: "/api/v2/hosts/1.1.1.1?at_time=yesterday",
    expect: V2_422,
  },
  {
    what: "host view with month 13 in at_time",
    method: "GET",
    path: "/api/v2/hosts/1.1.1.1?at_time=2024-13-01T00:00:00Z",
    expect: V2_422,
  },
  {
    what: "host view with an empty at_time",
    method: "GET",
    path: "/api/v2/hosts/1.1.1.1?at_time=",
    expect: V2_422,
  },
  {
    what: "host view with an invalid-UTF-8 at_time",
    method: "GET",
    path: "/api/v2/hosts/1.1.1.1?at_time=%FF%FE",
    expect: V2_422,
  },
  // ---- unknown paths under /api ----
  { what: "an unknown v1 path", method: "GET", path: "/api/v1/nothing/here", expect: V1_404 },
  { what: "an unknown API version", method: "GET", path: "/api/v3/hosts/search", expect: V2_404 },
  {
    what: "an encoded traversal out of /api",
    method: "GET",
    path: "/api/v1/..%2F..%2Fadmin%2Ftenants",
    expect: V1_400,
  },
  // ---- wrong methods: 405 with Allow ----
  ...(
    [
      ["GET", "/api/v1/search/ipv4", V1_405],
      ["PUT", "/api/v1/report/ipv4", V1_405],
      ["GET", "/api/v1/bulk/certificates", V1_405],
      ["DELETE", "/api/v1/view/ipv4/1.1.1.1", V1_405],
      ["POST", "/api/v1/account", V1_405],
      ["GET", "/api/v1/query", V1_405],
      ["DELETE", "/api/v1/query/job_x", V1_405],
      ["POST", "/api/v1/query/job_x/1", V1_405],
      ["POST", "/api/v1/query_definitions", V1_405],
      ["PUT", "/api/v1/query_definitions/ipv4", V1_405],
      ["POST", "/api/v1/data", V1_405],
      ["DELETE", "/api/v1/data/ipv4", V1_405],
      ["GET", "/api/v1/export", V1_405],
      ["PATCH", "/api/v1/export/job_x", V1_405],
      ["POST", "/api/v2/hosts/search", V2_405],
      ["DELETE", "/api/v2/hosts/aggregate", V2_405],
      ["PUT", "/api/v2/hosts/1.1.1.1", V2_405],
    ] as const
  ).map(
    ([method, path, expect]): BadRequest => ({
      what: `${method} on a route without it`,
      method,
      path,
      expect,
    }),
  ),
  // ---- content types the JSON routes cannot read ----
  {
    what: "a form-encoded search",
    method: "POST",
    path: "/api/v1/search/ipv4",
    body: "query=%2A&page=1",
    type: "application/x-www-form-urlencoded",
    expect: V1_400,
  },
  {
    what: "a multipart search",
    method: "POST",
    path: "/api/v1/search/ipv4",
    body: '--b\r\nContent-Disposition: form-data; name="query"\r\n\r\n*\r\n--b--\r\n',
    type: "multipart/form-data; boundary=b",
    expect: V1_400,
  },
  {
    what: "an HTML bulk",
    method: "POST",
    path: "/api/v1/bulk/certificates",
    body: "<html><body>fingerprints</body></html>",
    type: "text/html",
    expect: V1_400,
  },
  {
    what: "an XML query job",
    method: "POST",
    path: "/api/v1/query",
    body: "<query>select 1</query>",
    type: "application/xml",
    expect: V1_400,
  },
  // ---- authentication ----
  ...(
    [
      ["no credentials", () => null],
      ["a wrong secret", (c: Caller) => basic(c.apiId, `${c.secret}x`)],
      ["a secret one character short", (c: Caller) => basic(c.apiId, c.secret.slice(0, -1))],
      ["an unknown API id", (c: Caller) => basic("nobody-at-all", c.secret)],
      ["a Bearer scheme", (c: Caller) => `Bearer ${c.secret}`],
      ["Basic that is not base64", () => "Basic ***"],
      ["Basic without a colon", (c: Caller) => `Basic ${btoa(c.apiId)}`],
      ["a SQL injection as the API id", (c: Caller) => basic("' OR '1'='1", c.secret)],
    ] as const
  ).flatMap(([what, auth]): BadRequest[] => [
    {
      what: `account with ${what}`,
      method: "GET",
      path: "/api/v1/account",
      auth,
      expect: [403, "v1_unauthorized"],
    },
    {
      what: `search with ${what}`,
      method: "POST",
      path: "/api/v1/search/ipv4",
      body: { query: "*" },
      auth,
      expect: [403, "v1_unauthorized"],
    },
    { what: `host search with ${what}`, method: "GET", path: "/api/v2/hosts/search", auth, expect: V2_401 },
  ]),
];

/** The edge's own routes: its admin API (bearer token) and its public documents. */
const ADMIN_ROUTES = [
  ["GET", "/admin/tenants", undefined],
  ["POST", "/admin/tenants", { name: "mallory" }],
  ["GET", "/admin/tenants/:id", undefined],
  ["PATCH", "/admin/tenants/:id", { allowance: 1_000_000_000 }],
  ["DELETE", "/admin/tenants/:id", undefined],
  ["POST", "/admin/tenants/:id/rotate", {}],
  ["DELETE", "/admin/cache/certificates/:fp", undefined],
  ["GET", "/admin/audit", undefined],
  ["GET", "/admin/usage", undefined],
  ["POST", "/admin/tenants/:id/platform-token", { grace_seconds: 0 }],
  ["GET", "/admin/tenants/:id/platform-token", undefined],
  ["DELETE", "/admin/tenants/:id/platform-token", undefined],
  ["DELETE", "/admin/comments/:id", undefined],
] as const;

/**
 * A bearer token presented wrong: absent, someone else's, cut short, extended, without its
 * scheme, empty. `token` is the caller's right one; `other` a well-formed one that is not it.
 */
const bearerRefusals = (token: (c: Caller) => string, other: readonly [what: string, header: string]) =>
  [
    ["no Authorization header", () => null],
    [other[0], () => other[1]],
    ["the token one character short", (c: Caller) => `Bearer ${token(c).slice(0, -1)}`],
    ["the token with a character added", (c: Caller) => `Bearer ${token(c)}x`],
    ["the token without a scheme", (c: Caller) => token(c)],
    ["an empty Bearer", () => "Bearer "],
  ] as const;

/** Every route sent every wrong credential, each answered `expect`. */
const refusedEverywhere = (
  routes: ReadonlyArray<readonly [method: string, path: string, body: unknown]>,
  refusals: ReadonlyArray<readonly [what: string, auth: (c: Caller) => string | null]>,
  expect: Expected,
  pathOf: (path: string) => Dynamic<string> = (path) => path,
): BadRequest[] =>
  routes.flatMap(([method, path, body]) =>
    refusals.map(([what, auth]) => ({
      what: `${method} ${path} with ${what}`,
      method,
      path: pathOf(path),
      body,
      auth,
      expect,
    })),
  );

const ADMIN_REFUSALS = [
  ...bearerRefusals((c) => c.adminToken, ["a wrong token", "Bearer not-the-admin-token-0000000000000000000"]),
  ["the token under the Basic scheme", (c: Caller) => basic("admin", c.adminToken)],
  ["a tenant's own credentials", (c: Caller) => basic(c.apiId, c.secret)],
] as const;

const adminPath = (path: string) => (ctx: TableContext) =>
  path.replace(":id", ctx.tenantId).replace(":fp", "a".repeat(64));

export const EDGE_ROWS: BadRequest[] = [
  ...refusedEverywhere(ADMIN_ROUTES, ADMIN_REFUSALS, V2_401, adminPath),
  {
    what: "an unknown admin path without a token",
    method: "GET",
    path: "/admin/secrets",
    auth: () => null,
    expect: V2_401,
  },
  { what: "an unknown admin path", method: "GET", path: "/admin/secrets", expect: V2_404 },
  // ---- POST /admin/tenants ----
  ...(
    [
      ["no name", {}],
      ["an empty name", { name: "" }],
      ["a 101-character name", { name: "n".repeat(101) }],
      ["a numeric name", { name: 5 }],
      ["allowance 0", { name: "x", allowance: 0 }],
      ["a negative allowance", { name: "x", allowance: -1 }],
      ["a string allowance", { name: "x", allowance: "10" }],
      ["an allowance over the maximum", { name: "x", allowance: 1e10 }],
      ["period weekly", { name: "x", period: "weekly" }],
      ["an upper-case tier", { name: "x", tier: "GOLD" }],
      ["an unknown tier", { name: "x", tier: "gold" }],
      ["a secret of its own", { name: "x", api_secret: "mine" }],
      ["a bad email", { name: "x", email: "not-an-email" }],
      ["a SQL injection as the tier", { name: "x", tier: "standard'; drop table tenants; --" }],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `tenant create with ${what}`,
      method: "POST",
      path: "/admin/tenants",
      body,
      expect: V2_400,
    }),
  ),
  ...MALFORMED_JSON.slice(0, 4).map(
    ([what, body]): BadRequest => ({
      what: `tenant create with a ${what} body`,
      method: "POST",
      path: "/admin/tenants",
      body,
      expect: V2_400,
    }),
  ),
  {
    what: "tenant create with JSON null",
    method: "POST",
    path: "/admin/tenants",
    body: "null",
    expect: V2_400,
  },
  {
    what: "tenant create with invalid UTF-8",
    method: "POST",
    path: "/admin/tenants",
    body: INVALID_UTF8('{"name": "', '"}'),
    expect: V2_400,
  },
  {
    what: "tenant create over MAX_REQUEST_BODY_BYTES",
    method: "POST",
    path: "/admin/tenants",
    body: () => JSON.stringify({ name: "x".repeat(MAX_REQUEST_BODY_BYTES) }),
    expect: [413, "v2"],
  },
  {
    what: "tenant create as text/plain",
    method: "POST",
    path: "/admin/tenants",
    body: '{"name": "x"}',
    type: "text/plain",
    expect: [415, "v2"],
  },
  {
    what: "tenant create as a form",
    method: "POST",
    path: "/admin/tenants",
    body: "name=x",
    type: "application/x-www-form-urlencoded",
    expect: [415, "v2"],
  },
  {
    what: "tenant create without a content type",
    method: "POST",
    path: "/admin/tenants",
    body: '{"name": "x"}',
    type: "",
    expect: [415, "v2"],
  },
  // ---- PATCH, rotate, delete, show ----
  ...(
    [
      ["nothing to change", {}],
      ["allowance 0", { allowance: 0 }],
      ["a negative used", { used: -1 }],
      ["disabled as a string", { disabled: "yes" }],
      ["an unknown period", { period: "yearly" }],
      ["an empty name", { name: "" }],
      ["a secret hash of its own", { secret_hash: "00" }],
      ["an API id of its own", { api_id: "chosen" }],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `tenant update with ${what}`,
      method: "PATCH",
      path: adminPath("/admin/tenants/:id"),
      body,
      expect: V2_400,
    }),
  ),
  {
    what: "tenant update as text/plain",
    method: "PATCH",
    path: adminPath("/admin/tenants/:id"),
    body: '{"allowance": 5}',
    type: "text/plain",
    expect: [415, "v2"],
  },
  {
    what: "tenant update of an unknown tenant",
    method: "PATCH",
    path: "/admin/tenants/tnt_0000",
    body: { allowance: 5 },
    expect: V2_404,
  },
  {
    what: "tenant update of a SQL-injection id",
    method: "PATCH",
    path: `/admin/tenants/${enc("x' OR '1'='1")}`,
    body: { allowance: 5 },
    expect: V2_404,
  },
  {
    what: "rotate with a negative grace",
    method: "POST",
    path: adminPath("/admin/tenants/:id/rotate"),
    body: { grace_seconds: -1 },
    expect: V2_400,
  },
  {
    what: "rotate with a grace over 30 days",
    method: "POST",
    path: adminPath("/admin/tenants/:id/rotate"),
    body: { grace_seconds: 1e12 },
    expect: V2_400,
  },
  {
    what: "rotate with a string grace",
    method: "POST",
    path: adminPath("/admin/tenants/:id/rotate"),
    body: { grace_seconds: "5" },
    expect: V2_400,
  },
  {
    what: "rotate with an unknown field",
    method: "POST",
    path: adminPath("/admin/tenants/:id/rotate"),
    body: { secret: "mine" },
    expect: V2_400,
  },
  {
    what: "rotate of an unknown tenant",
    method: "POST",
    path: "/admin/tenants/tnt_0000/rotate",
    expect: V2_404,
  },
  { what: "delete of an unknown tenant", method: "DELETE", path: "/admin/tenants/tnt_0000", expect: V2_404 },
  {
    what: "delete of a traversal id",
    method: "DELETE",
    path: "/admin/tenants/..%2F..%2Fadmin",
    expect: V2_400,
  },
  {
    what: "delete of a SQL tautology id",
    method: "DELETE",
    path: `/admin/tenants/${enc("' OR '1'='1")}`,
    expect: V2_404,
  },
  { what: "show of an unknown tenant", method: "GET", path: "/admin/tenants/tnt_0000", expect: V2_404 },
  // ---- Platform tokens, comments ----
  ...(
    [
      ["a negative grace", { grace_seconds: -1 }],
      ["a grace over 30 days", { grace_seconds: 1e12 }],
      ["a fractional grace", { grace_seconds: 1.5 }],
      ["a string grace", { grace_seconds: "5" }],
      ["a token of its own", { token: "scg_mine" }],
      ["a JSON array", []],
    ] as const
  ).map(
    ([what, body]): BadRequest => ({
      what: `Platform token issue with ${what}`,
      method: "POST",
      path: adminPath("/admin/tenants/:id/platform-token"),
      body,
      expect: V2_400,
    }),
  ),
  {
    what: "Platform token issue with a body that is not JSON",
    method: "POST",
    path: adminPath("/admin/tenants/:id/platform-token"),
    body: "{grace_seconds: 5",
    expect: V2_400,
  },
  {
    what: "Platform token issue with invalid UTF-8",
    method: "POST",
    path: adminPath("/admin/tenants/:id/platform-token"),
    body: INVALID_UTF8('{"grace_seconds": 0, "x": "', '"}'),
    expect: V2_400,
  },
  ...(["POST", "GET", "DELETE"] as const).map(
    (method): BadRequest => ({
      what: `Platform token ${method} of an unknown tenant`,
      method,
      path: "/admin/tenants/tnt_0000/platform-token",
      ...(method === "POST" ? { body: { grace_seconds: 0 } } : {}),
      expect: V2_404,
    }),
  ),
  {
    what: "delete of an unknown comment",
    method: "DELETE",
    path: "/admin/comments/cmt_0000",
    expect: V2_404,
  },
  {
    what: "delete of a SQL tautology comment id",
    method: "DELETE",
    path: `/admin/comments/${enc("' OR '1'='1")}`,
    expect: V2_404,
  },
  // ---- cache purge, audit, usage ----
  { what: "purge of an unknown index", method: "DELETE", path: "/admin/cache/nope/x", expect: V2_400 },
  {
    what: "purge of a non-hex fingerprint",
    method: "DELETE",
    path: `/admin/cache/certificates/${"z".repeat(64)}`,
    expect: V2_400,
  },
  { what: "purge of an invalid IP", method: "DELETE", path: "/admin/cache/ipv4/999.1.1.1", expect: V2_400 },
  {
    what: "purge of a traversal id",
    method: "DELETE",
    path: "/admin/cache/certificates/..%2F..%2Ftenants",
    expect: V2_400,
  },
  {
    what: "purge of a SQL tautology id",
    method: "DELETE",
    path: `/admin/cache/websites/${enc("' OR 1=1 --")}`,
    expect: V2_400,
  },
  {
    what: "purge of a host that is not an IP",
    method: "DELETE",
    path: `/admin/cache/hosts/${enc("' OR 1=1 --")}`,
    expect: V2_400,
  },
  ...(
    [
      ["/admin/audit?limit=0"],
      ["/admin/audit?limit=abc"],
      ["/admin/audit?limit=1001"],
      ["/admin/usage?since=yesterday"],
      ["/admin/usage?since=2024-13-01T00:00:00Z"],
      ["/admin/usage?limit=0"],
      ["/admin/usage?limit=5001"],
    ] as const
  ).map(([path]): BadRequest => ({ what: `GET ${path}`, method: "GET", path, expect: V2_400 })),
  // ---- wrong methods on the edge's own routes (405 comes before the token check) ----
  ...(
    [
      ["PUT", "/admin/tenants"],
      ["POST", "/admin/tenants/tnt_0000"],
      ["GET", "/admin/tenants/tnt_0000/rotate"],
      ["PUT", "/admin/tenants/tnt_0000/platform-token"],
      ["GET", "/admin/comments/cmt_0000"],
      ["GET", "/admin/cache/certificates/x"],
      ["POST", "/admin/audit"],
      ["DELETE", "/admin/usage"],
      ["POST", "/health"],
      ["PUT", "/openapi.json"],
    ] as const
  ).map(([method, path]): BadRequest => ({ what: `${method} on ${path}`, method, path, expect: V2_405 })),
];

/** Origin-only routes: its export files are named, not numbered; it has no admin API. */
export const ORIGIN_ROWS: BadRequest[] = [
  {
    what: "an unknown export file name",
    method: "GET",
    path: (ctx) => `/api/v1/export/${ctx.exportJob}/files/nope.json`,
    expect: V1_404,
  },
  {
    what: "an export file of an unknown job",
    method: "GET",
    path: "/api/v1/export/job_nope/files/1.json",
    expect: V1_404,
  },
  {
    what: "the admin API, which the origin does not have",
    method: "GET",
    path: "/admin/tenants",
    expect: V2_404,
  },
  { what: "POST on /health", method: "POST", path: "/health", expect: V2_405 },
];

const PROBLEM_401: Expected = [401, "problem"];
const PROBLEM_400: Expected = [400, "problem"];
const PROBLEM_405: Expected = [405, "problem"];

/** Routes of the Platform API at the edge, each with a body its SDK would send. */
const PLATFORM_ROUTES = [
  ["GET", "/v3/global/asset/host/1.1.1.1", undefined],
  ["POST", "/v3/global/asset/host", { host_ids: ["1.1.1.1"] }],
  ["GET", `/v3/global/asset/certificate/${hex64(1)}`, undefined],
  ["POST", "/v3/global/asset/certificate", { certificate_ids: [hex64(1)] }],
  ["POST", "/v3/global/asset/webproperty", { webproperty_ids: ["example.com:443"] }],
  ["POST", "/v3/global/search/query", { query: "host.services.port: 443" }],
  ["GET", "/v3/accounts/organizations/00000000-0000-0000-0000-000000000000/credits", undefined],
] as const;

const PLATFORM_REFUSALS = [
  ...bearerRefusals(
    (c) => c.platformToken,
    ["an unknown token", "Bearer scg_0000000000000000000000000000000000000000000"],
  ),
  ["the tenant's Basic credentials", (c: Caller) => basic(c.apiId, c.secret)],
  ["the admin token", (c: Caller) => `Bearer ${c.adminToken}`],
] as const;

/**
 * The Platform API's own refusals at the edge: its bearer token, its length limits and its
 * methods, all decided before anything is forwarded, charged or stored. Bodies the cache cannot
 * read go to the upstream for its own answer (routes/v3/cached-bulks.ts), so they are not here.
 */
export const PLATFORM_ROWS: BadRequest[] = [
  ...refusedEverywhere(PLATFORM_ROUTES, PLATFORM_REFUSALS, PROBLEM_401),
  {
    what: "a request target over its limit",
    method: "GET",
    path: `/v3/global/asset/host/1.1.1.1?organization_id=${"a".repeat(REQUEST_TARGET_MAX_CHARS)}`,
    expect: PROBLEM_400,
  },
  ...(
    [
      ["PUT", "/v3/global/asset/host/1.1.1.1"],
      ["DELETE", "/v3/global/asset/certificate"],
      ["PATCH", "/v3/global/search/query"],
    ] as const
  ).map(
    ([method, path]): BadRequest => ({ what: `${method} on ${path}`, method, path, expect: PROBLEM_405 }),
  ),
];
