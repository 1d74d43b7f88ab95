import { env } from "cloudflare:workers";
import { describeSqlError } from "@scangate/sql";
import { beforeAll, describe, expect, it } from "vitest";
import { planJobSql, runJobSql } from "../src/jobs/job-sql";
import { endOfDay } from "../src/snapshots/build";
import { valueAt } from "../src/snapshots/definitions";
import { readSnapshotSources } from "../src/snapshots/publish";
import { publishedDays, seedDatasetAndSnapshots } from "./snapshots-fixture";

/**
 * The SQL dialect of query and export jobs, case by case, run against the snapshot database
 * (SNAPSHOTS, as the seed publishes it) through the same planner and runner the jobs use.
 * Every expected result is computed here from the source documents the snapshots were built
 * from (the "oracle"), never written down by hand, so the table checks the engine and the
 * snapshot storage together against what the documents say.
 *
 * The "public scripts" cases are SQL of the kind Censys users published (client test suites,
 * the R and Go packages' examples, blog posts), with only dates and field names adapted to
 * this dataset's series.
 */

type Json = Record<string, unknown>;
type Row = unknown[];

interface Data {
  /** The newest and the oldest published day. */
  day: string;
  firstDay: string;
  hosts: Json[];
  firstDayHosts: Json[];
  certificates: Json[];
  websites: Json[];
}

let data: Data;

beforeAll(async () => {
  await seedDatasetAndSnapshots(3);
  const days = await publishedDays();
  const day = days.at(-1)!;
  const firstDay = days[0]!;
  const sources = await readSnapshotSources(env.DB);
  const hostsAt = (d: string) => {
    const at = endOfDay(d);
    return sources.hostHistory
      .filter((row) => row.validFrom <= at && (row.validTo === null || row.validTo > at))
      .map((row) => JSON.parse(row.doc) as Json);
  };
  const at = endOfDay(day);
  data = {
    day,
    firstDay,
    hosts: hostsAt(day),
    firstDayHosts: hostsAt(firstDay),
    certificates: sources.certificates.filter((c) => c.addedAt <= at).map((c) => JSON.parse(c.doc) as Json),
    websites: sources.websites.map((w) => ({ ...w })),
  };
});

// ---- running -----------------------------------------------------------------------------------

async function run(sql: string): Promise<{ rows: Row[]; columns: string[] }> {
  const planned = await planJobSql(env.SNAPSHOTS, sql);
  if (!planned.ok) throw new Error(`refused: ${describeSqlError(planned.error)}\n${sql}`);
  const rows: Row[] = [];
  for await (const batch of runJobSql(env.SNAPSHOTS, planned.value, {
    maxRows: 100_000,
    timeLimitMs: 30_000,
  })) {
    rows.push(...batch);
  }
  return { rows, columns: planned.value.columns.map((c) => c.name) };
}

async function refusal(sql: string): Promise<string> {
  const planned = await planJobSql(env.SNAPSHOTS, sql);
  if (planned.ok) throw new Error(`expected a refusal: ${sql}`);
  return describeSqlError(planned.error);
}

