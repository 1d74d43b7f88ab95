import {
  rawResultDetailsSchema,
  rawSeriesDetailsSchema,
  rawSeriesListSchema,
  type RawResultDetails,
  type RawSeriesDetails,
  type RawSeriesList,
} from "@scangate/core";
import type { Transport } from "../transport";

type Signal = { signal?: AbortSignal };

/** Raw-data metadata (`/api/v1/data`): scan series, their scans, and a scan's files. */
export function v1RawData(transport: Transport) {
  /** Primary and raw series, keyed by series id. */
  function series(options: Signal = {}): Promise<RawSeriesList> {
    return transport.call({
      method: "GET",
      path: "/api/v1/data",
      schema: rawSeriesListSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** One series with its latest and historical scans. */
  function seriesDetails(seriesId: string, options: Signal = {}): Promise<RawSeriesDetails> {
    return transport.call({
      method: "GET",
      path: `/api/v1/data/${encodeURIComponent(seriesId)}`,
      schema: rawSeriesDetailsSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** One scan's files with their download paths and checksums. */
  function result(seriesId: string, resultId: string, options: Signal = {}): Promise<RawResultDetails> {
    return transport.call({
      method: "GET",
      path: `/api/v1/data/${encodeURIComponent(seriesId)}/${encodeURIComponent(resultId)}`,
      schema: rawResultDetailsSchema,
      idempotent: true,
      signal: options.signal,
    });
  }

  return { series, seriesDetails, result };
}
