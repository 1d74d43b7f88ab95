import type { Database } from "sql.js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  QueryError,
  compileAggregate,
  compileSearch,
  summarizeAggregate,
  type AggregateStatements,
  type AggregateSummary,
  type BucketRow,
  type TotalsRow,
} from "../src/index";
import { NOW, openFixtureDb, rows } from "./fixture-db";
import { hostsRegistry } from "./registries";

let db: Database;
beforeAll(async () => {
  db = await openFixtureDb();
});

function statements(field: string, query: string, buckets = 50): AggregateStatements {
  const where = compileSearch(query, "v2", hostsRegistry, { now: NOW });
  if (!where.ok) throw where.error;
  const compiled = compileAggregate(hostsRegistry, field, where.value, { buckets });
  if (!compiled.ok) throw compiled.error;
  return compiled.value;
}

function aggregate(field: string, query: string, buckets = 50): AggregateSummary {
  const compiled = statements(field, query, buckets);
  const bucketRows = rows(db, compiled.buckets) as unknown as BucketRow[];
  const [totals] = rows(db, compiled.totals) as unknown as TotalsRow[];
  if (!totals) throw new Error("the totals statement returned no row");
  return summarizeAggregate(bucketRows, totals);
}

describe("compileAggregate: statements", () => {
  it("counts scope rows of matching documents for a scoped field", () => {
    expect(statements("services.port", "location.country: DE", 10)).toEqual({
      field: "services.port",
      type: "integer",
      buckets: {
        sql:
          'SELECT CAST(a.port AS TEXT) AS "key", count(*) AS "count" FROM host_services a ' +
          "WHERE a.ip IN (SELECT r.ip FROM hosts r WHERE r.country = ?) AND a.port IS NOT NULL " +
          'GROUP BY a.port ORDER BY "count" DESC, a.port LIMIT ?',
        params: ["DE", 10],
      },
      totals: {
        sql:
          "SELECT count(*) AS documents, coalesce(sum(n > 0), 0) AS nonnull_documents, coalesce(sum(n), 0) AS value_count " +
          "FROM (SELECT (SELECT count(a.port) FROM host_services a WHERE a.ip = r.ip) AS n FROM hosts r WHERE r.country = ?)",
        params: ["DE"],
      },
    });
  });

  it("groups a root column over the matching rows", () => {
    const compiled = statements("location.country", "*", 5);
    expect(compiled.buckets.sql).toBe(
      'SELECT CAST(r.country AS TEXT) AS "key", count(*) AS "count" FROM hosts r WHERE (1) AND r.country IS NOT NULL ' +
        'GROUP BY r.country ORDER BY "count" DESC, r.country LIMIT ?',
    );
    expect(compiled.buckets.params).toEqual([5]);
  });

  it("keeps query values out of the aggregate SQL text", () => {
    const compiled = statements("tags", 'location.country: "\'; DROP TABLE hosts; --"');
    expect(compiled.buckets.sql).not.toContain("DROP");
    expect(compiled.totals.sql).not.toContain("DROP");
    expect(compiled.buckets.params).toEqual(["'; DROP TABLE hosts; --", 50]);
  });

  it("refuses an unknown field with a QueryError naming it", () => {
    const result = compileAggregate(hostsRegistry, "services.prot", { sql: "1", params: [] }, { buckets: 5 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(QueryError);
    expect(result.error.message).toBe('unknown field "services.prot"; did you mean "services.port"?');
    expect(result.error.token).toBe("services.prot");
  });

  it("treats a bucket count that is not a positive integer as a caller bug", () => {
    expect(() => compileAggregate(hostsRegistry, "tags", { sql: "1", params: [] }, { buckets: 0 })).toThrow(
      RangeError,
    );
    expect(() => compileAggregate(hostsRegistry, "tags", { sql: "1", params: [] }, { buckets: 1.5 })).toThrow(
      RangeError,
    );
  });
});

describe("compileAggregate: results on SQLite", () => {
  it("counts services, not hosts, for a service-level field", () => {
    expect(aggregate("services.port", "location.country: Germany")).toEqual({
      buckets: [
        { key: "22", count: 2 },
        { key: "80", count: 1 },
      ],
      documents: 2,
      nonnullDocuments: 2,
      total: 3,
      totalOmitted: 0,
    });
  });

  it("reports what the buckets it leaves out hold", () => {
    expect(aggregate("services.port", "location.country: Germany", 1)).toMatchObject({
      buckets: [{ key: "22", count: 2 }],
      total: 3,
      totalOmitted: 1,
    });
  });

  it("orders buckets by count, then by value (numerically for numbers)", () => {
    expect(aggregate("services.port", "*")).toEqual({
      buckets: [
        { key: "22", count: 3 },
        { key: "80", count: 2 },
        { key: "53", count: 1 },
        { key: "443", count: 1 },
      ],
      documents: 5,
      nonnullDocuments: 4,
      total: 7,
      totalOmitted: 0,
    });
  });

  it("counts the services of hosts matched by a scoped query", () => {
    expect(aggregate("services.service_name", "services: (port: 22 and service_name: SSH)").buckets).toEqual([
      { key: "SSH", count: 2 },
      { key: "DNS", count: 1 },
    ]);
  });

  it("counts documents for a root column, with documents lacking the field left out", () => {
    expect(aggregate("location.country", "*")).toEqual({
      buckets: [
        { key: "Germany", count: 2 },
        { key: "France", count: 1 },
        { key: "United States", count: 1 },
      ],
      documents: 5,
      nonnullDocuments: 4,
      total: 4,
      totalOmitted: 0,
    });
  });

  it("gives the same answer for match-all (no filter, one pass) as for a filter every document passes", () => {
    const filtered = statements("services.port", "NOT ip: 203.0.113.254");
    expect(statements("services.port", "*").buckets.sql).not.toContain(" IN (");
    expect(filtered.buckets.sql).toContain(" IN (");
    for (const field of ["services.port", "services.service_name", "tags", "location.country"]) {
      expect(aggregate(field, "*"), field).toEqual(aggregate(field, "NOT ip: 203.0.113.254"));
    }
  });

  it("counts documents per value of a side table", () => {
    expect(aggregate("tags", "*")).toEqual({
      buckets: [
        { key: "db", count: 2 },
        { key: "web", count: 2 },
        { key: "dns", count: 1 },
      ],
      documents: 5,
      nonnullDocuments: 4,
      total: 5,
      totalOmitted: 0,
    });
  });

  it("returns every key as a string in the field's display form", () => {
    expect(aggregate("ip", "services.port: 22").buckets).toEqual([
      { key: "1.2.3.4", count: 1 },
      { key: "1.2.3.10", count: 1 },
      { key: "192.168.1.1", count: 1 },
    ]);
    expect(aggregate("tor_exit", "*").buckets).toEqual([
      { key: "false", count: 3 },
      { key: "true", count: 1 },
    ]);
    expect(aggregate("last_updated_at", "ip: 8.8.8.8").buckets).toEqual([
      { key: "2019-12-31T23:59:59.999Z", count: 1 },
    ]);
    expect(aggregate("autonomous_system.asn", "*").buckets).toEqual([
      { key: "3320", count: 2 },
      { key: "15169", count: 2 },
      { key: "12322", count: 1 },
    ]);
    expect(aggregate("location.coordinates.latitude", "location.city: Berlin").buckets).toEqual([
      { key: "52.52", count: 1 },
    ]);
  });

  it("gives empty buckets and zero totals when nothing matches", () => {
    expect(aggregate("services.port", "location.country: Atlantis")).toEqual({
      buckets: [],
      documents: 0,
      nonnullDocuments: 0,
      total: 0,
      totalOmitted: 0,
    });
  });
});