const key = (row: Row) => JSON.stringify(row);
const sorted = (rows: Row[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

// ---- the oracle --------------------------------------------------------------------------------

const at = (doc: unknown, path: string): unknown => valueAt(doc, path) ?? null;
const services = (host: Json): Json[] => (Array.isArray(host.services) ? (host.services as Json[]) : []);
const count = <T>(items: T[], keyOf: (item: T) => unknown): Map<unknown, number> => {
  const counts = new Map<unknown, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
};
const pairs = (counts: Map<unknown, number>): Row[] => [...counts].map(([k, n]) => [k, n]);
const distinct = <T>(items: T[]) => [...new Set(items)];
/** The day before a `YYYYMMDD` day, as `YYYY-MM-DD`. */
const dayBefore = (day: string): string =>
  new Date(Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`) - 86_400_000)
    .toISOString()
    .slice(0, 10);
const serverHeader = (service: Json): string | null => {
  const headers = at(service, "http.response.headers");
  if (typeof headers !== "object" || headers === null) return null;
  for (const [name, values] of Object.entries(headers)) {
    if (name.toLowerCase() === "server") {
      const list = (Array.isArray(values) ? values : [values]).filter((v) => typeof v === "string");
      return list.length > 0 ? list.join(", ") : null;
    }
  }
  return null;
};
const products = (service: Json): string[] =>
  (Array.isArray(service.software) ? (service.software as Json[]) : [])
    .map((s) => s.product)
    .filter((p): p is string => typeof p === "string");
/** A value the data really has, so a case never passes vacuously on an empty result. */
function some<T>(values: T[], what: string): T {
  const found = values.find((v) => v !== null && v !== undefined && v !== "");
  if (found === undefined) throw new Error(`the test dataset has no ${what}`);
  return found;
}
function v1Protocol(service: Json): string {
  const name =
    service.extended_service_name === "HTTPS"
      ? "https"
      : typeof service._decoded === "string"
        ? service._decoded
        : String(service.service_name).toLowerCase();
  return `${String(service.port)}/${name}`;
}
/** A document value as text: strings as they are, missing as `fallback`, anything else as JSON. */
const text = (value: unknown, fallback = ""): string =>
  typeof value === "string"
    ? value
    : value === null || value === undefined
      ? fallback
      : JSON.stringify(value);
const iso = (value: unknown) => (value === null ? null : new Date(text(value)).toISOString());

interface Case {
  name: string;
  sql: (d: Data) => string;
  expect: (d: Data) => Row[];
  /** Rows compared in order (the query has ORDER BY); otherwise as a multiset. */
  ordered?: boolean;
}

const hostsWhere = (d: Data, test: (h: Json) => boolean) => d.hosts.filter(test);
const anyService = (test: (s: Json) => boolean) => (h: Json) => services(h).some(test);

const CASES: Case[] = [
  // ---- table names, in every form users wrote them ----
  {
    name: "unquoted daily table",
    sql: (d) => `SELECT COUNT(*) FROM ipv4.${d.day}`,
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "legacy [bracketed] table",
    sql: (d) => `SELECT COUNT(*) FROM [ipv4.${d.day}]`,
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "backticked table",
    sql: (d) => `SELECT COUNT(*) FROM \`ipv4.${d.day}\``,
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "double-quoted table",
    sql: (d) => `SELECT COUNT(*) FROM "ipv4.${d.day}"`,
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "series alone is its latest day",
    sql: () => "SELECT COUNT(*) FROM ipv4",
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "series.series is its latest day",
    sql: () => "SELECT COUNT(*) FROM ipv4.ipv4",
    expect: (d) => [[d.hosts.length]],
  },
  {
    name: "an older day holds that day's hosts",
    sql: (d) => `SELECT COUNT(*) FROM ipv4.${d.firstDay}`,
    expect: (d) => [[d.firstDayHosts.length]],
  },
  {
    name: "certificates.certificates",
    sql: () => "SELECT COUNT(*) FROM certificates.certificates",
    expect: (d) => [[d.certificates.length]],
  },
  {
    name: "websites series",
    sql: () => "SELECT COUNT(*) FROM websites",
    expect: (d) => [[d.websites.length]],
  },

  // ---- syntax users write ----
  {
    name: "trailing semicolon and -- comment",
    sql: (d) => `SELECT ip FROM ipv4.${d.day} -- every host\n;`,
    expect: (d) => d.hosts.map((h) => [h.ip]),
  },
  {
    name: "# and /* */ comments",
    sql: (d) => `#legacySQL\nSELECT /* just the address */ ip FROM ipv4.${d.day} # the end`,
    expect: (d) => d.hosts.map((h) => [h.ip]),
  },
  {
    name: "double-quoted string literal",
    sql: (d) =>
      `SELECT ip FROM ipv4 WHERE location.country = "${String(
        some(
          d.hosts.map((h) => at(h, "location.country")),
          "country",
        ),
      )}"`,
    expect: (d) => {
      const country = some(
        d.hosts.map((h) => at(h, "location.country")),
        "country",
      );
      return hostsWhere(d, (h) => at(h, "location.country") === country).map((h) => [h.ip]);
    },
  },
  {
    name: "raw string regular expression",
    sql: () => String.raw`SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, r'\.1\d$')`,
    expect: (d) => hostsWhere(d, (h) => /\.1\d$/.test(String(h.ip))).map((h) => [h.ip]),
  },
  {
    name: "lower-case keywords",
    sql: () => "select count(ip) from ipv4 where services_count >= 2",
    expect: (d) => [[hostsWhere(d, (h) => services(h).length >= 2).length]],
  },
  {
    name: "WITH clause",
    sql: () =>
      "WITH busy AS (SELECT ip, services_count FROM ipv4 WHERE services_count > 1) SELECT COUNT(*) FROM busy",
    expect: (d) => [[hostsWhere(d, (h) => services(h).length > 1).length]],
  },
  {
    name: "subquery in FROM",
    sql: () => "SELECT n, COUNT(*) FROM (SELECT ip, services_count AS n FROM ipv4) GROUP BY n",
    expect: (d) => pairs(count(d.hosts, (h) => services(h).length)),
  },
  {
    name: "UNION ALL",
    sql: (d) =>
      `SELECT ip FROM ipv4.${d.day} WHERE services_count = 1 UNION ALL SELECT ip FROM ipv4.${d.day} WHERE services_count = 2`,
    expect: (d) => hostsWhere(d, (h) => [1, 2].includes(services(h).length)).map((h) => [h.ip]),
  },

  // ---- nested fields as dotted paths ----
  {
    name: "nested fields in SELECT and WHERE",
    sql: (d) =>
      `SELECT ip, location.country, autonomous_system.asn FROM ipv4 WHERE ip = '${String(d.hosts[0]!.ip)}'`,
    expect: (d) => [
      [d.hosts[0]!.ip, at(d.hosts[0], "location.country"), at(d.hosts[0], "autonomous_system.asn")],
    ],
  },
  {
    name: "GROUP BY a nested field",
    sql: () => "SELECT location.country, COUNT(*) FROM ipv4 GROUP BY location.country",
    expect: (d) => pairs(count(d.hosts, (h) => at(h, "location.country"))),
  },
  {
    name: "ORDER BY a nested field DESC with LIMIT",
    sql: () => "SELECT ip, autonomous_system.asn FROM ipv4 ORDER BY autonomous_system.asn DESC, ip LIMIT 5",
    expect: (d) =>
      [...d.hosts]
        .sort(
          (a, b) =>
            Number(at(b, "autonomous_system.asn")) - Number(at(a, "autonomous_system.asn")) ||
            (String(a.ip) < String(b.ip) ? -1 : 1),
        )
        .slice(0, 5)
        .map((h) => [h.ip, at(h, "autonomous_system.asn")]),
    ordered: true,
  },
  {
    name: "aliases in GROUP BY and ORDER BY",
    sql: () =>
      "SELECT location.country_code AS cc, COUNT(*) AS n FROM ipv4 GROUP BY cc ORDER BY n DESC, cc LIMIT 3",
    expect: (d) =>
      pairs(count(d.hosts, (h) => at(h, "location.country_code")))
        .sort((a, b) => Number(b[1]) - Number(a[1]) || (String(a[0]) < String(b[0]) ? -1 : 1))
        .slice(0, 3),
    ordered: true,
  },
  {
    name: "GROUP BY ordinals",
    sql: () => "SELECT autonomous_system.asn, autonomous_system.name, COUNT(*) FROM ipv4 GROUP BY 1, 2",
    expect: (d) =>
      [
        ...count(d.hosts, (h) =>
          JSON.stringify([at(h, "autonomous_system.asn"), at(h, "autonomous_system.name")]),
        ),
      ].map(([k, n]) => [...(JSON.parse(String(k)) as unknown[]), n]),
  },
  {
    name: "HAVING",
    sql: () => "SELECT location.country, COUNT(*) AS n FROM ipv4 GROUP BY location.country HAVING n > 5",
    expect: (d) => pairs(count(d.hosts, (h) => at(h, "location.country"))).filter((r) => Number(r[1]) > 5),
  },

  // ---- repeated fields keep BigQuery's meaning ----
  {
    name: "a condition on a repeated field matches a host once",
    sql: () => "SELECT ip FROM ipv4 WHERE services.port = 22",
    expect: (d) =>
      hostsWhere(
        d,
        anyService((s) => s.port === 22),
      ).map((h) => [h.ip]),
  },
  {
    name: "conditions on one repeated record bind to the same element",
    sql: () => "SELECT ip FROM ipv4 WHERE services.port = 80 AND services.service_name = 'HTTP'",
    expect: (d) =>
      hostsWhere(
        d,
        anyService((s) => s.port === 80 && s.service_name === "HTTP"),
      ).map((h) => [h.ip]),
  },
  {
    name: "grouping by a repeated field counts its elements",
    sql: () => "SELECT services.port, COUNT(*) FROM ipv4 GROUP BY services.port",
    expect: (d) => pairs(count(d.hosts.flatMap(services), (s) => s.port)),
  },
  {
    name: "selecting a repeated field flattens to one row per element, filtered by WHERE",
    sql: () => "SELECT ip, services.port FROM ipv4 WHERE services.service_name = 'SSH'",
    expect: (d) =>
      d.hosts.flatMap((h) =>
        services(h)
          .filter((s) => s.service_name === "SSH")
          .map((s) => [h.ip, s.port]),
      ),
  },
  {
    name: "standard SQL UNNEST with COUNT(DISTINCT)",
    sql: (d) => `SELECT COUNT(DISTINCT ip) FROM \`ipv4.${d.day}\`, UNNEST(services) AS s WHERE s.port = 443`,
    expect: (d) => [
      [
        hostsWhere(
          d,
          anyService((s) => s.port === 443),
        ).length,
      ],
    ],
  },
  {
    name: "UNNEST grouped by an element field",
    sql: () => "SELECT s.service_name, COUNT(*) FROM ipv4, UNNEST(services) s GROUP BY 1",
    expect: (d) => pairs(count(d.hosts.flatMap(services), (s) => s.service_name)),
  },
  {
    name: "legacy FLATTEN",
    sql: (d) => `SELECT ip, services.port FROM FLATTEN([ipv4.${d.day}], services) WHERE services.port = 80`,
    expect: (d) =>
      d.hosts.flatMap((h) =>
        services(h)
          .filter((s) => s.port === 80)
          .map((s) => [h.ip, s.port]),
      ),
  },
  {
    name: "a top-level repeated string field",
    sql: () => "SELECT ip FROM ipv4 WHERE protocols = '22/ssh'",
    expect: (d) => hostsWhere(d, (h) => services(h).map(v1Protocol).includes("22/ssh")).map((h) => [h.ip]),
  },
  {
    name: "a repeated field inside a repeated record",
    sql: (d) =>
      `SELECT COUNT(*) FROM ipv4 WHERE services.software.product = '${some(d.hosts.flatMap(services).flatMap(products), "software product")}'`,
    expect: (d) => {
      const product = some(d.hosts.flatMap(services).flatMap(products), "software product");
      return [
        [
          hostsWhere(
            d,
            anyService((s) => products(s).includes(product)),
          ).length,
        ],
      ];
    },
  },
  {
    name: "ARRAY_LENGTH of a repeated field",
    sql: () => "SELECT ip, ARRAY_LENGTH(protocols) FROM ipv4",
    expect: (d) => d.hosts.map((h) => [h.ip, services(h).length]),
  },

  // ---- functions and operators ----
  {
    name: "CONTAINS on a banner",
    sql: () => "SELECT ip FROM ipv4 WHERE services.banner CONTAINS 'SSH-2.0'",
    expect: (d) =>
      hostsWhere(
        d,
        anyService((s) => text(s.banner).includes("SSH-2.0")),
      ).map((h) => [h.ip]),
  },
  {
    name: "REGEXP_MATCH with a case-insensitive flag",
    sql: () =>
      "SELECT ip FROM ipv4 WHERE REGEXP_MATCH(services.http.response.html_title, r'(?i)welcome|login')",
    expect: (d) =>
      hostsWhere(
        d,
        anyService((s) => /welcome|login/i.test(text(at(s, "http.response.html_title"), "\u0000"))),
      ).map((h) => [h.ip]),
  },
  {
    name: "REGEXP_CONTAINS",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE REGEXP_CONTAINS(autonomous_system.name, r'^[A-Z]')",
    expect: (d) => [[hostsWhere(d, (h) => /^[A-Z]/.test(text(at(h, "autonomous_system.name")))).length]],
  },
  {
    name: "REGEXP_EXTRACT grouped",
    sql: () =>
      String.raw`SELECT REGEXP_EXTRACT(services.banner, r'^SSH-2\.0-([A-Za-z]+)') AS software, COUNT(*) FROM ipv4 WHERE services.service_name = 'SSH' GROUP BY software`,
    expect: (d) =>
      pairs(
        count(
          d.hosts.flatMap(services).filter((s) => s.service_name === "SSH"),
          (s) => /^SSH-2\.0-([A-Za-z]+)/.exec(text(s.banner))?.[1] ?? null,
        ),
      ),
  },
  {
    name: "REGEXP_REPLACE",
    sql: (d) =>
      String.raw`SELECT REGEXP_REPLACE(ip, r'\.\d+$', '.0') FROM ipv4 WHERE ip = '${String(d.hosts[1]!.ip)}'`,
    expect: (d) => [[String(d.hosts[1]!.ip).replace(/\.\d+$/, ".0")]],
  },
  {
    name: "COUNT(ip) and COUNT(DISTINCT ...)",
    sql: () => "SELECT COUNT(ip), COUNT(DISTINCT location.country) FROM ipv4",
    expect: (d) => [
      [
        d.hosts.length,
        distinct(d.hosts.map((h) => at(h, "location.country"))).filter((c) => c !== null).length,
      ],
    ],
  },
  {
    name: "EXACT_COUNT_DISTINCT",
    sql: () => "SELECT EXACT_COUNT_DISTINCT(autonomous_system.asn) FROM ipv4",
    expect: (d) => [
      [distinct(d.hosts.map((h) => at(h, "autonomous_system.asn"))).filter((a) => a !== null).length],
    ],
  },
  {
    name: "IFNULL",
    sql: () => "SELECT IFNULL(location.city, 'unknown'), COUNT(*) FROM ipv4 GROUP BY 1",
    expect: (d) => pairs(count(d.hosts, (h) => at(h, "location.city") ?? "unknown")),
  },
  {
    name: "LOWER and UPPER",
    sql: (d) =>
      `SELECT LOWER(location.country), UPPER(location.country_code) FROM ipv4 WHERE ip = '${String(d.hosts[2]!.ip)}'`,
    expect: (d) => [
      [
        String(at(d.hosts[2], "location.country")).toLowerCase(),
        String(at(d.hosts[2], "location.country_code")).toUpperCase(),
      ],
    ],
  },
  {
    // A host without services counts as one element whose fields are NULL (legacy FLATTEN).
    name: "IS NULL on a repeated record's field",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE services.tls.version_selected IS NULL",
    expect: (d) => [
      [
        hostsWhere(
          d,
          (h) => services(h).length === 0 || services(h).some((s) => at(s, "tls.version_selected") === null),
        ).length,
      ],
    ],
  },
  {
    name: "NOT (x IS NULL)",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE NOT (location.city IS NULL)",
    expect: (d) => [[hostsWhere(d, (h) => at(h, "location.city") !== null).length]],
  },
  {
    name: "IN list",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE services.port IN (21, 22, 23)",
    expect: (d) => [
      [
        hostsWhere(
          d,
          anyService((s) => [21, 22, 23].includes(Number(s.port))),
        ).length,
      ],
    ],
  },
  {
    name: "BETWEEN",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE autonomous_system.asn BETWEEN 1000 AND 20000",
    expect: (d) => [
      [
        hostsWhere(d, (h) => {
          const a = Number(at(h, "autonomous_system.asn"));
          return a >= 1000 && a <= 20000;
        }).length,
      ],
    ],
  },
  {
    name: "LIKE",
    sql: (d) => `SELECT ip FROM ipv4 WHERE ip LIKE '${String(d.hosts[0]!.ip).split(".")[0]}.%'`,
    expect: (d) => {
      const prefix = `${String(d.hosts[0]!.ip).split(".")[0]}.`;
      return hostsWhere(d, (h) => String(h.ip).startsWith(prefix)).map((h) => [h.ip]);
    },
  },
  {
    name: "NOT LIKE with _",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE location.country_code NOT LIKE 'U_'",
    expect: (d) => [
      [
        hostsWhere(d, (h) => {
          const c = at(h, "location.country_code");
          return c !== null && !/^U.$/s.test(text(c));
        }).length,
      ],
    ],
  },
  {
    // The hosts were last seen in the day before the snapshot's: compare with that day.
    name: "a timestamp compared with a date",
    sql: (d) => `SELECT COUNT(*) FROM ipv4 WHERE last_updated_at >= '${dayBefore(d.day)}'`,
    expect: (d) => {
      const since = Date.parse(`${dayBefore(d.day)}T00:00:00Z`);
      return [[hostsWhere(d, (h) => Date.parse(String(h.last_updated_at)) >= since).length]];
    },
  },
  {
    name: "a timestamp compared with a date and time, and selected",
    sql: (d) =>
      `SELECT ip, last_updated_at FROM ipv4 WHERE last_updated_at < '${d.day.slice(0, 4)}-${d.day.slice(4, 6)}-${d.day.slice(6)} 00:00:00'`,
    expect: (d) => {
      const before = Date.parse(`${d.day.slice(0, 4)}-${d.day.slice(4, 6)}-${d.day.slice(6)}T00:00:00Z`);
      return hostsWhere(d, (h) => Date.parse(String(h.last_updated_at)) < before).map((h) => [
        h.ip,
        iso(h.last_updated_at),
      ]);
    },
  },
  {
    name: "CASE",
    sql: () =>
      "SELECT CASE WHEN services_count > 2 THEN 'many' ELSE 'few' END AS kind, COUNT(*) FROM ipv4 GROUP BY kind",
    expect: (d) => pairs(count(d.hosts, (h) => (services(h).length > 2 ? "many" : "few"))),
  },
  {
    name: "SELECT DISTINCT",
    sql: () => "SELECT DISTINCT location.continent FROM ipv4",
    expect: (d) => distinct(d.hosts.map((h) => at(h, "location.continent"))).map((c) => [c]),
  },
  {
    name: "IN (SELECT ...)",
    sql: () => "SELECT COUNT(*) FROM ipv4 WHERE ip IN (SELECT ip FROM ipv4 WHERE services.port = 22)",
    expect: (d) => [
      [
        hostsWhere(
          d,
          anyService((s) => s.port === 22),
        ).length,
      ],
    ],
  },
  {
    name: "a join of two days on ip",
    sql: (d) => `SELECT COUNT(*) FROM ipv4.${d.day} a JOIN ipv4.${d.firstDay} b ON a.ip = b.ip`,
    expect: (d) => {
      const first = new Set(d.firstDayHosts.map((h) => h.ip));
      return [[hostsWhere(d, (h) => first.has(h.ip)).length]];
    },
  },
  {
    name: "a comma join with its condition in WHERE",
    // Hosts whose services did not change (a few published days may hold no change at all),
    // with more than one service, so the answer differs from the plain join's.
    sql: (d) =>
      `SELECT COUNT(*) FROM ipv4.${d.day} a, ipv4.${d.firstDay} b WHERE a.ip = b.ip AND b.services_count = a.services_count AND a.services_count > 1`,
    expect: (d) => {
      const first = new Map(d.firstDayHosts.map((h) => [h.ip, services(h).length]));
      return [
        [hostsWhere(d, (h) => services(h).length > 1 && first.get(h.ip) === services(h).length).length],
      ];
    },
  },

  // ---- certificates and websites ----
  {
    name: "certificates grouped by a repeated subject field",
    sql: () =>
      "SELECT parsed.subject.country, COUNT(*) FROM certificates.certificates WHERE parsed.subject.country IS NOT NULL GROUP BY parsed.subject.country",
    expect: (d) =>
      pairs(
        count(
          d.certificates.flatMap((c) => (at(c, "parsed.subject.country") as string[] | null) ?? []),
          (x) => x,
        ),
      ),
  },
  {
    name: "a certificate by one of its names",
    sql: (d) =>
      `SELECT parsed.fingerprint_sha256 FROM certificates WHERE parsed.names = '${some(
        d.certificates.flatMap((c) => (at(c, "parsed.names") as string[] | null) ?? []),
        "name",
      )}'`,
    expect: (d) => {
      const name = some(
        d.certificates.flatMap((c) => (at(c, "parsed.names") as string[] | null) ?? []),
        "name",
      );
      return d.certificates
        .filter((c) => ((at(c, "parsed.names") as string[] | null) ?? []).includes(name))
        .map((c) => [at(c, "parsed.fingerprint_sha256")]);
    },
  },
  {
    name: "a boolean field compared with true",
    sql: () => "SELECT COUNT(*) FROM certificates WHERE validation.nss.valid = true",
    expect: (d) => [[d.certificates.filter((c) => at(c, "validation.nss.valid") === true).length]],
  },
  {
    name: "certificates expiring before a date",
    sql: () => "SELECT COUNT(*) FROM certificates WHERE parsed.validity.end < '2026-11-01'",
    expect: (d) => [
      [
        d.certificates.filter(
          (c) => Date.parse(String(at(c, "parsed.validity.end"))) < Date.parse("2026-11-01T00:00:00Z"),
        ).length,
      ],
    ],
  },
  {
    name: "websites by domain",
    sql: (d) => `SELECT domain, ip FROM websites WHERE domain = '${String(d.websites[0]!.domain)}'`,
    expect: (d) => [[d.websites[0]!.domain, d.websites[0]!.ip ?? null]],
  },

  // ---- SQL from public scripts, dates and field names adapted ----
  {
    // The Censys Python client's query test: `select ip, updated_at, ... from ipv4.20150902 limit 5300`.
    name: "public: Python client's query test",
    sql: (d) => `select ip, last_updated_at from ipv4.${d.day} limit 5300`,
    expect: (d) => d.hosts.map((h) => [h.ip, iso(h.last_updated_at)]),
  },
  {
    // The R censys package's example: cipher suites of browser-trusted TLS, counted by ip.
    name: "public: R package's cipher suite count",
    sql: () =>
      "SELECT services.tls.cipher_selected, count(ip) FROM ipv4 WHERE services.tls.version_selected = 'TLSv1_2' GROUP BY services.tls.cipher_selected;",
    expect: (d) =>
      pairs(
        count(
          d.hosts.flatMap(services).filter((s) => at(s, "tls.version_selected") === "TLSv1_2"),
          (s) => at(s, "tls.cipher_selected"),
        ),
      ),
  },
  {
    name: "public: countries of nginx servers, top 10",
    sql: () =>
      "SELECT location.country, COUNT(ip) AS count FROM ipv4 WHERE services.http.response.headers.server CONTAINS 'nginx' GROUP BY location.country ORDER BY count DESC, location.country LIMIT 10",
    expect: (d) =>
      pairs(
        count(
          hostsWhere(
            d,
            anyService((s) => String(serverHeader(s) ?? "").includes("nginx")),
          ),
          (h) => at(h, "location.country"),
        ),
      )
        .sort((a, b) => Number(b[1]) - Number(a[1]) || (String(a[0]) < String(b[0]) ? -1 : 1))
        .slice(0, 10),
    ordered: true,
  },
  {
    name: "public: telnet banners containing a word",
    sql: (d) =>
      `SELECT ip FROM [ipv4.${d.day}] WHERE services.port = 23 AND services.banner CONTAINS 'login'`,
    expect: (d) =>
      hostsWhere(
        d,
        anyService((s) => s.port === 23 && text(s.banner).includes("login")),
      ).map((h) => [h.ip]),
  },
  {
    name: "public: hosts per autonomous system, top 20",
    sql: () =>
      "SELECT autonomous_system.asn, autonomous_system.name, EXACT_COUNT_DISTINCT(ip) AS hosts FROM ipv4 GROUP BY 1, 2 ORDER BY hosts DESC, 1 LIMIT 20",
    expect: (d) =>
      [
        ...count(d.hosts, (h) =>
          JSON.stringify([at(h, "autonomous_system.asn"), at(h, "autonomous_system.name")]),
        ),
      ]
        .map(([k, n]) => [...(JSON.parse(String(k)) as unknown[]), n])
        .sort((a, b) => Number(b[2]) - Number(a[2]) || Number(a[0]) - Number(b[0]))
        .slice(0, 20),
    ordered: true,
  },
  {
    name: "public: certificate issuers by organisation",
    sql: () =>
      "SELECT parsed.issuer.organization, COUNT(*) AS n FROM certificates.certificates WHERE parsed.issuer.organization IS NOT NULL GROUP EACH BY parsed.issuer.organization",
    expect: (d) =>
      pairs(
        count(
          d.certificates.flatMap((c) => (at(c, "parsed.issuer.organization") as string[] | null) ?? []),
          (x) => x,
        ),
      ),
  },
  {
    name: "public: HTTP titles of one port, standard SQL",
    sql: (d) =>
      `#standardSQL\nSELECT ip, s.http.response.html_title FROM \`ipv4.${d.day}\`, UNNEST(services) AS s WHERE s.port = 80 AND s.http.response.html_title IS NOT NULL`,
    expect: (d) =>
      d.hosts.flatMap((h) =>
        services(h)
          .filter((s) => s.port === 80 && at(s, "http.response.html_title") !== null)
          .map((s) => [h.ip, at(s, "http.response.html_title")]),
      ),
  },
  {
    name: "public: leaf certificate names served on 443",
    sql: () =>
      "SELECT COUNT(DISTINCT ip) FROM ipv4 WHERE services.port = 443 AND NOT (services.tls.certificate.fingerprint_sha256 IS NULL)",
    expect: (d) => [
      [
        hostsWhere(
          d,
          anyService(
            (s) => s.port === 443 && (s.certificate ?? at(s, "tls.certificates.leaf_fp_sha_256")) != null,
          ),
        ).length,
      ],
    ],
  },
  {
    name: "public: software versions of SSH servers",
    sql: () =>
      "SELECT services.software.product, COUNT(*) FROM ipv4 WHERE services.service_name = 'SSH' GROUP BY 1",
    expect: (d) =>
      pairs(
        count(
          d.hosts.flatMap(services).filter((s) => s.service_name === "SSH"),
          (s) => JSON.stringify(products(s)),
        ),
      ).map(([k, n]) => [JSON.parse(String(k)) as unknown, n]),
  },
];

describe("the job dialect, case by case against the snapshot database", () => {
  it("has at least 60 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const expected = c.expect(data);
    // A case that expects nothing, or only zero counts, would pass without testing anything.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.some((row) => row.some((v) => v !== 0 && v !== null))).toBe(true);
    const { rows } = await run(c.sql(data));
    if (c.ordered) expect(rows).toEqual(expected);
    else expect(sorted(rows)).toEqual(sorted(expected));
  });
});

