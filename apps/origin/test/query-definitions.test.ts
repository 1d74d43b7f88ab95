import { env } from "cloudflare:workers";
import { seriesDetailsSchema, seriesListSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";
import { describeAuthChecks } from "./support/auth-checks";
import { call, getJson } from "./support/requests";

beforeAll(() => seedDatasetAndSnapshots(3));

/** The snapshot tables as the SNAPSHOTS database itself lists them. */
async function tablesOf(series: string): Promise<string[]> {
  const { results } = await env.SNAPSHOTS.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ORDER BY name",
  )
    .bind(`${series}.%`)
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

describe("GET /api/v1/query_definitions", () => {
  it("lists the series SQL can read", async () => {
    const { res, body } = await getJson("/api/v1/query_definitions");
    expect(res.status).toBe(200);
    expect(seriesListSchema.parse(body)).toEqual({ series: ["ipv4", "certificates", "websites"] });
  });
});

describe("GET /api/v1/query_definitions/:series", () => {
  it("gives each series' typed fields and its published daily tables", async () => {
    for (const series of ["ipv4", "certificates", "websites"]) {
      const { res, body } = await getJson(`/api/v1/query_definitions/${series}`);
      expect(res.status).toBe(200);
      const details = seriesDetailsSchema.parse(body);
      expect(details.tables).toEqual(await tablesOf(series));
      expect(details.tables.length).toBeGreaterThan(1);
      // Every field is a column of every table, with the storage its type implies.
      const { results } = await env.SNAPSHOTS.prepare(
        `SELECT name, type, "notnull" FROM pragma_table_info(?)`,
      )
        .bind(details.tables[0])
        .all<{ name: string; type: string; notnull: number }>();
      const storage = {
        STRING: "TEXT",
        INTEGER: "INTEGER",
        FLOAT: "REAL",
        BOOLEAN: "INTEGER",
        TIMESTAMP: "TEXT",
      };
      expect(results.map((c) => [c.name, c.type, c.notnull])).toEqual(
        details.definition.fields.map((f) => [
          f.name,
          f.mode === "REPEATED" ? "TEXT" : storage[f.type],
          f.mode === "REQUIRED" ? 1 : 0,
        ]),
      );
    }
  });

  it("describes nested fields in dot notation and repeated fields as REPEATED", async () => {
    const { body } = await getJson("/api/v1/query_definitions/ipv4");
    const fields = seriesDetailsSchema.parse(body).definition.fields;
    expect(fields).toContainEqual({ name: "ip", type: "STRING", mode: "REQUIRED" });
    expect(fields).toContainEqual({ name: "location.country", type: "STRING", mode: "NULLABLE" });
    expect(fields).toContainEqual({ name: "autonomous_system.asn", type: "INTEGER", mode: "NULLABLE" });
    expect(fields).toContainEqual({ name: "location.coordinates.latitude", type: "FLOAT", mode: "NULLABLE" });
    expect(fields).toContainEqual({ name: "last_updated_at", type: "TIMESTAMP", mode: "NULLABLE" });
    expect(fields).toContainEqual({ name: "protocols", type: "STRING", mode: "REPEATED" });
  });

  it("answers 404 with an empty error text for an unknown series", async () => {
    for (const series of ["nope", "IPV4", "sqlite_master"]) {
      const res = await call("GET", `/api/v1/query_definitions/${series}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error_code: 404, error: "" });
    }
  });
});

describeAuthChecks([
  { method: "GET", path: "/api/v1/query_definitions" },
  { method: "GET", path: "/api/v1/query_definitions/ipv4" },
]);
