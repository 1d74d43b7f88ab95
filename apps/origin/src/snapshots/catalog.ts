import { parseSnapshotTableName, SNAPSHOT_FIELDS, type SnapshotSeries } from "./definitions";
import type { FieldMode, FieldType } from "@scangate/core";

/**
 * What is published: the snapshot tables that exist in the SNAPSHOTS database. That database
 * holds nothing else, so its own catalog is the list (names not shaped `<series>.<YYYYMMDD>`
 * are ignored rather than trusted).
 */
export interface PublishedTables {
  /** Lowercase table names, for the SQL guard. */
  names: ReadonlySet<string>;
  /** Per series, its table names in date order. */
  bySeries: ReadonlyMap<SnapshotSeries, string[]>;
}

export async function readPublishedTables(snapshots: D1Database): Promise<PublishedTables> {
  const { results } = await snapshots
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<{ name: string }>();
  const names = new Set<string>();
  const bySeries = new Map<SnapshotSeries, string[]>();
  for (const { name } of results) {
    const parsed = parseSnapshotTableName(name);
    if (!parsed) continue;
    names.add(name.toLowerCase());
    bySeries.set(parsed.series, [...(bySeries.get(parsed.series) ?? []), name]);
  }
  return { names, bySeries };
}

/** The definition of a snapshot column, looked up by its name (case-insensitive). */
export interface ColumnDefinition {
  type: FieldType;
  mode: FieldMode;
}

/** Column definitions of the series whose tables a query reads, keyed by lowercase name. */
export function columnDefinitions(tables: readonly string[]): Map<string, ColumnDefinition> {
  const definitions = new Map<string, ColumnDefinition>();
  for (const table of tables) {
    const parsed = parseSnapshotTableName(table);
    if (!parsed) continue;
    for (const field of SNAPSHOT_FIELDS[parsed.series]) {
      const key = field.name.toLowerCase();
      if (!definitions.has(key)) definitions.set(key, { type: field.type, mode: field.mode });
    }
  }
  return definitions;
}
