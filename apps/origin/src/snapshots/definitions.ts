import type { FieldMode, FieldType, SchemaField } from "@scangate/core";

/**
 * The columns of the daily snapshot tables (`ipv4.YYYYMMDD`, `certificates.YYYYMMDD`,
 * `websites.YYYYMMDD`) and where each value comes from. Column names are the documents' dot
 * paths (`location.country`), so a query quotes them: `SELECT "location.country" FROM ...`.
 *
 * Storage: STRING text, INTEGER integer, FLOAT real, BOOLEAN integer 0/1 (results show
 * "true"/"false"), TIMESTAMP ISO 8601 text in UTC (`2026-11-01T00:00:00.000Z`, which SQLite's
 * date functions read). A REPEATED column holds a JSON array as text (query it with
 * `json_each`); nulls are left out of arrays.
 */

export const SNAPSHOT_SERIES = ["ipv4", "certificates", "websites"] as const;
export type SnapshotSeries = (typeof SNAPSHOT_SERIES)[number];

export function isSnapshotSeries(value: string): value is SnapshotSeries {
  return (SNAPSHOT_SERIES as readonly string[]).includes(value);
}

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
}

export interface SnapshotField<S> extends SchemaField {
  read(source: S): unknown;
}

type Json = Record<string, unknown>;

/**
 * The value at a dot path of a parsed JSON document, or undefined. A key that itself holds
 * dots wins over descending (v1 certificate documents carry `"validation.nss.valid"` flat).
 */
export function valueAt(doc: unknown, path: string): unknown {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return undefined;
  const object = doc as Json;
  if (Object.hasOwn(object, path)) return object[path];
  const dot = path.indexOf(".");
  if (dot === -1) return undefined;
  return valueAt(object[path.slice(0, dot)], path.slice(dot + 1));
}

function field<S>(
  name: string,
  type: FieldType,
  read: (source: S) => unknown,
  mode: FieldMode = "NULLABLE",
): SnapshotField<S> {
  return { name, type, mode, read };
}

/** A NULLABLE column read from the same dot path of the document. */
function docField(name: string, type: FieldType, mode: FieldMode = "NULLABLE"): SnapshotField<Json> {
  return field(name, type, (doc) => valueAt(doc, name), mode);
}

function services(doc: Json): Json[] {
  const list = doc.services;
  return Array.isArray(list) ? list.filter((s): s is Json => typeof s === "object" && s !== null) : [];
}

function eachService(key: string): (doc: Json) => unknown[] {
  return (doc) => services(doc).map((s) => valueAt(s, key));
}

const IPV4_FIELDS: SnapshotField<Json>[] = [
  docField("ip", "STRING", "REQUIRED"),
  docField("last_updated_at", "TIMESTAMP"),
  docField("autonomous_system.asn", "INTEGER"),
  docField("autonomous_system.name", "STRING"),
  docField("autonomous_system.description", "STRING"),
  docField("autonomous_system.bgp_prefix", "STRING"),
  docField("autonomous_system.country_code", "STRING"),
  docField("location.continent", "STRING"),
  docField("location.country", "STRING"),
  docField("location.country_code", "STRING"),
  docField("location.city", "STRING"),
  docField("location.province", "STRING"),
  docField("location.postal_code", "STRING"),
  docField("location.timezone", "STRING"),
  docField("location.registered_country", "STRING"),
  docField("location.registered_country_code", "STRING"),
  docField("location.coordinates.latitude", "FLOAT"),
  docField("location.coordinates.longitude", "FLOAT"),
  field("services_count", "INTEGER", (doc) => services(doc).length, "REQUIRED"),
  /** v1 style `<port>/<protocol>`, as the v1 ipv4 index has them. */
  field(
    "protocols",
    "STRING",
    (doc) =>
      services(doc).map((s) => {
        const name = typeof s.service_name === "string" ? s.service_name : "unknown";
        return `${String(s.port)}/${name.toLowerCase()}`;
      }),
    "REPEATED",
  ),
  field("services.port", "INTEGER", eachService("port"), "REPEATED"),
  field("services.service_name", "STRING", eachService("service_name"), "REPEATED"),
  field("services.extended_service_name", "STRING", eachService("extended_service_name"), "REPEATED"),
  field("services.transport_protocol", "STRING", eachService("transport_protocol"), "REPEATED"),
  field("services.certificate", "STRING", eachService("certificate"), "REPEATED"),
  field("services.tls.version_selected", "STRING", eachService("tls.version_selected"), "REPEATED"),
  field(
    "services.http.response.status_code",
    "INTEGER",
    eachService("http.response.status_code"),
    "REPEATED",
  ),
];

