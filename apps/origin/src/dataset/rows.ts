import type { CatalogEntry } from "./certs/catalog";
import type { DatasetTable, Row } from "./sql";

/** Table rows for one generated record, in the column names of src/db/schema.ts. */

export type TableRow = [DatasetTable, Row];

const bool = (value: boolean) => (value ? 1 : 0);
const first = (values: string[] | undefined) => values?.[0] ?? null;

export function certificateRows(
  entry: CatalogEntry,
  document: Record<string, unknown>,
  rowid: number,
): TableRow[] {
  const f = entry.parsed.facts;
  const v = entry.chain.validation;
  const meta = document.metadata as { added_at: string };
  const tags = document.tags as string[];
  const rows: TableRow[] = [
    [
      "certificates",
      {
        rowid,
        sha256: f.sha256,
        sha1: String((entry.parsed.parsed as { fingerprint_sha1: string }).fingerprint_sha1),
        md5: String((entry.parsed.parsed as { fingerprint_md5: string }).fingerprint_md5),
        tbs_fingerprint: String((entry.parsed.parsed as { tbs_fingerprint: string }).tbs_fingerprint),
        spki_subject_fingerprint: f.spkiSubjectFingerprint,
        spki_fingerprint: String(
          (entry.parsed.parsed.subject_key_info as { fingerprint_sha256: string }).fingerprint_sha256,
        ),
        serial: String(entry.parsed.parsed.serial_number),
        issuer_dn: f.issuerDn,
        subject_dn: f.subjectDn,
        issuer_common_name: first(f.issuer.common_name),
        issuer_organization: first(f.issuer.organization),
        subject_common_name: first(f.subject.common_name),
        subject_organization: first(f.subject.organization),
        subject_country: first(f.subject.country),
        not_before: f.notBefore,
        not_after: f.notAfter,
        validity_length: Math.round((f.notAfter - f.notBefore) / 1000),
        key_algorithm: f.publicKey.algorithm,
        key_bits: f.publicKey.bits,
        signature_algorithm: String((entry.parsed.parsed.signature_algorithm as { name: string }).name),
        validation_level: f.validationLevel,
        self_signed: bool(entry.chain.selfSigned),
        signature_valid: bool(entry.chain.signatureValid),
        is_ca: bool(f.extensions.isCa === true),
        trusted_nss: bool(v.nss.valid),
        trusted_apple: bool(v.apple.valid),
        trusted_microsoft: bool(v.microsoft.valid),
        trusted_google_ct_primary: bool(v.google_ct_primary.valid),
        precert: bool(entry.precert),
        zlint_errors: bool(entry.zlint.errors_present),
        parse_status: "success",
        added_at: Date.parse(meta.added_at),
        updated_at: entry.updatedAt,
        doc: JSON.stringify(document),
      },
    ],
  ];
  // The side tables compare NOCASE, so names that differ only in case are one row.
  const sans = new Set(f.extensions.dnsNames.map((n) => n.toLowerCase()));
  const names = new Map(f.names.map((n) => [n.toLowerCase(), n]));
  for (const [lower, name] of names)
    rows.push(["certificate_names", { sha256: f.sha256, name, in_san: bool(sans.has(lower)) }]);
  for (const tag of new Set(tags)) rows.push(["certificate_tags", { sha256: f.sha256, tag }]);
  const body = [...f.names, f.subjectDn, f.issuerDn, ...tags].join(" ");
  rows.push(["certificates_fts", { rowid, body }]);
  return rows;
}

/**
 * A host as the tables index it: its documents (a generated host's, or a host a test plants),
 * from which every column is read.
 */