describe("result columns are named as BigQuery legacy SQL names them", () => {
  it("names a field by its path with underscores, an alias by itself, an expression f<n>_", async () => {
    const { columns } = await run(
      "SELECT ip, location.country, COUNT(*), services_count AS n FROM ipv4 GROUP BY 1, 2, 4",
    );
    expect(columns).toEqual(["ip", "location_country", "f0_", "n"]);
  });
});

const REFUSALS: [string, (d: Data) => string, RegExp][] = [
  [
    "an unknown column",
    (d) => `select nosuchcol from ipv4.${d.day}`,
    /^Unrecognized name: nosuchcol at \[1:8\]$/,
  ],
  [
    "a misspelt nested field",
    () => "SELECT location.countr FROM ipv4",
    /Unrecognized name: location\.countr/,
  ],
  ["an unknown table", () => "SELECT ip FROM ipv4.19990101", /Not found: Table ipv4\.19990101/],
  ["an unknown series", () => "SELECT ip FROM hosts", /Not found: Table hosts/],
  ["an unknown function", () => "SELECT FROBNICATE(ip) FROM ipv4", /Function not found: FROBNICATE/],
  [
    "a prototype name as a function",
    () => "SELECT constructor(ip) FROM ipv4",
    /Function not found: CONSTRUCTOR/,
  ],
  [
    "a cartesian join of four tables",
    (d) => `select count(*) from "ipv4.${d.day}" a, "ipv4.${d.day}" b, "ipv4.${d.day}" c, "ipv4.${d.day}" d`,
    /a join of 4 tables without a join condition is not allowed/,
  ],
  [
    "a join on an inequality alone",
    () => "SELECT COUNT(*) FROM ipv4 a JOIN ipv4 b ON a.ip > b.ip",
    /without a join condition/,
  ],
  [
    "a correlated subquery",
    () => "SELECT ip FROM ipv4 a WHERE EXISTS (SELECT 1 FROM ipv4 b WHERE b.ip = a.ip)",
    /correlated subqueries are not supported/,
  ],
  [
    "an ungrouped column",
    () => "SELECT ip, COUNT(*) FROM ipv4 GROUP BY location.country",
    /neither grouped nor aggregated/,
  ],
  [
    "a string compared with a number",
    () => "SELECT ip FROM ipv4 WHERE location.country = 5",
    /No matching signature for operator =/,
  ],
  [
    "a timestamp that is not one",
    () => "SELECT ip FROM ipv4 WHERE last_updated_at > 'yesterday'",
    /Could not cast literal/,
  ],
  [
    "an analytic function",
    () => "SELECT ip, RANK() OVER (ORDER BY ip) FROM ipv4",
    /Analytic functions \(OVER\) are not supported/,
  ],
  [
    "two repeated fields at once",
    () => "SELECT services.port, protocols FROM ipv4",
    /Cannot query the cross product of repeated fields/,
  ],
  [
    "a syntax error",
    () => "SELECT ip FROM ipv4 WHERE",
    /Syntax error: Expected an expression but got end of input at \[1:26\]/,
  ],
  [
    "a regular expression that is not one",
    () => "SELECT ip FROM ipv4 WHERE REGEXP_MATCH(ip, '(')",
    /Cannot parse regular expression/,
  ],
];

describe("refusals name what is wrong and where", () => {
  it.each(REFUSALS)("%s", async (_name, sql, message) => {
    expect(await refusal(sql(data))).toMatch(message);
  });
});
