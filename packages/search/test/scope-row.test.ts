import type { Database } from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AGGREGATE_SCOPE_ALIAS,
  compileAggregate,
  compileQuery,
  compileSearch,
  parseQuery,
  summarizeAggregate,
  type AggregateOptions,
  type AggregateSummary,
  type BucketRow,
  type SqlFragment,
  type TotalsRow,
} from "../src/index";
import { HOSTS, NOW, openFixtureDb, rows } from "./fixture-db";
import { hostsRegistry } from "./registries";

// The query read against one service row (`scopeRow`), and aggregates of service fields counted
// by host or over the services the query's conditions hold for, on the fixture hosts:
// A 1.2.3.4   Germany  22/HTTP, 80/SSH     B 1.2.3.10 Germany 22/SSH     C 10.0.0.1 US 443/HTTP, 80/HTTP
// D 8.8.8.8   -        (no services)       E 192.168.1.1 France 53/DNS, 22/SSH
let db: Database;
beforeAll(async () => {
  db = await openFixtureDb();
});

const letterOf = (ip: unknown) => HOSTS.find((h) => h.ip === ip)?.letter ?? "?";

function where(query: string): SqlFragment {
  const compiled = compileSearch(query, "v2", hostsRegistry, { now: NOW });
  if (!compiled.ok) throw compiled.error;
  return compiled.value;
}

function serviceFilter(query: string, alias = AGGREGATE_SCOPE_ALIAS): SqlFragment {
  const parsed = parseQuery(query, "v2");
  if (!parsed.ok) throw parsed.error;
  const compiled = compileQuery(parsed.value, hostsRegistry, {
    now: NOW,
    scopeRow: { scope: "services", alias },
  });
  if (!compiled.ok) throw compiled.error;
  return compiled.value;
}

/** `A:80 B:22`: the services of matching hosts the query holds for, by running both conditions. */
function matchedServices(query: string): string {
  const host = where(query);
  const service = serviceFilter(query);
  const found = rows(db, {
    sql:
      `SELECT r.ip AS ip, m.port AS port FROM host_services m JOIN hosts r ON r.ip = m.ip ` +
      `WHERE (${host.sql}) AND (${service.sql})`,
    params: [...host.params, ...service.params],
  });
  return found
    .map((row) => `${letterOf(row.ip)}:${String(row.port)}`)
    .sort()
    .join(" ");
}

/** The same answer computed in JS over the fixture: services of matching hosts passing `test`. */
function expectedServices(hosts: string, test: (service: { port: number; name: string }) => boolean): string {
  return HOSTS.filter((h) => hosts.includes(h.letter))
    .flatMap((h) => h.services.filter(test).map((s) => `${h.letter}:${s.port}`))
    .sort()
    .join(" ");
}

describe("compileQuery with scopeRow: the query read against one service", () => {
  it("keeps the services a service condition holds for, not every service of the host", () => {
    expect(matchedServices("services.service_name: SSH")).toBe(
      expectedServices("ABCDE", (s) => s.name === "SSH"),
    );
    expect(matchedServices("services.service_name: SSH")).toBe("A:80 B:22 E:22");
  });

  it("reads a services: (...) group on the row itself", () => {
    expect(matchedServices("services: (port: 22 and service_name: SSH)")).toBe("B:22 E:22");
    expect(matchedServices("services: (port: 22 and not service_name: SSH)")).toBe("A:22");
  });

  it("reads separate service conditions on the same row (the host matched them on any rows)", () => {
    // A matches the host query (22 on one service, SSH on another); no single service is both.
    expect(matchedServices("services.port: 22 and services.service_name: SSH")).toBe("B:22 E:22");
    expect(matchedServices("services.port: 22 or services.port: 53")).toBe("A:22 B:22 E:22 E:53");
  });

  it("keeps every service when only the host's own fields are tested", () => {
    expect(matchedServices("location.country: Germany")).toBe(expectedServices("AB", () => true));
    expect(matchedServices("*")).toBe(expectedServices("ABCDE", () => true));
    expect(matchedServices("location.country: Germany and services.port: 80")).toBe("A:80");
  });

  it("negates on the row: the services a negated condition holds for", () => {
    // Hosts without a port-22 service are C and D; all of their services pass.
    expect(matchedServices("not services.port: 22")).toBe(expectedServices("CD", (s) => s.port !== 22));
    expect(matchedServices("not services.port: 22")).toBe("C:443 C:80");
  });

  it("binds the query's values once and names the row by the alias given", () => {
    const filter = serviceFilter("services.port: 22 and location.country: Germany", "x");
    expect(filter.sql).toBe("(x.port = ? AND r.country = ?)");
    expect(filter.params).toEqual([22, "Germany"]);
  });

  it("refuses an alias the compiled subqueries use, or a scope the registry lacks (caller bugs)", () => {
    const parsed = parseQuery("services.port: 22", "v2");
    if (!parsed.ok) throw parsed.error;
    expect(() =>
      compileQuery(parsed.value, hostsRegistry, { scopeRow: { scope: "services", alias: "s" } }),
    ).toThrow(/alias s/);
    expect(() =>
      compileQuery(parsed.value, hostsRegistry, { scopeRow: { scope: "nope", alias: "m" } }),
    ).toThrow(/no scope nope/);
  });
});

