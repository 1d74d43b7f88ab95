import {
  docField,
  elementField,
  field,
  objectsOf,
  valueAt,
  type HostRowSource,
  type Json,
  type SeriesDefinition,
  type SnapshotRecord,
} from "./definitions";

/** The ipv4 series: one row per host version, read from the v2 host document. */

function services(doc: Json): Json[] {
  return objectsOf(doc.services);
}

/** v1 style `<port>/<protocol>`, as the v1 ipv4 index has them: TLS-wrapped HTTP is `https`. */
export function v1Protocol(service: Json): string {
  const decoded =
    service.extended_service_name === "HTTPS"
      ? "https"
      : typeof service._decoded === "string"
        ? service._decoded
        : typeof service.service_name === "string"
          ? service.service_name.toLowerCase()
          : "unknown";
  return `${String(service.port)}/${decoded}`;
}

/**
 * The values of one key across a service's software entries (a service may have several). An
 * entry without the key adds nothing (a REPEATED value holds no nulls), so `software.version`
 * can be shorter than `software.product`.
 */
function eachSoftware(key: string): (service: Json) => unknown[] {
  return (service) => objectsOf(service.software).flatMap((entry) => entry[key] ?? []);
}

/** One key of each object of a service's list (`threats` → their names). */
function eachObject(list: string, key: string): (service: Json) => unknown[] {
  return (service) => objectsOf(service[list]).flatMap((entry) => entry[key] ?? []);
}

/** An HTTP response header's value (the document keeps each header as a list of values). */
function responseHeader(name: string): (service: Json) => string | null {
  const wanted = name.toLowerCase();
  return (service) => {
    const headers = valueAt(service, "http.response.headers");
    if (typeof headers !== "object" || headers === null) return null;
    for (const [key, values] of Object.entries(headers)) {
      if (key.toLowerCase() !== wanted) continue;
      const list = (Array.isArray(values) ? values : [values]).filter((v) => typeof v === "string");
      return list.length > 0 ? list.join(", ") : null;
    }
    return null;
  };
}

/** The SHA-256 of the leaf certificate a TLS service presented. */
function leafFingerprint(service: Json): string | null {
  const leaf = service.certificate ?? valueAt(service, "tls.certificates.leaf_fp_sha_256");
  return typeof leaf === "string" ? leaf : null;
}

/** The leaf's names: the dataset's certificate, else what the scan recorded of it. */
function leafNames(service: Json, source: HostRowSource): unknown {
  const leaf = leafFingerprint(service);
  if (leaf === null) return [];
  return source.certificateNames(leaf) ?? valueAt(service, "tls.certificates.leaf_data.names");
}

const record = "services";
const el = elementField<HostRowSource>;

