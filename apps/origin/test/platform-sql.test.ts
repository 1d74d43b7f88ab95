import { env } from "cloudflare:workers";
import {
  v3Envelope,
  v3SearchAggregateResponseSchema,
  v3SearchQueryResponseSchema,
  type V3SearchAggregateInput,
  type V3SearchQueryInput,
} from "@scangate/core";
import { describeSqlError, prepareQuery, runPlan, type RowSource, type SourceRow } from "@scangate/sql";
import {
  newPlatformRunStats,
  planPlatformQuery,
  runPlatformPlan,
  type PlatformPlan,
  type PlatformSearch,
} from "@scangate/sql/platform";
import { seriesRow } from "@scangate/sql/series";
import { beforeAll, describe, expect, it } from "vitest";
import { datasetNow } from "./support/dataset-facts";
import { DAY_MS, utcDay } from "../src/dataset/clock";
import { LINT_NAMES } from "../src/dataset/certs/zlint";
import { snapshotCatalog } from "../src/snapshots/catalog";
import type { Json, SnapshotSeries } from "../src/snapshots/definitions";
import { readSnapshotSources } from "../src/snapshots/publish";
import { SNAPSHOT_DEFINITIONS } from "../src/snapshots/series";
import { seedTestDataset } from "./seed-fixture";
import { balanceOf, platformAccount, v3Post } from "./v3-requests";

/**
 * Users' SQL (the dialect tests' public-script cases whose tables and fields the Platform has)
 * planned for a Platform upstream and run against this origin's own /v3 search: the plan is
 * asserted (what is pushed down, how the answer is read, how many calls), and the rows must
 * equal those the origin's engine gives over its snapshot rows of the same documents (the
 * current hosts, certificates and websites the /v3 API serves).
 */

/**
 * The seeded dataset's "now" (the first instant of its seed day, read once it is seeded) and
 * that day as a table suffix: the dataset's latest daily snapshot is of its seed day.
 */
let NOW = 0;
let TODAY = "";
/** The table suffix of the day `days` from the seed day. */
const dayFromToday = (days: number) => utcDay(NOW + days * DAY_MS).replaceAll("-", "");
const MAX_PAGES = 60;

type Row = unknown[];

interface Documents {
  hosts: Json[];
  certificates: Json[];
  websites: Awaited<ReturnType<typeof readSnapshotSources>>["websites"];
}
let documents: Documents;

beforeAll(async () => {
  await seedTestDataset();
  NOW = await datasetNow();
  TODAY = dayFromToday(0);
  const { results: hosts } = await env.DB.prepare("select doc from hosts order by ip_num").all<{
    doc: string;
  }>();
  const sources = await readSnapshotSources(env.DB);
  documents = {
    hosts: hosts.map((row) => JSON.parse(row.doc) as Json),
    certificates: sources.certificates.map((c) => JSON.parse(c.doc) as Json),
    websites: sources.websites,
  };
});

/** The origin's rows of a series, from its own definitions over the current documents. */
function originRows(series: SnapshotSeries): SourceRow[] {
  if (series === "certificates")
    return documents.certificates.map((doc) => seriesRow(SNAPSHOT_DEFINITIONS.certificates, { doc }));
  if (series === "websites")
    return documents.websites.map((site) =>
      seriesRow(SNAPSHOT_DEFINITIONS.websites, { site, doc: JSON.parse(site.doc) as Json }),
    );
  const names = new Map(
    documents.certificates.map((c) => {
      const parsed = c.parsed as Json;
      return [String(parsed.fingerprint_sha256), parsed.names as string[]];
    }),
  );
  return documents.hosts.map((doc) =>
    seriesRow(SNAPSHOT_DEFINITIONS.ipv4, { doc, certificateNames: (sha) => names.get(sha) }),
  );
}

const RUN = { deadline: Number.POSITIVE_INFINITY, timeLimitMs: 60_000, maxRows: 100_000 };

async function originAnswer(sql: string): Promise<Row[]> {
  const prepared = prepareQuery(sql, snapshotCatalog([TODAY]));
  if (!prepared.ok) throw new Error(`the origin refuses ${sql}: ${describeSqlError(prepared.error)}`);
  const source: RowSource = {
    scan: (request) =>
      Promise.resolve({ rows: originRows(request.table.series as SnapshotSeries), next: null }),
  };
  const rows: Row[] = [];
  for await (const batch of runPlan(prepared.value, source, RUN)) rows.push(...batch);
  return rows;
}

