import {
  docField,
  field,
  objectsOf,
  valueAt,
  type SeriesDefinition,
  type SnapshotField,
  type WebsiteRowSource,
} from "./definitions";

/**
 * The websites series: one row per website, from the main database's website row (the site's
 * main HTTPS service) and the v1 website document. The document keeps each web service under
 * `<port>.<protocol>` (`443.https.get.title`); here those are `p<port>.<protocol>...`, as
 * BigQuery names them (a column name cannot start with a digit there).
 */

const doc = docField<WebsiteRowSource>;

/** ISO 8601 of an epoch-ms time (the main database keeps times as numbers). */
function isoTime(ms: number): string | null {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

function portFields(port: number, protocol: "http" | "https"): SnapshotField<WebsiteRowSource>[] {
  const path = `${port}.${protocol}`;
  const at = (rest: string, type: "STRING" | "INTEGER", mode: "NULLABLE" | "REPEATED" = "NULLABLE") =>
    field<WebsiteRowSource>(
      `p${path}.${rest}`,
      type,
      (source) => valueAt(source.doc, `${path}.${rest}`),
      mode,
    );
  const get = [
    at("get.status_code", "INTEGER"),
    at("get.title", "STRING"),
    at("get.headers.server", "STRING"),
    at("get.body_sha256", "STRING"),
  ];
  if (protocol === "http") return get;
  return [
    ...get,
    at("tls.version", "STRING"),
    at("tls.cipher_suite.name", "STRING"),
    at("tls.certificate.parsed.fingerprint_sha256", "STRING"),
    at("tls.certificate.parsed.subject_dn", "STRING"),
    at("tls.certificate.parsed.issuer_dn", "STRING"),
    at("tls.certificate.parsed.names", "STRING", "REPEATED"),
    at("tls.certificate.parsed.subject_key_info.key_algorithm.name", "STRING"),
    field(
      `p${path}.tls.chain.parsed.fingerprint_sha256`,
      "STRING",
      (source) =>
        objectsOf(valueAt(source.doc, `${path}.tls.chain`)).map((c) =>
          valueAt(c, "parsed.fingerprint_sha256"),
        ),
      "REPEATED",
    ),
  ];
}

/** The websites series without its per-port fields (see `websitesSeries`). */
const WEBSITES: SeriesDefinition<WebsiteRowSource> = {
  series: "websites",
  key: "domain",
  fields: [
    field("domain", "STRING", (source) => source.site.domain, "REQUIRED"),
    field("alexa_rank", "INTEGER", (source) => source.site.alexaRank),
    field("ip", "STRING", (source) => source.site.ip),
    doc("ports", "INTEGER", "REPEATED"),
    field("protocols", "STRING", (source) => source.site.protocols, "REPEATED"),
    field("tags", "STRING", (source) => source.site.tags, "REPEATED"),
    field("http.status_code", "INTEGER", (source) => source.site.httpStatusCode),
    field("http.title", "STRING", (source) => source.site.httpTitle),
    field("http.server", "STRING", (source) => source.site.httpServer),
    field("tls.certificate.fingerprint_sha256", "STRING", (source) => source.site.certificate),
    field("autonomous_system.asn", "INTEGER", (source) => source.site.asn),
    doc("autonomous_system.name", "STRING"),
    doc("autonomous_system.routed_prefix", "STRING"),
    doc("location.continent", "STRING"),
    doc("location.country", "STRING"),
    field("location.country_code", "STRING", (source) => source.site.countryCode),
    doc("location.city", "STRING"),
    field("updated_at", "TIMESTAMP", (source) => isoTime(source.site.updatedAt)),
  ],
  records: [],
};

/** A port websites are served on, and the scheme served there. */
export type WebPort = readonly [port: number, protocol: "http" | "https"];

/**
 * The websites series with the fields of each of `webPorts` (`p443.https.get.title`, ...) after
 * the others, in port order: a table has a fixed set of columns, so the caller names the ports
 * its websites are served on.
 */
export function websitesSeries(webPorts: readonly WebPort[]): SeriesDefinition<WebsiteRowSource> {
  const ports = [...webPorts].sort(([a], [b]) => a - b);
  return {
    ...WEBSITES,
    fields: [...WEBSITES.fields, ...ports.flatMap(([port, protocol]) => portFields(port, protocol))],
  };
}