const SERVICES: SnapshotRecord<HostRowSource> = {
  name: record,
  elements: (source) => services(source.doc),
  fields: [
    el(record, "port", "INTEGER"),
    el(record, "service_name", "STRING"),
    el(record, "extended_service_name", "STRING"),
    el(record, "transport_protocol", "STRING"),
    el(record, "banner", "STRING"),
    el(record, "observed_at", "TIMESTAMP"),
    el(record, "perspective_id", "STRING"),
    el(record, "source_ip", "STRING"),
    el(record, "truncated", "BOOLEAN"),
    el(record, "software.vendor", "STRING", "REPEATED", eachSoftware("vendor")),
    el(record, "software.product", "STRING", "REPEATED", eachSoftware("product")),
    el(record, "software.version", "STRING", "REPEATED", eachSoftware("version")),
    el(record, "software.part", "STRING", "REPEATED", eachSoftware("part")),
    el(
      record,
      "software.uniform_resource_identifier",
      "STRING",
      "REPEATED",
      eachSoftware("uniform_resource_identifier"),
    ),
    el(record, "http.request.method", "STRING"),
    el(record, "http.request.uri", "STRING"),
    el(record, "http.response.protocol", "STRING"),
    el(record, "http.response.status_code", "INTEGER"),
    el(record, "http.response.status_reason", "STRING"),
    el(record, "http.response.html_title", "STRING"),
    el(record, "http.response.headers.server", "STRING", "NULLABLE", responseHeader("Server")),
    el(record, "http.response.headers.location", "STRING", "NULLABLE", responseHeader("Location")),
    el(record, "http.response.headers.content_type", "STRING", "NULLABLE", responseHeader("Content-Type")),
    el(record, "http.response.body", "STRING"),
    el(record, "http.response.body_size", "INTEGER"),
    el(record, "http.supports_http2", "BOOLEAN"),
    el(record, "http.response.body_hash", "STRING"),
    el(record, "http.response.body_hashes", "STRING", "REPEATED"),
    el(record, "tls.version_selected", "STRING"),
    el(record, "tls.cipher_selected", "STRING"),
    el(record, "tls.certificate.fingerprint_sha256", "STRING", "NULLABLE", leafFingerprint),
    el(record, "tls.certificate.names", "STRING", "REPEATED", leafNames),
    el(record, "tls.certificates.chain_fps_sha_256", "STRING", "REPEATED"),
    el(record, "tls.certificates.leaf_data.subject_dn", "STRING"),
    el(record, "tls.certificates.leaf_data.issuer_dn", "STRING"),
    el(record, "tls.certificates.leaf_data.pubkey_algorithm", "STRING"),
    el(record, "tls.certificates.leaf_data.pubkey_bit_size", "INTEGER"),
    el(record, "ssh.endpoint_id.raw", "STRING"),
    el(record, "ssh.endpoint_id.protocol_version", "STRING"),
    el(record, "ssh.endpoint_id.software_version", "STRING"),
    el(record, "ssh.server_host_key.fingerprint_sha256", "STRING"),
    el(record, "ssh.hassh_fingerprint", "STRING"),
    el(record, "dns.server_type", "STRING"),
    el(record, "dns.r_code", "STRING"),
    el(record, "dns.resolves_correctly", "BOOLEAN"),
    el(record, "smtp.ehlo", "STRING"),
    el(record, "smtp.start_tls", "STRING"),
    el(record, "ftp.auth_tls_resp", "STRING"),
    el(record, "mysql.server_version", "STRING"),
    el(record, "mysql.protocol_version", "INTEGER"),
    el(record, "redis.auth_response", "STRING"),
    el(record, "redis.info_response.redis_version", "STRING"),
    el(record, "redis.info_response.os", "STRING"),
    el(record, "rdp.selected_security_protocol", "STRING"),
    el(record, "postgres.supported_versions", "STRING"),
    el(record, "labels", "STRING", "REPEATED"),
    el(record, "banner_hashes", "STRING", "REPEATED"),
    el(record, "jarm.fingerprint", "STRING"),
    el(record, "tls.ja4s", "STRING"),
    el(record, "threats.name", "STRING", "REPEATED", eachObject("threats", "name")),
    el(record, "vulns.id", "STRING", "REPEATED", eachObject("vulns", "id")),
  ],
};

const doc = docField<HostRowSource>;

export const IPV4: SeriesDefinition<HostRowSource> = {
  series: "ipv4",
  key: "ip",
  fields: [
    doc("ip", "STRING", "REQUIRED"),
    doc("last_updated_at", "TIMESTAMP"),
    doc("location_updated_at", "TIMESTAMP"),
    doc("autonomous_system_updated_at", "TIMESTAMP"),
    doc("autonomous_system.asn", "INTEGER"),
    doc("autonomous_system.name", "STRING"),
    doc("autonomous_system.description", "STRING"),
    doc("autonomous_system.bgp_prefix", "STRING"),
    doc("autonomous_system.country_code", "STRING"),
    doc("location.continent", "STRING"),
    doc("location.country", "STRING"),
    doc("location.country_code", "STRING"),
    doc("location.city", "STRING"),
    doc("location.province", "STRING"),
    doc("location.postal_code", "STRING"),
    doc("location.timezone", "STRING"),
    doc("location.registered_country", "STRING"),
    doc("location.registered_country_code", "STRING"),
    doc("location.coordinates.latitude", "FLOAT"),
    doc("location.coordinates.longitude", "FLOAT"),
    doc("dns.names", "STRING", "REPEATED"),
    doc("dns.reverse_dns.names", "STRING", "REPEATED"),
    doc("labels", "STRING", "REPEATED"),
    doc("operating_system.vendor", "STRING"),
    doc("operating_system.product", "STRING"),
    doc("whois.organization.name", "STRING"),
    doc("whois.network.name", "STRING"),
    field("services_count", "INTEGER", (source) => services(source.doc).length, "REQUIRED"),
    field("protocols", "STRING", (source) => services(source.doc).map(v1Protocol), "REPEATED"),
  ],
  records: [SERVICES],
};
