import type { SchemaField } from "@scangate/core";
import type { FieldDef, FieldMode, FieldType, SeriesSchema } from "../source";

/**
 * What each series of query and export jobs holds, as the SQL engine sees it (a `SeriesSchema`)
 * and where each value comes from in the legacy documents a row is built from. The field lists
 * themselves are in fields-*.ts. The origin builds its daily snapshot tables with them; an edge
 * whose upstream is the Platform builds the same rows from Platform documents reshaped into the
 * legacy ones (`../platform/`).
 *
 * Fields are named by their dot paths (`location.country`). A repeated record (`services`) is a
 * list of element objects; its fields are named `<record>.<path in the element>`
 * (`services.port`), and a field REPEATED inside an element (`services.software.product`) holds
 * an array in each element. Values are only ever read from the documents, never made up: a
 * path a document lacks is null.
 */

export const SNAPSHOT_SERIES = ["ipv4", "certificates", "websites"] as const;
export type SnapshotSeries = (typeof SNAPSHOT_SERIES)[number];

export function isSnapshotSeries(value: string): value is SnapshotSeries {
  return (SNAPSHOT_SERIES as readonly string[]).includes(value);
}

export type Json = Record<string, unknown>;

/** What a website row of the main database gives the snapshot (websites have no history). */
export interface WebsiteSource {
  domain: string;
  alexaRank: number | null;
  ip: string | null;
  httpStatusCode: number | null;
  httpTitle: string | null;
  httpServer: string | null;
  certificate: string | null;
  asn: number | null;
  countryCode: string | null;
  /** Epoch ms. */
  updatedAt: number;
  protocols: string[];
  tags: string[];
  /** The v1 website document JSON. */
  doc: string;
}

/** One host version as its fields read it. */
export interface HostRowSource {
  /** The v2 host document. */
  doc: Json;
  /** `parsed.names` of a certificate of the dataset, by SHA-256 fingerprint. */
  certificateNames(sha256: string): readonly string[] | undefined;
}

export interface CertificateRowSource {
  /** The v1 certificate document. */
  doc: Json;
}

export interface WebsiteRowSource {
  site: WebsiteSource;
  /** The v1 website document. */
  doc: Json;
}

export interface SeriesSources {
  ipv4: HostRowSource;
  certificates: CertificateRowSource;
  websites: WebsiteRowSource;
}

/** A top-level field and how its value is read from a row's source. */
export interface SnapshotField<S> extends FieldDef {
  read(source: S): unknown;
}

/** A field of a repeated record's elements; `name` is the full name (`services.port`). */
export interface ElementField<S> extends FieldDef {
  record: string;
  /** The key of the field in an element object (`port`, `software.product`). */
  key: string;
  read(element: Json, source: S): unknown;
}

/** A repeated record: one list of element objects per row. */
export interface SnapshotRecord<S> {
  name: string;
  elements(source: S): Json[];
  fields: readonly ElementField<S>[];
}

export interface SeriesDefinition<S> {
  series: SnapshotSeries;
  /** The indexed top-level field rows are ordered by and scans are narrowed with. */
  key: string;
  fields: readonly SnapshotField<S>[];
  records: readonly SnapshotRecord<S>[];
}

/**
 * The value at a dot path of a parsed JSON document, or undefined. A key that itself holds
 * dots wins over descending (v1 certificate documents may carry `"validation.nss.valid"` flat).
 */
export function valueAt(doc: unknown, path: string): unknown {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return undefined;
  const object = doc as Json;
  if (Object.hasOwn(object, path)) return object[path];
  const dot = path.indexOf(".");
  if (dot === -1) return undefined;
  return valueAt(object[path.slice(0, dot)], path.slice(dot + 1));
}

/** The objects of an array value (anything else: none). */
export function objectsOf(value: unknown): Json[] {
  return Array.isArray(value)
    ? value.filter((item): item is Json => typeof item === "object" && item !== null && !Array.isArray(item))
    : [];
}

/** A top-level field read by `read`. */
export function field<S>(
  name: string,
  type: FieldType,
  read: (source: S) => unknown,
  mode: FieldMode = "NULLABLE",
): SnapshotField<S> {
  return { name, type, mode, read };
}

/** A top-level field read from the same dot path of the row's document. */
export function docField<S extends { doc: Json }>(
  name: string,
  type: FieldType,
  mode: FieldMode = "NULLABLE",
): SnapshotField<S> {
  return field(name, type, (source) => valueAt(source.doc, name), mode);
}

/** A record field; read by default from the same dot path of the element. */
export function elementField<S>(
  record: string,
  key: string,
  type: FieldType,
  mode: FieldMode = "NULLABLE",
  read: (element: Json, source: S) => unknown = (element) => valueAt(element, key),
): ElementField<S> {
  return { name: `${record}.${key}`, record, key, type, mode, read };
}

/** The engine's view of a series: every field, record fields under their full names. */
export function seriesSchemaOf<S>(definition: SeriesDefinition<S>): SeriesSchema {
  const plain = ({ name, type, mode }: FieldDef): FieldDef => ({ name, type, mode });
  return {
    series: definition.series,
    fields: [
      ...definition.fields.map(plain),
      ...definition.records.flatMap((record) =>
        record.fields.map((f): FieldDef => ({ ...plain(f), record: record.name })),
      ),
    ],
    records: definition.records.map((record) => record.name),
  };
}

/**
 * The wire `definition.fields` of a series (type, name, mode): a field inside a repeated record
 * is REPEATED from the table's point of view, whatever its mode within one element.
 */
export function queryDefinitionFields(schema: SeriesSchema): SchemaField[] {
  return schema.fields.map(({ name, type, mode, record }) => ({
    type,
    name,
    mode: record === undefined ? mode : "REPEATED",
  }));
}

/** Daily table names: `<series>.<YYYYMMDD>`. */
const TABLE_NAME = /^(ipv4|certificates|websites)\.(\d{8})$/;

export function parseSnapshotTableName(name: string): { series: SnapshotSeries; day: string } | null {
  const match = TABLE_NAME.exec(name.toLowerCase());
  if (!match?.[1] || !match[2]) return null;
  return { series: match[1] as SnapshotSeries, day: match[2] };
}
