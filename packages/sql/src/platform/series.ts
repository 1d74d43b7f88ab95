import type { SeriesDetails, SeriesList } from "@scangate/core";
import {
  certificatesSeries,
  IPV4,
  isSnapshotSeries,
  parseSnapshotTableName,
  queryDefinitionFields,
  seriesSchemaOf,
  SNAPSHOT_SERIES,
  websitesSeries,
  type SeriesDefinition,
  type SeriesSources,
  type SnapshotSeries,
  type WebPort,
} from "../series";
import type { Catalog, ResolvedTable, SeriesSchema } from "../source";

/**
 * The three series of query jobs (`ipv4`, `certificates`, `websites`) as an edge whose upstream
 * is the Platform can fill them: the same fields and row builders as the origin's snapshot
 * tables, without the fields no Platform document carries (PLATFORM_SERIES_GAPS). The rows are
 * built from Platform documents reshaped into the legacy ones (`rows.ts`).
 *
 * The Platform keeps no daily snapshots: each series has one table, the latest data, named by
 * the series alone (`ipv4`, `ipv4.ipv4`) or by today's date (`ipv4.20261101`).
 */

/** The ports the websites series has columns for (`p443.https...`): the usual web ports. */
export const PLATFORM_WEB_PORTS: readonly WebPort[] = [
  [80, "http"],
  [443, "https"],
  [8000, "http"],
  [8080, "http"],
  [8443, "https"],
  [8888, "http"],
];

/**
 * Fields of the snapshot series that the Platform's documents cannot fill (`*` is any name at
 * that level): scan provenance and history times of hosts, an RDP server's flags, a
 * certificate's verified parents, its DER (served apart from the document) and a few trust-store
 * and metadata flags, and a website's rank and the place of its host (a web property carries
 * neither).
 */
export const PLATFORM_SERIES_GAPS: Readonly<Record<SnapshotSeries, readonly string[]>> = {
  ipv4: [
    "location_updated_at",
    "autonomous_system_updated_at",
    "services.perspective_id",
    "services.source_ip",
    "services.truncated",
    "services.rdp.selected_security_protocol",
  ],
  certificates: [
    "parents",
    "raw",
    "validation.*.blacklisted",
    "validation.*.whitelisted",
    "metadata.parse_version",
    "metadata.post_processed",
  ],
  websites: [
    "alexa_rank",
    "autonomous_system.asn",
    "autonomous_system.name",
    "autonomous_system.routed_prefix",
    "location.continent",
    "location.country",
    "location.country_code",
    "location.city",
    "updated_at",
  ],
};

export interface PlatformSeriesOptions {
  /**
   * The lints the certificates series has a field for (`zlint.lints.<name>`). The Platform
   * publishes no list of them; none by default.
   */
  lintNames?: readonly string[];
}

function matchesGap(name: string, gap: string): boolean {
  const a = name.split(".");
  const b = gap.split(".");
  return a.length === b.length && b.every((part, i) => part === "*" || part === a[i]);
}

function withoutGaps<S>(definition: SeriesDefinition<S>, gaps: readonly string[]): SeriesDefinition<S> {
  const kept = (name: string) => !gaps.some((gap) => matchesGap(name, gap));
  return {
    ...definition,
    fields: definition.fields.filter((f) => kept(f.name)),
    records: definition.records.map((r) => ({ ...r, fields: r.fields.filter((f) => kept(f.name)) })),
  };
}

export type PlatformDefinitions = { [S in SnapshotSeries]: SeriesDefinition<SeriesSources[S]> };

export function platformDefinitions(options: PlatformSeriesOptions = {}): PlatformDefinitions {
  return {
    ipv4: withoutGaps(IPV4, PLATFORM_SERIES_GAPS.ipv4),
    certificates: withoutGaps(certificatesSeries(options.lintNames ?? []), PLATFORM_SERIES_GAPS.certificates),
    websites: withoutGaps(websitesSeries(PLATFORM_WEB_PORTS), PLATFORM_SERIES_GAPS.websites),
  };
}

/** `YYYYMMDD` of an instant (UTC): the date of the Platform's one table. */
export function platformDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
}

export interface PlatformCatalog extends Catalog {
  readonly day: string;
  readonly definitions: PlatformDefinitions;
  schema(series: SnapshotSeries): SeriesSchema;
}

/** The catalog of the Platform's series on `day` (`YYYYMMDD`, today). */
export function platformCatalog(day: string, options: PlatformSeriesOptions = {}): PlatformCatalog {
  const definitions = platformDefinitions(options);
  const schemas = {
    ipv4: seriesSchemaOf(definitions.ipv4),
    certificates: seriesSchemaOf(definitions.certificates),
    websites: seriesSchemaOf(definitions.websites),
  };
  const table = (series: SnapshotSeries): ResolvedTable => ({
    name: `${series}.${day}`,
    series,
    day,
    schema: schemas[series],
  });
  return {
    day,
    definitions,
    schema: (series) => schemas[series],
    resolve(name) {
      const lower = name.toLowerCase();
      const [series, rest, ...more] = lower.split(".");
      if (series === undefined || !isSnapshotSeries(series) || more.length > 0) return null;
      if (rest === undefined || rest === series) return table(series);
      return parseSnapshotTableName(lower)?.day === day ? table(series) : null;
    },
  };
}

/** `GET /api/v1/query_definitions` of the Platform's series. */
export function platformSeriesList(): SeriesList {
  return { series: [...SNAPSHOT_SERIES] };
}

/** `GET /api/v1/query_definitions/{series}`: its fields and its one table; null for another name. */
export function platformSeriesDetails(catalog: PlatformCatalog, series: string): SeriesDetails | null {
  if (!isSnapshotSeries(series)) return null;
  return {
    definition: { fields: queryDefinitionFields(catalog.schema(series)) },
    tables: [`${series}.${catalog.day}`],
  };
}
