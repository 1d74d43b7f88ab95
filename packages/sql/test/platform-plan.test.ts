import type {
  V3SearchAggregateInput,
  V3SearchAggregateResponse,
  V3SearchQueryHit,
  V3SearchQueryInput,
  V3SearchQueryResponse,
} from "@scangate/core";
import { describe, expect, it } from "vitest";
import { describeSqlError } from "../src/errors";
import { SqlRunError } from "../src/run-error";
import {
  newPlatformRunStats,
  planPlatformQuery,
  platformCatalog,
  platformSeriesDetails,
  platformSeriesList,
  runPlatformPlan,
  type PlatformPlan,
  type PlatformSearch,
} from "../src/platform";

// How the Platform planner reads a query (count, aggregate, rows and their bounds), and how the
// runner answers each from a Platform search. The search here is scripted: it records the calls
// and answers what each test gives it. The origin's platform-sql.test.ts runs users' SQL against
// a real /v3 search over the generated dataset.

const NOW = Date.parse("2026-11-01T12:00:00Z");
const RUN = { deadline: Number.POSITIVE_INFINITY, timeLimitMs: 10_000, maxRows: 10_000 };

function plan(sql: string, maxPages = 10): PlatformPlan {
  const result = planPlatformQuery(sql, { now: NOW, maxPages });
  if (!result.ok) throw new Error(describeSqlError(result.error));
  return result.value;
}

function refusal(sql: string, maxPages = 10): string {
  const result = planPlatformQuery(sql, { now: NOW, maxPages });
  if (result.ok) throw new Error(`expected a refusal: ${sql}`);
  return describeSqlError(result.error);
}

interface Script {
  pages?: V3SearchQueryHit[][];
  total?: number;
  aggregates?: Record<string, Partial<V3SearchAggregateResponse>>;
}

/** A search answering from `script`, recording what it was asked. */
function scripted(
  script: Script,
): PlatformSearch & { asked: (V3SearchQueryInput | V3SearchAggregateInput)[] } {
  const asked: (V3SearchQueryInput | V3SearchAggregateInput)[] = [];
  return {
    asked,
    query(input): Promise<V3SearchQueryResponse> {
      asked.push(input);
      const pages = script.pages ?? [];
      const index = input.page_token ? Number(input.page_token) : 0;
      return Promise.resolve({
        hits: input.page_size === 1 ? [] : (pages[index] ?? []),
        total_hits: script.total ?? pages.flat().length,
        next_page_token: index + 1 < pages.length && input.page_size !== 1 ? String(index + 1) : "",
        previous_page_token: "",
        query_duration_millis: 1,
      });
    },
    aggregate(input): Promise<V3SearchAggregateResponse> {
      asked.push(input);
      const answer = script.aggregates?.[input.field] ?? {};
      return Promise.resolve({
        buckets: [],
        total_count: 0,
        other_count: 0,
        is_more_than_total_hits: false,
        query_duration_millis: 1,
        ...answer,
      });
    },
  };
}

async function answer(planned: PlatformPlan, search: PlatformSearch) {
  const stats = newPlatformRunStats();
  const rows: unknown[][] = [];
  for await (const batch of runPlatformPlan(planned, search, RUN, stats)) rows.push(...batch);
  return { rows, stats };
}

const host = (ip: string, country: string, ports: number[]): V3SearchQueryHit => ({
  host_v1: {
    extensions: {},
    resource: {
      ip,
      location: { country },
      services: ports.map((port) => ({
        port,
        protocol: port === 22 ? "SSH" : "HTTP",
        scan_time: "2026-10-31T00:00:00Z",
      })),
    },
  },
});