/** The Platform's global search: this worker's own /v3 routes. */
const originPlatform: PlatformSearch = {
  async query(input: V3SearchQueryInput) {
    const { res, body } = await v3Post("/v3/global/search/query", input);
    if (res.status !== 200) throw new Error(`search ${input.query}: ${res.status} ${JSON.stringify(body)}`);
    return v3Envelope(v3SearchQueryResponseSchema).parse(body).result;
  },
  async aggregate(input: V3SearchAggregateInput) {
    const { res, body } = await v3Post("/v3/global/search/aggregate", input);
    if (res.status !== 200)
      throw new Error(`aggregate ${input.field}: ${res.status} ${JSON.stringify(body)}`);
    return v3Envelope(v3SearchAggregateResponseSchema).parse(body).result;
  },
};

function plan(sql: string): PlatformPlan {
  const planned = planPlatformQuery(sql, { now: NOW, maxPages: MAX_PAGES, lintNames: LINT_NAMES });
  if (!planned.ok) throw new Error(`refused: ${describeSqlError(planned.error)}\n${sql}`);
  return planned.value;
}

async function platformAnswer(planned: PlatformPlan) {
  const stats = newPlatformRunStats();
  const rows: Row[] = [];
  for await (const batch of runPlatformPlan(planned, originPlatform, RUN, stats)) rows.push(...batch);
  return { rows, stats };
}

