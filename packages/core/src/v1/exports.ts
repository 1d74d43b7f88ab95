import { z } from "zod";
import { httpUrlSchema } from "../formats";

// Export jobs: POST /api/v1/export, GET /api/v1/export/:job_id.

export const EXPORT_FORMATS = ["csv", "json"] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

const oneCharacter = z
  .string()
  .refine((value) => [...value].length === 1, "delimeter must be a single character");

export const exportStartBodySchema = z.object({
  query: z.string().trim().min(1, "query is required"),
  format: exportFormatSchema.default("csv"),
  flatten: z.boolean().default(true),
  compress: z.boolean().default(false),
  // The request field is spelled `delimeter` in the spec; the job object says `delimiter`.
  delimeter: oneCharacter.default(","),
  headers: z.boolean().default(true),
});
export type ExportStartBody = z.infer<typeof exportStartBodySchema>;
export type ExportStartBodyInput = z.input<typeof exportStartBodySchema>;

export const EXPORT_JOB_STATUSES = ["pending", "success", "error", "expired"] as const;
export const exportJobStatusSchema = z.enum(EXPORT_JOB_STATUSES);
export type ExportJobStatus = z.infer<typeof exportJobStatusSchema>;

export const exportJobConfigurationSchema = z.object({
  format: exportFormatSchema,
  compress: z.boolean(),
  headers: z.boolean(),
  /** null or false when unset (e.g. for JSON exports). */
  delimiter: z.union([z.null(), z.literal(false), z.string()]),
  flatten: z.boolean(),
  query: z.string(),
});
export type ExportJobConfiguration = z.infer<typeof exportJobConfigurationSchema>;

/** The options an export job keeps, as both workers store them with the job. */
export interface StoredExportOptions {
  readonly format: ExportFormat;
  readonly compress: boolean;
  readonly headers: boolean;
  /** The delimiter used (`,` unless given). */
  readonly delimiter: string;
  /** Whether the request gave `delimeter` (the job's configuration shows null when not). */
  readonly delimiterGiven: boolean;
  readonly flatten: boolean;
}

/** A job's `configuration`, from the options it keeps and its query. */
export function exportJobConfiguration(options: StoredExportOptions, query: string): ExportJobConfiguration {
  return {
    format: options.format,
    compress: options.compress,
    headers: options.headers,
    // The spec: "the delimiter is null or false when unset".
    delimiter: options.delimiterGiven ? options.delimiter : null,
    flatten: options.flatten,
    query,
  };
}

/**
 * Start body has status, job_id, configuration; the status body adds statistics and
 * download_paths (populated on success). Failure reason in `error_message`, never `error`.
 */
export const exportJobSchema = z.object({
  status: exportJobStatusSchema,
  job_id: z.string().min(1),
  configuration: exportJobConfigurationSchema,
  statistics: z
    .object({
      backend_time: z.number().min(0).nullable(),
      result_count: z.number().int().min(0).nullable(),
    })
    .optional(),
  download_paths: z.array(httpUrlSchema).optional(),
  error_message: z.string().optional(),
});
export type ExportJob = z.infer<typeof exportJobSchema>;

export const exportJobParamsSchema = z.object({ job_id: z.string().min(1) });
export type ExportJobParams = z.infer<typeof exportJobParamsSchema>;
