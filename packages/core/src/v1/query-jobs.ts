import { z } from "zod";
import { integerParam } from "../params";

// Query jobs (POST /api/v1/query, GET /api/v1/query/:job_id[/:page]) and query definitions
// (GET /api/v1/query_definitions[/:series]).

export const FIELD_TYPES = ["STRING", "INTEGER", "FLOAT", "BOOLEAN", "TIMESTAMP"] as const;
export const fieldTypeSchema = z.enum(FIELD_TYPES);
export type FieldType = z.infer<typeof fieldTypeSchema>;

export const FIELD_MODES = ["NULLABLE", "REQUIRED", "REPEATED"] as const;
export const fieldModeSchema = z.enum(FIELD_MODES);
export type FieldMode = z.infer<typeof fieldModeSchema>;

export const schemaFieldSchema = z.object({
  type: fieldTypeSchema,
  name: z.string().min(1),
  mode: fieldModeSchema,
});
export type SchemaField = z.infer<typeof schemaFieldSchema>;

export const queryJobStartBodySchema = z.object({ query: z.string().trim().min(1, "query is required") });
export type QueryJobStartBody = z.infer<typeof queryJobStartBodySchema>;

export const QUERY_JOB_STATUSES = ["pending", "success", "error"] as const;
export const queryJobStatusSchema = z.enum(QUERY_JOB_STATUSES);
export type QueryJobStatus = z.infer<typeof queryJobStatusSchema>;

/**
 * Start and status body. A failed job says why in `error_message`: a 2xx body never has a
 * top-level `error` key (the official client would read it as a failed call).
 */
export const queryJobSchema = z.object({
  status: queryJobStatusSchema,
  job_id: z.string().min(1),
  configuration: z.object({ query: z.string() }),
  error_message: z.string().optional(),
});
export type QueryJob = z.infer<typeof queryJobSchema>;

export const queryJobParamsSchema = z.object({ job_id: z.string().min(1) });
export type QueryJobParams = z.infer<typeof queryJobParamsSchema>;

/** Result pages are 1-indexed. */
export const queryResultsParamsSchema = z.object({
  job_id: z.string().min(1),
  page: integerParam(1),
});
export type QueryResultsParams = z.infer<typeof queryResultsParamsSchema>;

export const queryResultCellSchema = z.object({ v: z.string().nullable() });
export const queryResultRowSchema = z.object({ f: z.array(queryResultCellSchema) });
export type QueryResultRow = z.infer<typeof queryResultRowSchema>;

const count = z.number().int().min(0);

/** One page of a finished job; each row has one cell per schema field, in schema order. */
export const queryResultsPageSchema = z
  .object({
    rows: z.array(queryResultRowSchema),
    statistics: z.object({ rows: count, pages: count, data_processed: count }),
    configuration: z.object({
      query: z.string(),
      page: z.number().int().min(1),
      schema: z.object({ fields: z.array(schemaFieldSchema) }),
    }),
  })
  .superRefine((page, ctx) => {
    const width = page.configuration.schema.fields.length;
    page.rows.forEach((row, i) => {
      if (row.f.length !== width) {
        ctx.addIssue({
          code: "custom",
          path: ["rows", i, "f"],
          message: `row has ${row.f.length} cells, schema has ${width} fields`,
        });
      }
    });
  });
export type QueryResultsPage = z.infer<typeof queryResultsPageSchema>;

export const seriesListSchema = z.object({ series: z.array(z.string().min(1)) });
export type SeriesList = z.infer<typeof seriesListSchema>;

/** Daily snapshot tables are named `<series>.<YYYYMMDD>`. */
export const snapshotTableNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]+\.\d{8}$/, "expected a table name <series>.<YYYYMMDD>");

export const seriesDetailsSchema = z.object({
  definition: z.object({ fields: z.array(schemaFieldSchema) }),
  tables: z.array(snapshotTableNameSchema),
});
export type SeriesDetails = z.infer<typeof seriesDetailsSchema>;

/** `:series` of query definitions and raw data. */
export const seriesParamsSchema = z.object({ series: z.string().min(1) });
export type SeriesParams = z.infer<typeof seriesParamsSchema>;