const key = (row: Row) => JSON.stringify(row);
const sorted = (rows: Row[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

interface Case {
  name: string;
  sql: string | ((d: Documents) => string);
  kind: "count" | "aggregate" | "rows";
  /** The pushed-down CenQL (null: none). */
  pushed: string | null | ((d: Documents) => string);
  /** Calls the answer makes on this dataset. */
  calls: number;
  ordered?: boolean;
}

const firstCountry = (d: Documents) => String((d.hosts[0]!.location as Json).country);
const firstIp = (d: Documents) => String(d.hosts[0]!.ip);
/** The first certificate name (of every certificate's, in order) that `wanted` accepts. */
function certificateName(d: Documents, wanted: (name: string) => boolean): string {
  const names = d.certificates.flatMap((c) => (c.parsed as Json).names as string[]);
  const name = names.find(wanted);
  if (name === undefined) throw new Error("the seeded dataset has no such certificate name");
  return name;
}
const plainName = (d: Documents) => certificateName(d, (name) => !name.includes("*"));
const wildcardName = (d: Documents) => certificateName(d, (name) => name.startsWith("*."));
const firstDomain = (d: Documents) => d.websites[0]!.domain;
const sshProduct = "OpenSSH";

const CASES: Case[] = [
  { name: "series alone", sql: "SELECT COUNT(*) FROM ipv4", kind: "count", pushed: null, calls: 1 },
  { name: "series.series", sql: "SELECT COUNT(*) FROM ipv4.ipv4", kind: "count", pushed: null, calls: 1 },
  {
    name: "today's table",
    sql: () => `SELECT COUNT(*) FROM [ipv4.${TODAY}]`,
    kind: "count",
    pushed: null,
    calls: 1,
  },
  {
    name: "certificates.certificates",
    sql: "SELECT COUNT(*) FROM certificates.certificates",
    kind: "count",
    pushed: null,
    calls: 1,
  },
  {
    name: "double-quoted string literal",
    sql: (d) => `SELECT ip FROM ipv4 WHERE location.country = "${firstCountry(d)}"`,
    kind: "rows",
    pushed: (d) => `host.location.country = "${firstCountry(d)}"`,
    calls: 1,
  },
  {
    name: "nested fields in SELECT and WHERE",
    sql: (d) => `SELECT ip, location.country, autonomous_system.asn FROM ipv4 WHERE ip = '${firstIp(d)}'`,
    kind: "rows",
    pushed: (d) => `host.ip: ${firstIp(d)}`,
    calls: 1,
  },
  {
    name: "GROUP BY a nested field",
    sql: "SELECT location.country, COUNT(ip) FROM ipv4 GROUP BY 1",
    kind: "aggregate",
    pushed: null,
    calls: 1,
  },
  {
    name: "aliases in GROUP BY and ORDER BY",
    sql: "SELECT location.country_code AS cc, COUNT(*) AS n FROM ipv4 GROUP BY cc ORDER BY n DESC, cc LIMIT 3",
    kind: "aggregate",
    pushed: null,
    calls: 1,
    ordered: true,
  },
  {
    name: "HAVING",
    sql: "SELECT location.country, COUNT(*) AS n FROM ipv4 GROUP BY location.country HAVING n > 5",
    kind: "aggregate",
    pushed: null,
    calls: 1,
  },
  {
    name: "a condition on a repeated field",
    sql: "SELECT ip FROM ipv4 WHERE services.port = 22",
    kind: "rows",
    pushed: "host.services: (port: 22)",
    calls: 1,
  },
  {
    name: "conditions on one repeated record bind to the same element",
    sql: "SELECT ip FROM ipv4 WHERE services.port = 80 AND services.service_name = 'HTTP'",
    kind: "rows",
    pushed: 'host.services: (port: 80 and protocol = "HTTP")',
    calls: 1,
  },
  {
    name: "grouping by a repeated field counts its elements",
    sql: "SELECT services.port, COUNT(*) FROM ipv4 GROUP BY services.port",
    kind: "aggregate",
    pushed: null,
    calls: 2,
  },
  {
    name: "selecting a repeated field flattens, filtered by WHERE",
    sql: "SELECT ip, services.port FROM ipv4 WHERE services.service_name = 'SSH'",
    kind: "rows",
    pushed: 'host.services: (protocol = "SSH")',
    calls: 1,
  },
  {
    name: "standard SQL UNNEST with COUNT(DISTINCT)",
    sql: () => `SELECT COUNT(DISTINCT ip) FROM \`ipv4.${TODAY}\`, UNNEST(services) AS s WHERE s.port = 443`,
    kind: "rows",
    pushed: "host.services: (port: 443)",
    calls: 1,
  },
  {
    name: "a top-level repeated string field",
    sql: "SELECT ip FROM ipv4 WHERE protocols = '22/ssh'",
    kind: "rows",
    pushed: 'host.services: (port: 22 and protocol: "ssh")',
    calls: 1,
  },
  {
    name: "a repeated field inside a repeated record",
    sql: `SELECT COUNT(*) FROM ipv4 WHERE services.software.product = '${sshProduct}'`,
    kind: "count",
    pushed: `host.services: (software.product = "${sshProduct}")`,
    calls: 1,
  },
  {
    name: "CONTAINS on a banner",
    sql: "SELECT ip FROM ipv4 WHERE services.banner CONTAINS 'SSH-2.0'",
    kind: "rows",
    pushed: 'host.services: (banner =~ "SSH-2\\\\.0")',
    calls: 1,
  },
  {
    name: "REGEXP_CONTAINS",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE REGEXP_CONTAINS(autonomous_system.name, r'^[A-Z]')",
    kind: "count",
    pushed: 'host.autonomous_system.name =~ "^[A-Z]"',
    calls: 1,
  },
  {
    name: "IS NULL on a repeated record's field",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE services.tls.version_selected IS NULL",
    kind: "count",
    pushed: "host.services: (not tls.version_selected: *) or not host.services: *",
    calls: 1,
  },
  {
    name: "NOT (x IS NULL)",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE NOT (location.city IS NULL)",
    kind: "count",
    pushed: "host.location.city: *",
    calls: 1,
  },
  {
    name: "IN list",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE services.port IN (21, 22, 23)",
    kind: "count",
    pushed: "host.services: (port: 21 or port: 22 or port: 23)",
    calls: 1,
  },
  {
    name: "BETWEEN",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE autonomous_system.asn BETWEEN 1000 AND 20000",
    kind: "count",
    pushed: "host.autonomous_system.asn >= 1000 and host.autonomous_system.asn <= 20000",
    calls: 1,
  },
  {
    name: "LIKE an address prefix",
    sql: (d) => `SELECT ip FROM ipv4 WHERE ip LIKE '${firstIp(d).split(".")[0]}.%'`,
    kind: "rows",
    pushed: (d) => `host.ip: ${firstIp(d).split(".")[0]}.0.0.0/8`,
    calls: 1,
  },
  {
    name: "NOT LIKE with _ (pushed wider, counted over the rows)",
    sql: "SELECT COUNT(*) FROM ipv4 WHERE location.country_code NOT LIKE 'U_'",
    kind: "rows",
    pushed: 'not host.location.country_code =~ "^U.$"',
    calls: 1,
  },
  {
    name: "certificates grouped by a repeated subject field",
    sql: "SELECT parsed.subject.country, COUNT(*) FROM certificates.certificates WHERE parsed.subject.country IS NOT NULL GROUP BY parsed.subject.country",
    kind: "aggregate",
    pushed: "cert.parsed.subject.country: *",
    calls: 1,
  },
  {
    name: "a certificate by one of its names",
    sql: (d) => `SELECT parsed.fingerprint_sha256 FROM certificates WHERE parsed.names = '${plainName(d)}'`,
    kind: "rows",
    pushed: (d) => `cert.names = "${plainName(d)}"`,
    calls: 1,
  },
  {
    // A star in a CenQL value is a wildcard: the name's own star is escaped to match only itself.
    name: "a certificate by a wildcard name",
    sql: (d) =>
      `SELECT parsed.fingerprint_sha256 FROM certificates WHERE parsed.names = '${wildcardName(d)}'`,
    kind: "rows",
    pushed: (d) => `cert.names = "\\${wildcardName(d)}"`,
    calls: 1,
  },
  {
    name: "a boolean field compared with true",
    sql: "SELECT COUNT(*) FROM certificates WHERE validation.nss.valid = true",
    kind: "count",
    pushed: "cert.validation.nss.is_valid: true",
    calls: 1,
  },
  {
    name: "certificates expiring before a date",
    sql: "SELECT COUNT(*) FROM certificates WHERE parsed.validity.end < '2026-11-01'",
    kind: "count",
    pushed: 'cert.parsed.validity_period.not_after < "2026-11-01T00:00:00.000Z"',
    calls: 1,
  },
  {
    name: "websites by domain",
    sql: (d) => `SELECT domain, ip, protocols FROM websites WHERE domain = '${firstDomain(d)}'`,
    kind: "rows",
    pushed: (d) => `web.hostname = "${firstDomain(d)}"`,
    calls: 1,
  },
  {
    name: "public: Python client's query test",
    sql: () => `select ip, last_updated_at from ipv4.${TODAY} limit 5300`,
    kind: "rows",
    pushed: null,
    calls: 2,
  },
  {
    name: "public: R package's cipher suite count",
    sql: "SELECT services.tls.cipher_selected, count(ip) FROM ipv4 WHERE services.tls.version_selected = 'TLSv1_2' GROUP BY services.tls.cipher_selected;",
    kind: "aggregate",
    pushed: 'host.services: (tls.version_selected: "tlsv1_2")',
    calls: 3,
  },
  {
    name: "public: telnet banners containing a word",
    sql: () => `SELECT ip FROM [ipv4.${TODAY}] WHERE services.port = 23 AND services.banner CONTAINS 'login'`,
    kind: "rows",
    pushed: 'host.services: (port: 23 and banner =~ "login")',
    calls: 1,
  },
  {
    name: "public: certificate issuers by organisation",
    sql: "SELECT parsed.issuer.organization, COUNT(*) AS n FROM certificates.certificates WHERE parsed.issuer.organization IS NOT NULL GROUP EACH BY parsed.issuer.organization",
    kind: "aggregate",
    pushed: "cert.parsed.issuer.organization: *",
    calls: 1,
  },
  {
    name: "public: HTTP titles of one port, standard SQL",
    sql: () =>
      `#standardSQL\nSELECT ip, s.http.response.html_title FROM \`ipv4.${TODAY}\`, UNNEST(services) AS s WHERE s.port = 80 AND s.http.response.html_title IS NOT NULL`,
    kind: "rows",
    pushed: "host.services: (port: 80 and endpoints.http.html_title: *)",
    calls: 1,
  },
  {
    name: "public: leaf certificate names served on 443",
    sql: "SELECT COUNT(DISTINCT ip) FROM ipv4 WHERE services.port = 443 AND NOT (services.tls.certificate.fingerprint_sha256 IS NULL)",
    kind: "rows",
    pushed: "host.services: (port: 443 and cert.fingerprint_sha256: *)",
    calls: 1,
  },
  {
    name: "public: software versions of SSH servers",
    sql: "SELECT services.software.product, COUNT(*) FROM ipv4 WHERE services.service_name = 'SSH' GROUP BY 1",
    kind: "rows",
    pushed: 'host.services: (protocol = "SSH")',
    calls: 1,
  },
];

describe("users' SQL planned for a Platform upstream and run against the origin's /v3", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const sql = typeof c.sql === "function" ? c.sql(documents) : c.sql;
    const planned = plan(sql);
    expect(planned.answer.kind).toBe(c.kind);
    expect(planned.pushed).toBe(typeof c.pushed === "function" ? c.pushed(documents) : c.pushed);
    const expected = await originAnswer(sql);
    expect(expected.some((row) => row.some((v) => v !== 0 && v !== null))).toBe(true);
    const { rows, stats } = await platformAnswer(planned);
    expect(stats.calls.length).toBe(c.calls);
    expect(stats.calls.length).toBeLessThanOrEqual(planned.maxCalls);
    if (c.ordered) expect(rows).toEqual(expected);
    else expect(sorted(rows)).toEqual(sorted(expected));
  });

  it("reads no more pages than a LIMIT needs, in the Platform's order", async () => {
    const planned = plan("SELECT ip, location.country FROM ipv4 LIMIT 150");
    expect(planned.answer).toEqual({ kind: "rows", maxPages: 2, bound: "limit" });
    const { rows, stats } = await platformAnswer(planned);
    expect(rows).toHaveLength(150);
    expect(stats.pages).toBe(2);
    const all = new Set((await originAnswer("SELECT ip, location.country FROM ipv4")).map(key));
    for (const row of rows) expect(all.has(key(row))).toBe(true);
  });

  it("charges the organization one credit per call it makes", async () => {
    const organization = platformAccount().organization_id;
    const before = await balanceOf(organization);
    const { stats } = await platformAnswer(
      plan("SELECT services.port, COUNT(*) FROM ipv4 WHERE location.country_code = 'DE' GROUP BY 1"),
    );
    expect(stats.calls).toEqual(["v3_search_aggregate", "v3_search_query"]);
    expect(before! - (await balanceOf(organization))!).toBe(stats.calls.length);
  });
});

