import type { Catalog, ResolvedTable, SeriesSchema } from "@scangate/sql";
import { isSnapshotSeries, parseSnapshotTableName, type SnapshotSeries } from "./definitions";
import { DAYS_TABLE, META_TABLE, SNAPSHOT_LAYOUT } from "./layout";
import { snapshotSchema } from "./series";

/**
 * What is published: the days listed in `snapshot_days`, each a table per series
 * (`ipv4.20261031`), read once per catalog. Tables built by another layout (an older seed, a
 * half-finished build) are not published: their days are ignored until the seed rebuilds them.
 */
export interface SnapshotCatalog extends Catalog {
  /** Published days, `YYYYMMDD`, oldest first. */
  readonly days: readonly string[];
  /** The published table names of a series (`ipv4.20261031`), oldest first. */
  tables(series: SnapshotSeries): string[];
  schema(series: SnapshotSeries): SeriesSchema;
}

export async function loadSnapshotCatalog(db: D1Database): Promise<SnapshotCatalog> {
  return snapshotCatalog(await readPublishedDays(db));
}

/** Where the routes read what is published: the SNAPSHOTS database in the worker. */
export interface SnapshotCatalogSource {
  /** The catalog as published now (read afresh on every call: a seed may publish meanwhile). */
  load(): Promise<SnapshotCatalog>;
}

export function d1SnapshotCatalogSource(db: D1Database): SnapshotCatalogSource {
  return { load: () => loadSnapshotCatalog(db) };
}

async function readPublishedDays(db: D1Database): Promise<string[]> {
  try {
    const { results } = await db
      .prepare(
        `SELECT day FROM ${DAYS_TABLE}
          WHERE EXISTS (SELECT 1 FROM ${META_TABLE} WHERE key = 'layout' AND value = ?)
          ORDER BY day`,
      )
      .bind(SNAPSHOT_LAYOUT)
      .all<{ day: string }>();
    return results.map((row) => row.day);
  } catch (error) {
    // Nothing published yet (or only an older layout's tables).
    if (error instanceof Error && /no such table/i.test(error.message)) return [];
    throw error;
  }
}

/** The catalog of a list of published days (`YYYYMMDD`). */
export function snapshotCatalog(publishedDays: readonly string[]): SnapshotCatalog {
  const days = [...new Set(publishedDays)].sort();
  const published = new Set(days);
  const latest = days.at(-1);
  const table = (series: SnapshotSeries, day: string): ResolvedTable => ({
    name: `${series}.${day}`,
    series,
    day,
    schema: snapshotSchema(series),
  });
  return {
    days,
    tables: (series) => days.map((day) => `${series}.${day}`),
    schema: snapshotSchema,
    resolve(name) {
      const lower = name.toLowerCase();
      // `ipv4` and `ipv4.ipv4` name the latest day.
      const [series, rest, ...more] = lower.split(".");
      if (series === undefined || !isSnapshotSeries(series) || more.length > 0) return null;
      if (rest === undefined || rest === series) return latest === undefined ? null : table(series, latest);
      const parsed = parseSnapshotTableName(lower);
      return parsed && published.has(parsed.day) ? table(parsed.series, parsed.day) : null;
    },
  };
}
