import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  accountSchema,
  exportJobSchema,
  hostsAggregateResultSchema,
  hostsSearchResultSchema,
  queryJobSchema,
  rawResultDetailsSchema,
  rawSeriesDetailsSchema,
  rawSeriesListSchema,
  reportResponseSchema,
  searchResponseSchema,
  seriesDetailsSchema,
  seriesListSchema,
  v2Envelope,
} from "../src/index";

// The official client treats any body with a top-level `error` key as a failure.
const SUCCESS_BODIES: Record<string, z.ZodObject> = {
  queryJobSchema,
  seriesListSchema,
  seriesDetailsSchema,
  exportJobSchema,
  rawSeriesListSchema,
  rawSeriesDetailsSchema,
  rawResultDetailsSchema,
  searchResponseSchema,
  reportResponseSchema,
  accountSchema,
  hostsAggregateResultSchema,
  hostsSearchResultSchema,
  v2Envelope: v2Envelope(hostsAggregateResultSchema),
};

describe("2xx bodies", () => {
  it.each(Object.entries(SUCCESS_BODIES))("%s has no top-level `error` key", (_name, schema) => {
    expect(Object.keys(schema.shape)).not.toContain("error");
  });
});
