import type { CatalogEntry } from "./certs/catalog";
import type { GeneratedHost } from "./hosts/host";
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

export function hostRows(host: GeneratedHost, rowid: number, serviceIdStart: number): TableRow[] {
  const l = host.network.location;
  const rows: TableRow[] = [
    [
      "hosts",
      {
        rowid,
        ip: host.ip,
        ip_num: host.ipNum,
        asn: host.network.asn,
        as_name: host.network.name,
        as_description: host.network.description,
        bgp_prefix: host.network.prefix,
        as_country_code: host.network.asCountryCode,
        continent: l.continent,
        country: l.country,
        country_code: l.countryCode,
        city: l.city,
        province: l.province,
        postal_code: l.postalCode,
        timezone: l.timezone,
        registered_country: l.country,
        registered_country_code: l.countryCode,
        latitude: l.latitude,
        longitude: l.longitude,
        last_updated_at: host.lastUpdatedAt,
        services_count: host.current.length,
        doc: JSON.stringify(host.document),
        v1_doc: JSON.stringify(host.v1Document),
      },
    ],
  ];
  for (const protocol of new Set(host.current.map((s) => s.spec.v1Protocol))) {
    rows.push(["host_protocols", { ip: host.ip, protocol }]);
  }
  host.current.forEach(({ spec, observedAt }, i) => {
    const sw = spec.software[0];
    rows.push([
      "host_services",
      {
        id: serviceIdStart + i,
        ip: host.ip,
        port: spec.port,
        transport_protocol: spec.transport,
        service_name: spec.serviceName,
        extended_service_name: spec.extendedServiceName,
        software_vendor: sw?.vendor ?? null,
        software_product: sw?.product ?? null,
        software_version: sw?.version ?? null,
        banner: spec.banner,
        certificate: spec.certificate ?? null,
        tls_version: spec.tlsVersion ?? null,
        http_status_code: spec.httpStatus ?? null,
        http_title: spec.httpTitle ?? null,
        http_server: spec.httpServer ?? null,
        observed_at: observedAt,
      },
    ]);
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
    host.network.name,
    host.network.description,
    l.country,
    l.city,
    ...host.current.flatMap(({ spec }) => [
      spec.serviceName,
      spec.extendedServiceName,
      ...spec.software.flatMap((s) => [s.vendor, s.product]),
      spec.httpTitle ?? "",
      spec.httpServer ?? "",
      spec.banner.slice(0, 200),
    ]),
  ];
  rows.push(["hosts_fts", { rowid, body: words.filter((w) => w.length > 0).join(" ") }]);
  return rows;
}
