import { z } from "zod";
import { httpUrlSchema, scanResultIdSchema, scanTimestampSchema } from "../formats";
import { sha256FingerprintSchema } from "../indexes";

// Raw-data metadata: GET /api/v1/data[/:series[/:result]].

const port = z.number().int().min(0).max(65535);

export const latestResultSchema = z.object({
  timestamp: scanTimestampSchema,
  name: scanResultIdSchema,
  details_url: httpUrlSchema,
});
export type LatestResult = z.infer<typeof latestResultSchema>;

export const primarySeriesEntrySchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  details_url: httpUrlSchema,
  latest_result: latestResultSchema,
});
export type PrimarySeriesEntry = z.infer<typeof primarySeriesEntrySchema>;

export const rawSeriesEntrySchema = primarySeriesEntrySchema.extend({
  protocol: z.string(),
  subprotocol: z.string(),
  destination: z.string(),
  port,
});
export type RawSeriesEntry = z.infer<typeof rawSeriesEntrySchema>;

/** Two maps keyed by series id. */
export const rawSeriesListSchema = z.object({
  primary_series: z.record(z.string(), primarySeriesEntrySchema),
  raw_series: z.record(z.string(), rawSeriesEntrySchema),
});
export type RawSeriesList = z.infer<typeof rawSeriesListSchema>;

export const rawResultRefSchema = z.object({
  timestamp: z.string(),
  id: z.string().min(1),
  details_url: httpUrlSchema,
});
export type RawResultRef = z.infer<typeof rawResultRefSchema>;

export const rawSeriesDetailsSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  description: z.string(),
  protocol: z.string(),
  subprotocol: z.string(),
  destination: z.string(),
  port,
  results: z.object({
    historical: z.array(rawResultRefSchema),
    latest: rawResultRefSchema,
  }),
});
export type RawSeriesDetails = z.infer<typeof rawSeriesDetailsSchema>;

export const rawResultFileSchema = z.object({
  file_type: z.string().min(1),
  schema: z.record(z.string(), z.looseObject({ type: z.string() })).nullable(),
  download_path: httpUrlSchema,
  sha256_fingerprint: sha256FingerprintSchema,
  size: z.number().int().min(0),
});
export type RawResultFile = z.infer<typeof rawResultFileSchema>;

/** `files` is keyed by file label. */
export const rawResultDetailsSchema = z.object({
  id: scanResultIdSchema,
  timestamp: scanTimestampSchema,
  files: z.record(z.string(), rawResultFileSchema),
});
export type RawResultDetails = z.infer<typeof rawResultDetailsSchema>;

export const rawResultParamsSchema = z.object({
  series: z.string().min(1),
  result: z.string().min(1),
});
export type RawResultParams = z.infer<typeof rawResultParamsSchema>;