function aggregate(
  field: string,
  query: string,
  options: Omit<AggregateOptions, "buckets">,
): AggregateSummary {
  const compiled = compileAggregate(hostsRegistry, field, where(query), { buckets: 50, ...options });
  if (!compiled.ok) throw compiled.error;
  const { buckets, totals, documents } = compiled.value;
  const [totalsRow] = rows(db, totals) as unknown as Partial<TotalsRow>[];
  const [documentsRow] = documents ? (rows(db, documents) as unknown as { documents: number }[]) : [];
  return summarizeAggregate(rows(db, buckets) as unknown as BucketRow[], {
    documents: Number(documentsRow?.documents ?? totalsRow?.documents),
    nonnull_documents: Number(totalsRow?.nonnull_documents),
    value_count: Number(totalsRow?.value_count),
  });
}

describe("compileAggregate: count by document and filter by the query", () => {
  const SSH = "services.service_name: SSH";

  it("counts every service of the matching hosts by default", () => {
    expect(aggregate("services.port", SSH, {})).toEqual({
      buckets: [
        { key: "22", count: 3 },
        { key: "53", count: 1 },
        { key: "80", count: 1 },
      ],
      documents: 3,
      nonnullDocuments: 3,
      total: 5,
      totalOmitted: 0,
    });
  });

  it("counts only the services the query holds for with a scope filter", () => {
    expect(aggregate("services.port", SSH, { scopeFilter: serviceFilter(SSH) })).toEqual({
      buckets: [
        { key: "22", count: 2 },
        { key: "80", count: 1 },
      ],
      documents: 3,
      nonnullDocuments: 3,
      total: 3,
      totalOmitted: 0,
    });
  });

  it("counts hosts, once per value, by document", () => {
    // A has 22 and 80; B 22; E 22 and 53: 22 is on three hosts.
    expect(aggregate("services.port", SSH, { countBy: "document" })).toEqual({
      buckets: [
        { key: "22", count: 3 },
        { key: "53", count: 1 },
        { key: "80", count: 1 },
      ],
      documents: 3,
      nonnullDocuments: 3,
      total: 5,
      totalOmitted: 0,
    });
    // Two services of one host on one port count the host once.
    expect(
      aggregate("services.service_name", 'location.country: "United States"', { countBy: "document" }),
    ).toEqual({
      buckets: [{ key: "HTTP", count: 1 }],
      documents: 1,
      nonnullDocuments: 1,
      total: 1,
      totalOmitted: 0,
    });
  });

  it("counts hosts by the services the query holds for, by document with a filter", () => {
    expect(aggregate("services.port", SSH, { countBy: "document", scopeFilter: serviceFilter(SSH) })).toEqual(
      {
        buckets: [
          { key: "22", count: 2 },
          { key: "80", count: 1 },
        ],
        documents: 3,
        nonnullDocuments: 3,
        total: 3,
        totalOmitted: 0,
      },
    );
  });

  it("keeps matching hosts in documents when none of their services passes the filter", () => {
    const query = "services.port: 22 and services.port: 80";
    expect(aggregate("services.port", query, { scopeFilter: serviceFilter(query) })).toEqual({
      buckets: [],
      documents: 1,
      nonnullDocuments: 0,
      total: 0,
      totalOmitted: 0,
    });
  });

  it("counts by document over every host without a query, as the root count of the same pairs", () => {
    const byHost = aggregate("services.port", "*", { countBy: "document" });
    const pairs = new Set(HOSTS.flatMap((h) => h.services.map((s) => `${h.ip}:${s.port}`)));
    expect(byHost.total).toBe(pairs.size);
    expect(byHost.documents).toBe(HOSTS.length);
    expect(byHost.buckets).toEqual([
      { key: "22", count: 3 },
      { key: "80", count: 2 },
      { key: "53", count: 1 },
      { key: "443", count: 1 },
    ]);
  });

  it("reports what the buckets left out hold, in the level counted", () => {
    const compiled = compileAggregate(hostsRegistry, "services.port", where(SSH), {
      buckets: 1,
      countBy: "document",
    });
    if (!compiled.ok) throw compiled.error;
    const bucketRows = rows(db, compiled.value.buckets) as unknown as BucketRow[];
    expect(bucketRows).toEqual([{ key: "22", count: 3 }]);
    const [totals] = rows(db, compiled.value.totals);
    expect(Number(totals?.value_count) - 3).toBe(2);
  });

  it("leaves root fields counted by document whatever the options", () => {
    expect(aggregate("location.country", SSH, { countBy: "document" })).toEqual(
      aggregate("location.country", SSH, {}),
    );
  });
});
