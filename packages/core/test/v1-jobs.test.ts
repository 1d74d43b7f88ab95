import { describe, expect, it } from "vitest";
import {
  exportJobSchema,
  exportStartBodySchema,
  queryJobSchema,
  queryJobStartBodySchema,
  queryResultsPageSchema,
  queryResultsParamsSchema,
  seriesDetailsSchema,
  seriesListSchema,
} from "../src/index";
import { accepts, rejects } from "./schema-assertions";

const SQL = "SELECT ip FROM ipv4.20240102 LIMIT 10";

describe("query jobs", () => {
  it("start body needs a non-empty query and ignores unknown keys", () => {
    expect(accepts(queryJobStartBodySchema, { query: SQL, priority: "high" })).toEqual({ query: SQL });
    rejects(queryJobStartBodySchema, {}, ["query"]);
    rejects(queryJobStartBodySchema, { query: "  " }, ["query"]);
    rejects(queryJobStartBodySchema, { query: 42 }, ["query"]);
  });

  it("job object has status, job_id and configuration.query; a failure reason goes in error_message", () => {
    accepts(queryJobSchema, { status: "pending", job_id: "job_01HX", configuration: { query: SQL } });
    accepts(queryJobSchema, {
      status: "error",
      job_id: "job_01HX",
      configuration: { query: SQL },
      error_message: "table not found",
    });
    rejects(queryJobSchema, { status: "running", job_id: "job_01HX", configuration: { query: SQL } }, [
      "status",
    ]);
    rejects(queryJobSchema, { status: "pending", configuration: { query: SQL } }, ["job_id"]);
  });

  it("result pages are 1-indexed path segments", () => {
    expect(accepts(queryResultsParamsSchema, { job_id: "job_1", page: "2" })).toEqual({
      job_id: "job_1",
      page: 2,
    });
    rejects(queryResultsParamsSchema, { job_id: "job_1", page: "0" }, ["page"]);
    rejects(queryResultsParamsSchema, { job_id: "job_1", page: "first" }, ["page"]);
  });

  const page = () => ({
    rows: [{ f: [{ v: "8.8.8.8" }, { v: "443" }, { v: null }] }],
    statistics: { rows: 1, pages: 1, data_processed: 2048 },
    configuration: {
      query: SQL,
      page: 1,
      schema: {
        fields: [
          { type: "STRING", name: "ip", mode: "REQUIRED" },
          { type: "INTEGER", name: "port", mode: "NULLABLE" },
          { type: "TIMESTAMP", name: "updated_at", mode: "NULLABLE" },
        ],
      },
    },
  });

  it("accepts a results page whose cells are strings or null, one per schema field", () => {
    accepts(queryResultsPageSchema, page());
  });

  it("refuses a results page with a numeric cell, a short row, a bad field type or page 0", () => {
    const numeric = page();
    (numeric.rows[0]!.f[1] as { v: unknown }).v = 443;
    rejects(queryResultsPageSchema, numeric, ["rows", 0, "f", 1, "v"]);
    const short = page();
    short.rows[0]!.f.pop();
    rejects(queryResultsPageSchema, short, ["rows", 0, "f"]);
    const badType = page();
    badType.configuration.schema.fields[0]!.type = "VARCHAR";
    rejects(queryResultsPageSchema, badType);
    const zero = page();
    zero.configuration.page = 0;
    rejects(queryResultsPageSchema, zero, ["configuration", "page"]);
  });

  it("query definitions list series and give fields and <series>.<date> tables", () => {
    accepts(seriesListSchema, { series: ["ipv4", "certificates"] });
    rejects(seriesListSchema, { series: "ipv4" });
    accepts(seriesDetailsSchema, {
      definition: { fields: [{ type: "STRING", name: "ip", mode: "REQUIRED" }] },
      tables: ["ipv4.20240101", "ipv4.20240102"],
    });
    rejects(seriesDetailsSchema, { definition: { fields: [] }, tables: ["ipv4-latest"] }, ["tables", 0]);
    rejects(seriesDetailsSchema, {
      definition: { fields: [{ type: "STRING", name: "ip", mode: "OPTIONAL" }] },
      tables: [],
    });
  });
});

describe("export jobs", () => {
  it("start body fills the spec's defaults and keeps the `delimeter` spelling", () => {
    expect(accepts(exportStartBodySchema, { query: SQL })).toEqual({
      query: SQL,
      format: "csv",
      flatten: true,
      compress: false,
      delimeter: ",",
      headers: true,
    });
    expect(accepts(exportStartBodySchema, { query: SQL, format: "json", delimeter: "\t" })).toMatchObject({
      format: "json",
      delimeter: "\t",
    });
  });

  it("start body refuses an unknown format, a non-boolean flag, a long delimeter and a missing query", () => {
    rejects(exportStartBodySchema, { query: SQL, format: "xml" }, ["format"]);
    rejects(exportStartBodySchema, { query: SQL, compress: "yes" }, ["compress"]);
    rejects(exportStartBodySchema, { query: SQL, delimeter: ";;" }, ["delimeter"]);
    rejects(exportStartBodySchema, { format: "csv" }, ["query"]);
  });

  const job = () => ({
    status: "success",
    job_id: "job_01HY",
    configuration: {
      format: "json",
      compress: false,
      headers: true,
      delimiter: null,
      flatten: true,
      query: SQL,
    },
    statistics: { backend_time: 1234, result_count: null },
    download_paths: ["https://scangate.example/api/v1/export/job_01HY/files/0.json"],
  });

  it("job object accepts start and status shapes, with delimiter null, false or a string", () => {
    accepts(exportJobSchema, job());
    const { statistics: _s, download_paths: _d, ...start } = job();
    accepts(exportJobSchema, {
      ...start,
      status: "pending",
      configuration: { ...start.configuration, delimiter: false },
    });
    accepts(exportJobSchema, {
      ...job(),
      status: "expired",
      configuration: { ...job().configuration, delimiter: "," },
    });
  });

  it("job object refuses an unknown status, a delimiter of true and a relative download path", () => {
    rejects(exportJobSchema, { ...job(), status: "done" }, ["status"]);
    rejects(exportJobSchema, { ...job(), configuration: { ...job().configuration, delimiter: true } });
    rejects(exportJobSchema, { ...job(), download_paths: ["/files/0.json"] }, ["download_paths", 0]);
    rejects(exportJobSchema, { ...job(), statistics: { backend_time: "fast", result_count: 1 } });
  });
});