const CERTIFICATE_FIELDS: SnapshotField<Json>[] = [
  docField("parsed.fingerprint_sha256", "STRING", "REQUIRED"),
  docField("parsed.fingerprint_sha1", "STRING"),
  docField("parsed.fingerprint_md5", "STRING"),
  docField("parsed.tbs_fingerprint", "STRING"),
  docField("parsed.spki_subject_fingerprint", "STRING"),
  docField("parent_spki_subject_fingerprint", "STRING"),
  docField("parsed.serial_number", "STRING"),
  docField("parsed.version", "INTEGER"),
  docField("parsed.issuer_dn", "STRING"),
  docField("parsed.subject_dn", "STRING"),
  docField("parsed.issuer.common_name", "STRING", "REPEATED"),
  docField("parsed.issuer.organization", "STRING", "REPEATED"),
  docField("parsed.subject.common_name", "STRING", "REPEATED"),
  docField("parsed.subject.organization", "STRING", "REPEATED"),
  docField("parsed.subject.country", "STRING", "REPEATED"),
  docField("parsed.names", "STRING", "REPEATED"),
  docField("parsed.validity.start", "TIMESTAMP"),
  docField("parsed.validity.end", "TIMESTAMP"),
  docField("parsed.validity.length", "INTEGER"),
  docField("parsed.validation_level", "STRING"),
  docField("parsed.signature_algorithm.name", "STRING"),
  docField("parsed.signature.self_signed", "BOOLEAN"),
  docField("parsed.signature.valid", "BOOLEAN"),
  docField("parsed.subject_key_info.key_algorithm.name", "STRING"),
  docField("parsed.subject_key_info.rsa_public_key.length", "INTEGER"),
  docField("parsed.extensions.basic_constraints.is_ca", "BOOLEAN"),
  docField("parsed.extensions.subject_alt_name.dns_names", "STRING", "REPEATED"),
  docField("validation.nss.valid", "BOOLEAN"),
  docField("validation.apple.valid", "BOOLEAN"),
  docField("validation.microsoft.valid", "BOOLEAN"),
  docField("validation.google_ct_primary.valid", "BOOLEAN"),
  docField("precert", "BOOLEAN"),
  docField("tags", "STRING", "REPEATED"),
  docField("zlint.errors_present", "BOOLEAN"),
  docField("metadata.added_at", "TIMESTAMP"),
  docField("metadata.updated_at", "TIMESTAMP"),
  docField("metadata.parse_status", "STRING"),
];

const WEBSITE_FIELDS: SnapshotField<WebsiteSource>[] = [
  field("domain", "STRING", (w) => w.domain, "REQUIRED"),
  field("alexa_rank", "INTEGER", (w) => w.alexaRank),
  field("ip", "STRING", (w) => w.ip),
  field("protocols", "STRING", (w) => w.protocols, "REPEATED"),
  field("tags", "STRING", (w) => w.tags, "REPEATED"),
  field("http.status_code", "INTEGER", (w) => w.httpStatusCode),
  field("http.title", "STRING", (w) => w.httpTitle),
  field("http.server", "STRING", (w) => w.httpServer),
  field("tls.certificate.fingerprint_sha256", "STRING", (w) => w.certificate),
  field("autonomous_system.asn", "INTEGER", (w) => w.asn),
  field("location.country_code", "STRING", (w) => w.countryCode),
  field("updated_at", "TIMESTAMP", (w) => w.updatedAt),
];

export const SNAPSHOT_FIELDS = {
  ipv4: IPV4_FIELDS,
  certificates: CERTIFICATE_FIELDS,
  websites: WEBSITE_FIELDS,
} as const;

/** The wire `definition.fields` of a series (type, name, mode). */
export function seriesSchema(series: SnapshotSeries): SchemaField[] {
  return SNAPSHOT_FIELDS[series].map(({ type, name, mode }) => ({ type, name, mode }));
}

/** Daily table names: `<series>.<YYYYMMDD>`. */
const TABLE_NAME = /^(ipv4|certificates|websites)\.(\d{8})$/;

export function parseSnapshotTableName(name: string): { series: SnapshotSeries; day: string } | null {
  const match = TABLE_NAME.exec(name.toLowerCase());
  if (!match?.[1] || !match[2]) return null;
  return { series: match[1] as SnapshotSeries, day: match[2] };
}