describe("the answer a query gets", () => {
  it("reads a count of what the WHERE keeps from the search's total, in one call", async () => {
    const planned = plan("SELECT COUNT(*) AS n FROM ipv4 WHERE location.country_code = 'DE'");
    expect(planned).toMatchObject({
      answer: { kind: "count" },
      maxCalls: 1,
      query: 'host.location.country_code = "DE"',
    });
    const search = scripted({ total: 1234 });
    const { rows, stats } = await answer(planned, search);
    expect(rows).toEqual([[1234]]);
    expect(search.asked).toEqual([{ query: 'host.location.country_code = "DE"', page_size: 1 }]);
    expect(stats.calls).toEqual(["v3_search_query"]);
  });

  it("counts every document with a query matching them all", () => {
    expect(plan("SELECT COUNT(ip) FROM ipv4").query).toBe("host.ip: *");
    expect(plan("SELECT COUNT(*) FROM certificates").query).toBe("cert.fingerprint_sha256: *");
  });

  it("turns a GROUP BY of one field with counts into the aggregate, HAVING and ORDER BY applied to its buckets", async () => {
    const planned = plan(
      "SELECT location.country AS country, COUNT(ip) AS n FROM ipv4 GROUP BY 1 HAVING n > 1 ORDER BY n DESC, country",
    );
    expect(planned.answer.kind).toBe("aggregate");
    expect(planned.maxCalls).toBe(1);
    const search = scripted({
      aggregates: {
        "host.location.country": {
          buckets: [
            { key: "Germany", count: 5 },
            { key: "France", count: 7 },
            { key: "Chad", count: 1 },
          ],
          // Three documents have no country: the NULL group.
          total_count: 16,
        },
      },
    });
    const { rows, stats } = await answer(planned, search);
    expect(rows).toEqual([
      ["France", 7],
      ["Germany", 5],
      [null, 3],
    ]);
    expect(planned.plan.columns.map((c) => c.name)).toEqual(["country", "n"]);
    expect(stats.calls).toEqual(["v3_search_aggregate"]);
  });

  it("counts a service field's empty groups with the calls that find them", async () => {
    const planned = plan(
      "SELECT services.tls.cipher_selected, COUNT(*) FROM ipv4 WHERE services.tls.version_selected = 'TLSv1_2' GROUP BY 1",
    );
    expect(planned.answer).toMatchObject({ kind: "aggregate", filterByQuery: true });
    expect(planned.maxCalls).toBe(3);
    const search = scripted({
      total: 2,
      aggregates: {
        "host.services.tls.cipher_selected": { buckets: [{ key: "A", count: 4 }] },
        // Five services match, four with a cipher: one NULL value, and two hosts without services.
        "host.services.port": { buckets: [{ key: "443", count: 5 }] },
      },
    });
    const { rows } = await answer(planned, search);
    expect(rows).toEqual([
      ["A", 4],
      [null, 3],
    ]);
    expect(search.asked[0]).toMatchObject({
      filter_by_query: true,
      query: 'host.services: (tls.version_selected: "tlsv1_2")',
    });
    expect(search.asked[2]).toEqual({
      query: '(host.services: (tls.version_selected: "tlsv1_2")) and not host.services: *',
      page_size: 1,
    });
  });

  it("spells aggregate keys as the series does, merging keys that differ in case", async () => {
    const planned = plan("SELECT services.tls.version_selected, COUNT(*) FROM ipv4 GROUP BY 1");
    const search = scripted({
      aggregates: {
        "host.services.tls.version_selected": {
          buckets: [
            { key: "tlsv1_2", count: 2 },
            { key: "TLSv1_2", count: 1 },
            { key: "tlsv1_3", count: 4 },
          ],
        },
        "host.services.port": { buckets: [{ key: "443", count: 7 }] },
      },
    });
    const { rows } = await answer(planned, search);
    expect(rows.sort()).toEqual([
      ["TLSv1_2", 3],
      ["TLSv1_3", 4],
    ]);
  });

  it("fails when the aggregate holds more groups than it returns", async () => {
    const planned = plan("SELECT location.city, COUNT(*) FROM ipv4 GROUP BY 1");
    const search = scripted({ aggregates: { "host.location.city": { buckets: [], other_count: 9 } } });
    await expect(answer(planned, search)).rejects.toThrow(/more than 1000 groups/);
  });

  it("reads pages of hits for rows, evaluating what the search could not", async () => {
    const planned = plan(
      "SELECT ip, services.port FROM ipv4 WHERE services.port = 22 AND LOWER(location.country) = 'chad'",
    );
    expect(planned).toMatchObject({
      pushed: "host.services: (port: 22)",
      exact: false,
      answer: { kind: "rows", bound: "query" },
    });
    const search = scripted({
      pages: [
        [host("192.0.2.1", "Chad", [22, 80]), host("192.0.2.2", "Peru", [22])],
        [host("192.0.2.3", "Chad", [22])],
      ],
    });
    const { rows, stats } = await answer(planned, search);
    expect(rows).toEqual([
      ["192.0.2.1", 22],
      ["192.0.2.3", 22],
    ]);
    expect(stats).toMatchObject({ pages: 2, rowsRead: 3 });
  });

  it("stops at the job's maximum of pages, saying how many rows it read", async () => {
    const planned = plan("SELECT ip FROM ipv4 WHERE services.port = 22", 1);
    const search = scripted({
      pages: [[host("192.0.2.1", "Chad", [22])], [host("192.0.2.2", "Chad", [22])]],
    });
    await expect(answer(planned, search)).rejects.toThrow(SqlRunError);
    await expect(answer(planned, search)).rejects.toThrow(
      /than its maximum of 1 \(100 documents\); it read 1 rows/,
    );
  });

  it("reads a website's properties from every page into one row", async () => {
    const property = (port: number, tls: boolean): V3SearchQueryHit => ({
      webproperty_v1: {
        extensions: {},
        resource: {
          hostname: "example.com",
          port,
          endpoints: [{ path: "/", ip: "192.0.2.1", http: { status_code: 200, html_title: `on ${port}` } }],
          ...(tls ? { tls: { version_selected: "tlsv1_3" } } : {}),
        },
      },
    });
    const planned = plan(
      "SELECT domain, ports, http.title, p80.http.get.title FROM websites WHERE domain = 'example.com'",
    );
    const search = scripted({ pages: [[property(443, true)], [property(80, false)]] });
    const { rows } = await answer(planned, search);
    // One website: its ports flattened, as selecting a repeated field does.
    expect(rows).toEqual([
      ["example.com", 80, "on 443", "on 80"],
      ["example.com", 443, "on 443", "on 80"],
    ]);
  });
});

