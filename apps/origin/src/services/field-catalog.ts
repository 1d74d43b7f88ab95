import type { FieldDef, FieldType, IndexRegistry } from "@scangate/search";
import { CATALOG_INDEXES, type CatalogIndex } from "../dataset/field-catalog";
import { HOT_REGISTRIES, httpBody } from "../dataset/registries";
import { schemaFamilies } from "../dataset/schema-fields";
import type { SqlDatabase } from "../db/sql-database";

/**
 * The registries search, reports and aggregates compile against: each index's hot columns
 * plus every leaf of the field catalogue the seeder wrote (dataset/field-catalog.ts). Read
 * once per isolate and dataset: the catalogue changes only with a reseed, which changes the
 * dataset fingerprint in `dataset_meta`.
 */
export type FieldRegistries = Record<CatalogIndex, IndexRegistry>;

interface CatalogRow {
  id: number;
  index_name: string;
  path: string;
  type: string;
  scope: string | null;
}

const FIELD_TYPES: readonly FieldType[] = [
  "text",
  "keyword",
  "integer",
  "float",
  "ip",
  "timestamp",
  "boolean",
];

function isCatalogIndex(name: string): name is CatalogIndex {
  return (CATALOG_INDEXES as readonly string[]).includes(name);
}

/** A per-port HTTP body hash of the v1 documents (`443.https.get.body_sha256`): its port's body is searchable through it. */
const PORT_BODY_HASH = /^(\d+\.[a-z0-9_]+\.get)\.body_sha256$/;
/** Per-port header maps of the v1 documents (`80.http.get.headers.server`). */
const PORT_HEADERS = /^(\d+\.[a-z0-9_]+\.get\.headers)\.[^.]+$/;

/**
 * The hot registries with the catalogue's leaves added (a hot field keeps its column), and what
 * the leaves make searchable beside themselves: each v1 port's body (through its hash) and
 * its headers as a key/value map.
 */
export function catalogRegistries(rows: readonly CatalogRow[]): FieldRegistries {
  const fields = Object.fromEntries(
    CATALOG_INDEXES.map((index) => [index, { ...HOT_REGISTRIES[index].fields }]),
  ) as Record<CatalogIndex, Record<string, FieldDef>>;
  const maps = Object.fromEntries(
    CATALOG_INDEXES.map((index) => [index, new Set(HOT_REGISTRIES[index].maps ?? [])]),
  ) as Record<CatalogIndex, Set<string>>;
  for (const row of rows) {
    const type = FIELD_TYPES.find((known) => known === row.type);
    if (!isCatalogIndex(row.index_name) || type === undefined) continue;
    const own = fields[row.index_name];
    if (own[row.path] !== undefined) continue;
    own[row.path] = {
      type,
      storage: row.scope ? { kind: "leaf", id: row.id, scope: row.scope } : { kind: "leaf", id: row.id },
    };
    const body = PORT_BODY_HASH.exec(row.path);
    if (body) own[`${body[1]}.body`] ??= httpBody(row.path);
    const headers = PORT_HEADERS.exec(row.path);
    if (headers?.[1]) maps[row.index_name].add(headers[1]);
  }
  const registry = (index: CatalogIndex): IndexRegistry => ({
    ...HOT_REGISTRIES[index],
    fields: fields[index],
    maps: [...maps[index]],
    families: schemaFamilies(index, Object.keys(fields[index])),
  });
  return Object.fromEntries(CATALOG_INDEXES.map((index) => [index, registry(index)])) as FieldRegistries;
}

let cached: { fingerprint: string; registries: Promise<FieldRegistries> } | undefined;

export async function fieldRegistries(db: SqlDatabase): Promise<FieldRegistries> {
  const seeded = await db
    .prepare("SELECT value FROM dataset_meta WHERE key = 'dataset'")
    .first<{ value: string }>();
  const fingerprint = seeded?.value ?? "";
  if (cached?.fingerprint !== fingerprint) {
    const registries = db
      .prepare("SELECT id, index_name, path, type, scope FROM field_catalog")
      .all<CatalogRow>()
      .then((result) => catalogRegistries(result.results));
    cached = { fingerprint, registries };
    // A failed read is not remembered: the next request tries again.
    registries.catch(() => {
      if (cached?.registries === registries) cached = undefined;
    });
  }
  return cached.registries;
}

export async function fieldRegistry(db: SqlDatabase, index: CatalogIndex): Promise<IndexRegistry> {
  return (await fieldRegistries(db))[index];
}