describe("what a Platform upstream cannot answer is refused before any call, saying why", () => {
  /** The day-relative cases read the seed day once the dataset is seeded. */
  type Refused = [string, string | (() => string), RegExp | (() => RegExp)];
  const REFUSED: Refused[] = [
    [
      "a daily table older than today",
      () => `SELECT COUNT(*) FROM ipv4.${dayFromToday(-30)}`,
      () =>
        new RegExp(
          `Table ipv4\\.${dayFromToday(-30)} is a daily snapshot of ${dayFromToday(-30)}; the Platform keeps no daily snapshots, only the latest data: query ipv4 \\(or ipv4\\.${TODAY}\\) at \\[1:22\\]`,
        ),
    ],
    [
      "a table of a later day",
      () => `SELECT COUNT(*) FROM ipv4.${dayFromToday(3)}`,
      () => new RegExp(`Not found: Table ipv4\\.${dayFromToday(3)}`),
    ],
    [
      "a field the Platform has no counterpart for",
      "SELECT ip, services.source_ip FROM ipv4 LIMIT 5",
      /Unrecognized name: services\.source_ip/,
    ],
    [
      "counting websites, whose search counts web properties",
      "SELECT COUNT(*) FROM websites",
      /would read the whole websites series from the Platform/,
    ],
    [
      "public: countries of nginx servers (headers are not searchable)",
      "SELECT location.country, COUNT(ip) AS count FROM ipv4 WHERE services.http.response.headers.server CONTAINS 'nginx' GROUP BY location.country ORDER BY count DESC LIMIT 10",
      /no condition of its WHERE is one the Platform can search/,
    ],
    [
      "an ORDER BY that needs every row",
      "SELECT ip, autonomous_system.asn FROM ipv4 ORDER BY autonomous_system.asn DESC LIMIT 5",
      /no LIMIT bounds the rows it reads/,
    ],
    [
      "a LIMIT past the job's pages",
      "SELECT ip FROM ipv4 LIMIT 100000",
      /add a LIMIT of at most 6000 rows \(60 pages\)/,
    ],
    [
      "a subquery over the same table",
      "SELECT COUNT(*) FROM ipv4 WHERE ip IN (SELECT ip FROM ipv4 WHERE services.port = 22)",
      /reads its tables in more than one place/,
    ],
  ];

  it.each(REFUSED)("%s", (_name, query, pattern) => {
    const sql = typeof query === "function" ? query() : query;
    const message = typeof pattern === "function" ? pattern() : pattern;
    const planned = planPlatformQuery(sql, { now: NOW, maxPages: MAX_PAGES, lintNames: LINT_NAMES });
    expect(planned.ok).toBe(false);
    if (!planned.ok) expect(describeSqlError(planned.error)).toMatch(message);
  });

  it("ends a query that needs more pages than its maximum, saying how many rows it read", async () => {
    const planned = planPlatformQuery("SELECT ip FROM ipv4 WHERE location.country_code LIKE '%'", {
      now: NOW,
      maxPages: 1,
    });
    if (!planned.ok) throw new Error(describeSqlError(planned.error));
    expect(planned.value.pushed).toBe('host.location.country_code =~ "^.*$"');
    const stats = newPlatformRunStats();
    const run = async () => {
      for await (const batch of runPlatformPlan(planned.value, originPlatform, RUN, stats)) void batch;
    };
    await expect(run()).rejects.toThrow(
      /needs more pages of Platform search results than its maximum of 1 \(100 documents\); it read 100 rows/,
    );
    expect(stats.calls).toEqual(["v3_search_query"]);
  });
});