describe("bounds and refusals", () => {
  it("bounds a query nothing narrows by the pages its LIMIT needs", () => {
    expect(plan("SELECT ip FROM ipv4 LIMIT 250").answer).toEqual({
      kind: "rows",
      maxPages: 3,
      bound: "limit",
    });
    expect(plan("SELECT ip FROM ipv4 WHERE location.country = 'Chad' LIMIT 50").answer).toEqual({
      kind: "rows",
      maxPages: 1,
      bound: "query",
    });
  });

  it("refuses a query nothing bounds, saying how to narrow it", () => {
    const message = refusal("SELECT ip FROM ipv4 LIMIT 1001");
    expect(message).toMatch(/would read the whole ipv4 series from the Platform/);
    expect(message).toMatch(/add a LIMIT of at most 1000 rows \(10 pages\)/);
    expect(refusal("SELECT ip FROM ipv4 ORDER BY ip LIMIT 5")).toMatch(/no LIMIT bounds the rows it reads/);
    expect(refusal("SELECT DISTINCT location.country FROM ipv4")).toMatch(/it has no WHERE/);
    // A website's ports may come on any page: its rows need every page the search has.
    expect(refusal("SELECT domain FROM websites LIMIT 5")).toMatch(/no LIMIT bounds the rows it reads/);
    expect(refusal("SELECT a.ip FROM ipv4 a JOIN ipv4 b ON a.ip = b.ip WHERE a.services.port = 22")).toMatch(
      /more than one place/,
    );
  });

  it("refuses a daily table older than today, and names the one table there is", () => {
    expect(refusal("SELECT ip FROM `ipv4.20261031` LIMIT 1")).toBe(
      "Table ipv4.20261031 is a daily snapshot of 20261031; the Platform keeps no daily snapshots, only the latest data: query ipv4 (or ipv4.20261101) at [1:16]",
    );
    expect(plan("SELECT COUNT(*) FROM ipv4.20261101").answer.kind).toBe("count");
  });

  it("knows no field the Platform does not carry", () => {
    expect(refusal("SELECT alexa_rank FROM websites LIMIT 1")).toMatch(/Unrecognized name: alexa_rank/);
    expect(refusal("SELECT raw FROM certificates LIMIT 1")).toMatch(/Unrecognized name: raw/);
  });
});

describe("query definitions", () => {
  it("lists the three series, each with its fields and today's one table", () => {
    expect(platformSeriesList()).toEqual({ series: ["ipv4", "certificates", "websites"] });
    const catalog = platformCatalog("20261101");
    const details = platformSeriesDetails(catalog, "ipv4");
    expect(details?.tables).toEqual(["ipv4.20261101"]);
    const names = details?.definition.fields.map((f) => f.name) ?? [];
    expect(names).toContain("services.port");
    expect(names).not.toContain("services.source_ip");
    expect(details?.definition.fields.find((f) => f.name === "services.port")?.mode).toBe("REPEATED");
    expect(platformSeriesDetails(catalog, "hosts")).toBeNull();
  });
});
