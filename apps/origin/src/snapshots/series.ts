import {
  certificatesSeries,
  IPV4,
  seriesSchemaOf,
  websitesSeries,
  type SeriesDefinition,
  type SeriesSources,
  type SnapshotSeries,
  type WebPort,
} from "@scangate/sql/series";
import type { SeriesSchema } from "@scangate/sql";
import { LINT_NAMES } from "../dataset/certs/zlint";
import { SERVICE_PORTS } from "../dataset/hosts/services";

/**
 * Every snapshot series of the dataset: its fields with their readers (packages/sql's
 * definitions, with the dataset's own lint set and web ports), and the engine's schema of it.
 */

/** The web ports the dataset generator serves websites on. */
const WEB_PORTS: WebPort[] = [
  ...SERVICE_PORTS.HTTP.map((port): WebPort => [port, "http"]),
  ...SERVICE_PORTS.HTTPS.map((port): WebPort => [port, "https"]),
];

const CERTIFICATES = certificatesSeries(LINT_NAMES);
const WEBSITES = websitesSeries(WEB_PORTS);

export const SNAPSHOT_DEFINITIONS: { [S in SnapshotSeries]: SeriesDefinition<SeriesSources[S]> } = {
  ipv4: IPV4,
  certificates: CERTIFICATES,
  websites: WEBSITES,
};

const SCHEMAS: Record<SnapshotSeries, SeriesSchema> = {
  ipv4: seriesSchemaOf(IPV4),
  certificates: seriesSchemaOf(CERTIFICATES),
  websites: seriesSchemaOf(WEBSITES),
};

export function snapshotSchema(series: SnapshotSeries): SeriesSchema {
  return SCHEMAS[series];
}
