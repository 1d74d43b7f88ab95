import type { SeriesSchema } from "@scangate/sql";
import {
  seriesSchemaOf,
  type SeriesDefinition,
  type SeriesSources,
  type SnapshotSeries,
} from "./definitions";
import { CERTIFICATES } from "./fields-certificates";
import { IPV4 } from "./fields-ipv4";
import { WEBSITES } from "./fields-websites";

/** Every snapshot series: its fields with their readers, and the engine's schema of it. */

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