export interface IndexedHost {
  ip: string;
  ipNum: number;
  /** Epoch ms. */
  lastUpdatedAt: number;
  /** The current v2 document. */
  document: Record<string, unknown>;
  /** The v1 ipv4 document (v1-document.ts). */
  v1Document: Record<string, unknown>;
  historyDocuments: { validFrom: number; validTo: number | null; document: Record<string, unknown> }[];
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string | null => (typeof value === "string" ? value : null);
const number = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** The `http_bodies` row of an HTTP service's body (rows are distinct by hash; the caller drops repeats). */
export function httpBodyRow(service: Json): TableRow | null {
  const response = obj(obj(service.http).response);
  const body = text(response.body);
  const hash = (Array.isArray(response.body_hashes) ? response.body_hashes : [])
    .map(String)
    .find((h) => h.startsWith("sha256:"));
  return body !== null && hash ? ["http_bodies", { sha256: hash.slice(7), body }] : null;
}

export function hostRows(host: IndexedHost, rowid: number, serviceIdStart: number): TableRow[] {
  const doc = host.document;
  const l = obj(doc.location);
  const as = obj(doc.autonomous_system);
  const coordinates = obj(l.coordinates);
  const services = (Array.isArray(doc.services) ? doc.services : []).map(obj);
  const rows: TableRow[] = [
    [
      "hosts",
      {
        rowid,
        ip: host.ip,
        ip_num: host.ipNum,
        asn: number(as.asn),
        as_name: text(as.name),
        as_description: text(as.description),
        bgp_prefix: text(as.bgp_prefix),
        as_country_code: text(as.country_code),
        continent: text(l.continent),
        country: text(l.country),
        country_code: text(l.country_code),
        city: text(l.city),
        province: text(l.province),
        postal_code: text(l.postal_code),
        timezone: text(l.timezone),
        registered_country: text(l.registered_country),
        registered_country_code: text(l.registered_country_code),
        latitude: number(coordinates.latitude),
        longitude: number(coordinates.longitude),
        last_updated_at: host.lastUpdatedAt,
        services_count: services.length,
        doc: JSON.stringify(doc),
        v1_doc: JSON.stringify(host.v1Document),
      },
    ],
  ];
  for (const protocol of new Set((host.v1Document.protocols as string[] | undefined) ?? [])) {
    rows.push(["host_protocols", { ip: host.ip, protocol }]);
  }
  services.forEach((service, i) => {
    const software = obj(Array.isArray(service.software) ? service.software[0] : undefined);
    const response = obj(obj(service.http).response);
    const server = obj(response.headers).Server;
    rows.push([
      "host_services",
      {
        id: serviceIdStart + i,
        ip: host.ip,
        port: Number(service.port),
        transport_protocol: String(service.transport_protocol),
        service_name: String(service.service_name),
        extended_service_name: String(service.extended_service_name),
        software_vendor: text(software.vendor),
        software_product: text(software.product),
        software_version: text(software.version),
        banner: text(service.banner),
        certificate: text(service.certificate),
        tls_version: text(obj(service.tls).version_selected),
        http_status_code: number(response.status_code),
        http_title: text(response.html_title),
        http_server: Array.isArray(server) ? String(server[0]) : null,
        observed_at: Date.parse(String(service.observed_at)),
      },
    ]);
    const body = httpBodyRow(service);
    if (body) rows.push(body);
  });
  for (const version of host.historyDocuments) {
    rows.push([
      "host_history",
      {
        ip: host.ip,
        valid_from: version.validFrom,
        valid_to: version.validTo,
        doc: JSON.stringify(version.document),
      },
    ]);
  }
  const words = [
    host.ip,
    text(as.name),
    text(as.description),
    text(l.country),
    text(l.city),
    ...services.flatMap((service) => {
      const response = obj(obj(service.http).response);
      const server = obj(response.headers).Server;
      return [
        text(service.service_name),
        text(service.extended_service_name),
        ...(Array.isArray(service.software)
          ? service.software.map(obj).flatMap((s) => [text(s.vendor), text(s.product)])
          : []),
        text(response.html_title),
        Array.isArray(server) ? String(server[0]) : null,
        (text(service.banner) ?? "").slice(0, 200),
        // The start of the page, as full-text search reads it (markup and all).
        (text(response.body) ?? "").slice(0, 300),
      ];
    }),
  ];
  rows.push([
    "hosts_fts",
    { rowid, body: words.filter((w): w is string => w !== null && w.length > 0).join(" ") },
  ]);
  return rows;
}
