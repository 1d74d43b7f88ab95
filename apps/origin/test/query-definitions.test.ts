import { env } from "cloudflare:workers";
import { seriesDetailsSchema, seriesListSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDatasetAndSnapshots } from "./snapshots-fixture";
import { call, getJson } from "./support/requests";

beforeAll(() => seedDatasetAndSnapshots(3));

/** The published tables of a series, from the days the SNAPSHOTS database lists. */
async function tablesOf(series: string): Promise<string[]> {
  const { results } = await env.SNAPSHOTS.prepare("SELECT day FROM snapshot_days ORDER BY day").all<{
    day: string;
  }>();
  return results.map((r) => `${series}.${r.day}`);
}

/** Column name to declared SQL type and NOT NULL flag, across a series' tables. */
async function storedColumns(series: string): Promise<Map<string, [string, number]>> {
  const { results } = await env.SNAPSHOTS.prepare(
    `SELECT p.name, p.type, p."notnull" FROM sqlite_master AS m, pragma_table_info(m.name) AS p
      WHERE m.type = 'table' AND (m.name = ? OR m.name GLOB ?)`,
  )
    .bind(`${series}_rows`, `${series}_rows_[0-9]*`)
    .all<{ name: string; type: string; notnull: number }>();
  return new Map(results.map((c) => [c.name, [c.type, c.notnull]]));
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
    const storage = {
      STRING: "TEXT",
      INTEGER: "INTEGER",
      FLOAT: "REAL",
      BOOLEAN: "INTEGER",
      TIMESTAMP: "TEXT",
    };
    for (const series of ["ipv4", "certificates", "websites"]) {
      const { res, body } = await getJson(`/api/v1/query_definitions/${series}`);
      expect(res.status).toBe(200);
      const details = seriesDetailsSchema.parse(body);
      expect(details.tables).toEqual(await tablesOf(series));
      expect(details.tables).toHaveLength(3);
      // Every field is stored with the storage its type implies: a top-level one as its own
      // column, a record's inside its record's JSON column.
      const columns = await storedColumns(series);
      for (const system of ["row_id", "valid_from", "valid_to"]) columns.delete(system);
      const names = details.definition.fields.map((f) => f.name);
      expect(new Set(names).size).toBe(names.length);
      for (const field of details.definition.fields) {
        const column = columns.get(field.name);
        if (column === undefined) {
          expect(field.mode, field.name).toBe("REPEATED");
          expect(columns.get(field.name.split(".")[0]!), field.name).toEqual(["TEXT", 1]);
        } else if (field.mode === "REPEATED") expect(column, field.name).toEqual(["TEXT", 1]);
        else expect(column, field.name).toEqual([storage[field.type], field.mode === "REQUIRED" ? 1 : 0]);
      }
      const records = new Set(names.filter((n) => !columns.has(n)).map((n) => n.split(".")[0]));
      expect(columns.size).toBe(names.filter((n) => columns.has(n)).length + records.size);
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

  it("lists each field of a repeated record as REPEATED, whatever its mode inside one element", async () => {
    const { body } = await getJson("/api/v1/query_definitions/ipv4");
    const fields = seriesDetailsSchema.parse(body).definition.fields;
    expect(fields).toContainEqual({ name: "services.port", type: "INTEGER", mode: "REPEATED" });
    expect(fields).toContainEqual({ name: "services.service_name", type: "STRING", mode: "REPEATED" });
    expect(fields).toContainEqual({ name: "services.software.product", type: "STRING", mode: "REPEATED" });
    expect(fields).toContainEqual({
      name: "services.tls.certificate.names",
      type: "STRING",
      mode: "REPEATED",
    });
    expect(fields).toContainEqual({ name: "services.observed_at", type: "TIMESTAMP", mode: "REPEATED" });
    expect(fields.map((f) => f.name)).not.toContain("services");
    const certificates = seriesDetailsSchema.parse(
      (await getJson("/api/v1/query_definitions/certificates")).body,
    );
    expect(certificates.definition.fields).toContainEqual({
      name: "ct.index",
      type: "INTEGER",
      mode: "REPEATED",
    });
    expect(certificates.definition.fields).toContainEqual({
      name: "validation.nss.valid",
      type: "BOOLEAN",
      mode: "NULLABLE",
    });
  });

  it("answers 404 with an empty error text for an unknown series", async () => {
    for (const series of ["nope", "IPV4", "sqlite_master"]) {
      const res = await call("GET", `/api/v1/query_definitions/${series}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error_code: 404, error: "" });
    }
  });
});
