import { customType, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Quota counters of the origin's own accounts; credentials themselves come from configuration. */
export const accountUsage = sqliteTable("account_usage", {
  apiId: text("api_id").primaryKey(),
  used: integer("used").notNull().default(0),
  periodStart: text("period_start").notNull(),
  firstLogin: text("first_login").notNull(),
  lastLogin: text("last_login").notNull(),
});

/**
 * TEXT declared `COLLATE NOCASE`: the search compiler matches keyword and text fields with a
 * plain `=` / `LIKE`, and an index on such a column inherits the collation, so a
 * case-insensitive match stays an index lookup (see packages/search/src/registry.ts).
 */
const nocase = customType<{ data: string; driverData: string }>({
  dataType: () => "text COLLATE NOCASE",
});

// ---------------------------------------------------------------------------------------------
// Certificates (v1 index `certificates`). Root key: sha256 (lowercase hex).
// Rows are inserted with an explicit rowid so `certificates_fts.rowid` can equal it.
// ---------------------------------------------------------------------------------------------

export const certificates = sqliteTable(
  "certificates",
  {
    sha256: nocase("sha256").primaryKey(),
    sha1: nocase("sha1").notNull(),
    md5: nocase("md5").notNull(),
    tbsFingerprint: nocase("tbs_fingerprint").notNull(),
    spkiSubjectFingerprint: nocase("spki_subject_fingerprint").notNull(),
    spkiFingerprint: nocase("spki_fingerprint").notNull(),
    /** Decimal string, as `parsed.serial_number`. */
    serial: nocase("serial").notNull(),
    issuerDn: nocase("issuer_dn").notNull(),
    subjectDn: nocase("subject_dn").notNull(),
    issuerCommonName: nocase("issuer_common_name"),
    issuerOrganization: nocase("issuer_organization"),
    subjectCommonName: nocase("subject_common_name"),
    subjectOrganization: nocase("subject_organization"),
    subjectCountry: nocase("subject_country"),
    /** Epoch ms. */
    notBefore: integer("not_before").notNull(),
    notAfter: integer("not_after").notNull(),
    /** Seconds, as `parsed.validity.length`. */
    validityLength: integer("validity_length").notNull(),
    keyAlgorithm: nocase("key_algorithm").notNull(),
    keyBits: integer("key_bits").notNull(),
    signatureAlgorithm: nocase("signature_algorithm").notNull(),
    validationLevel: nocase("validation_level").notNull(),
    selfSigned: integer("self_signed").notNull(),
    signatureValid: integer("signature_valid").notNull(),
    isCa: integer("is_ca").notNull(),
    trustedNss: integer("trusted_nss").notNull(),
    trustedApple: integer("trusted_apple").notNull(),
    trustedMicrosoft: integer("trusted_microsoft").notNull(),
    trustedGoogleCtPrimary: integer("trusted_google_ct_primary").notNull(),
    precert: integer("precert").notNull(),
    /** Any zlint lint with an error result. */
    zlintErrors: integer("zlint_errors").notNull(),
    parseStatus: nocase("parse_status").notNull(),
    /** Epoch ms. */
    addedAt: integer("added_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** The full v1 certificate document JSON, exactly as view and bulk return it. */
    doc: text("doc").notNull(),
  },
  (t) => [
    index("certificates_sha1_idx").on(t.sha1),
    index("certificates_md5_idx").on(t.md5),
    index("certificates_serial_idx").on(t.serial),
    index("certificates_issuer_dn_idx").on(t.issuerDn),
    index("certificates_subject_dn_idx").on(t.subjectDn),
    index("certificates_issuer_cn_idx").on(t.issuerCommonName),
    index("certificates_issuer_org_idx").on(t.issuerOrganization),
    index("certificates_subject_cn_idx").on(t.subjectCommonName),
    index("certificates_subject_org_idx").on(t.subjectOrganization),
    index("certificates_not_before_idx").on(t.notBefore),
    index("certificates_not_after_idx").on(t.notAfter),
    index("certificates_key_algorithm_idx").on(t.keyAlgorithm, t.keyBits),
    index("certificates_trusted_nss_idx").on(t.trustedNss),
    index("certificates_spki_subject_idx").on(t.spkiSubjectFingerprint),
  ],
);

/** `parsed.names` (subject CN and SAN DNS names); `in_san` marks the SAN ones. */
export const certificateNames = sqliteTable(
  "certificate_names",
  {
    sha256: nocase("sha256").notNull(),
    name: nocase("name").notNull(),
    inSan: integer("in_san").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.name] }), index("certificate_names_name_idx").on(t.name)],
);

export const certificateTags = sqliteTable(
  "certificate_tags",
  {
    sha256: nocase("sha256").notNull(),
    tag: nocase("tag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.tag] }), index("certificate_tags_tag_idx").on(t.tag)],
);

// ---------------------------------------------------------------------------------------------
// Hosts (v2 hosts and v1 `ipv4`). Root key: ip (dotted quad). Explicit rowids as above.
// ---------------------------------------------------------------------------------------------

export const hosts = sqliteTable(
  "hosts",
  {
    ip: text("ip").primaryKey(),
    /** The IPv4 address as an unsigned 32-bit integer (CIDR and ranges are integer ranges). */
    ipNum: integer("ip_num").notNull(),
    asn: integer("asn"),
    asName: nocase("as_name"),
    asDescription: nocase("as_description"),
    bgpPrefix: nocase("bgp_prefix"),
    asCountryCode: nocase("as_country_code"),
    continent: nocase("continent"),
    country: nocase("country"),
    countryCode: nocase("country_code"),
    city: nocase("city"),
    province: nocase("province"),
    postalCode: nocase("postal_code"),
    timezone: nocase("timezone"),
    registeredCountry: nocase("registered_country"),
    registeredCountryCode: nocase("registered_country_code"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    /** Epoch ms. */
    lastUpdatedAt: integer("last_updated_at").notNull(),
    servicesCount: integer("services_count").notNull(),
    /** Current v2 host document JSON (what GET /api/v2/hosts/:ip returns inside `result`). */
    doc: text("doc").notNull(),
    /** v1 ipv4 document JSON (what GET /api/v1/view/ipv4/:ip returns). */
    v1Doc: text("v1_doc").notNull(),
  },
  (t) => [
    index("hosts_ip_num_idx").on(t.ipNum),
    // Each search column with ip_num after it: a page of matches is read in ip_num order from the
    // index (keyset pagination) instead of sorting every match.
    index("hosts_asn_ip_num_idx").on(t.asn, t.ipNum),
    index("hosts_as_name_ip_num_idx").on(t.asName, t.ipNum),
    index("hosts_country_ip_num_idx").on(t.country, t.ipNum),
    index("hosts_country_code_ip_num_idx").on(t.countryCode, t.ipNum),
    index("hosts_continent_ip_num_idx").on(t.continent, t.ipNum),
    index("hosts_city_ip_num_idx").on(t.city, t.ipNum),
    index("hosts_last_updated_at_ip_num_idx").on(t.lastUpdatedAt, t.ipNum),
  ],
);

/** v1 `protocols`: `<port>/<protocol>` strings, e.g. `443/https`. */
export const hostProtocols = sqliteTable(
  "host_protocols",
  {
    ip: text("ip").notNull(),
    protocol: nocase("protocol").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.protocol] }), index("host_protocols_protocol_idx").on(t.protocol)],
);

/** One row per current service of a host (the `services` scope of v2 search). */
export const hostServices = sqliteTable(
  "host_services",
  {
    id: integer("id").primaryKey(),
    ip: text("ip").notNull(),
    port: integer("port").notNull(),
    transportProtocol: nocase("transport_protocol").notNull(),
    serviceName: nocase("service_name").notNull(),
    extendedServiceName: nocase("extended_service_name").notNull(),
    softwareVendor: nocase("software_vendor"),
    softwareProduct: nocase("software_product"),
    softwareVersion: nocase("software_version"),
    banner: nocase("banner"),
    /** Leaf certificate SHA-256. */
    certificate: nocase("certificate"),
    tlsVersion: nocase("tls_version"),
    httpStatusCode: integer("http_status_code"),
    httpTitle: nocase("http_title"),
    httpServer: nocase("http_server"),
    /** Epoch ms. */
    observedAt: integer("observed_at").notNull(),
  },
  (t) => [
    index("host_services_ip_idx").on(t.ip),
    index("host_services_port_idx").on(t.port),
    index("host_services_service_name_idx").on(t.serviceName),
    index("host_services_certificate_idx").on(t.certificate),
    index("host_services_software_product_idx").on(t.softwareProduct),
    index("host_services_http_status_idx").on(t.httpStatusCode),
  ],
);

/** The v2 document of a host over time: the row with valid_from <= T < valid_to answers at_time T. */
export const hostHistory = sqliteTable(
  "host_history",
  {
    ip: text("ip").notNull(),
    /** Epoch ms, inclusive. */
    validFrom: integer("valid_from").notNull(),
    /** Epoch ms, exclusive; null for the current version. */
    validTo: integer("valid_to"),
    doc: text("doc").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ip, t.validFrom] })],
);

// ---------------------------------------------------------------------------------------------
// Websites (v1 index `websites`). Root key: domain. Explicit rowids as above.
// ---------------------------------------------------------------------------------------------

export const websites = sqliteTable(
  "websites",
  {
    domain: nocase("domain").primaryKey(),
    /** Popularity rank (1 = most popular), as `alexa_rank`. */
    alexaRank: integer("alexa_rank"),
    ip: text("ip"),
    ipNum: integer("ip_num"),
    httpStatusCode: integer("http_status_code"),
    httpTitle: nocase("http_title"),
    httpServer: nocase("http_server"),
    certificate: nocase("certificate"),
    asn: integer("asn"),
    countryCode: nocase("country_code"),
    /** Epoch ms. */
    updatedAt: integer("updated_at").notNull(),
    /** v1 website document JSON. */
    doc: text("doc").notNull(),
  },
  (t) => [
    index("websites_alexa_rank_idx").on(t.alexaRank),
    index("websites_ip_num_idx").on(t.ipNum),
    index("websites_certificate_idx").on(t.certificate),
    index("websites_http_server_idx").on(t.httpServer),
  ],
);

export const websiteProtocols = sqliteTable(
  "website_protocols",
  {
    domain: nocase("domain").notNull(),
    protocol: nocase("protocol").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.domain, t.protocol] }),
    index("website_protocols_protocol_idx").on(t.protocol),
  ],
);

export const websiteTags = sqliteTable(
  "website_tags",
  {
    domain: nocase("domain").notNull(),
    tag: nocase("tag").notNull(),
  },
  (t) => [primaryKey({ columns: [t.domain, t.tag] }), index("website_tags_tag_idx").on(t.tag)],
);

// The distinct HTTP bodies (`http_bodies`: sha256, body) that body searches read are in the
// hand-written migrations/0011_http_bodies.sql, beside the leaf tables below.
// The field catalogue and its leaf tables (`field_catalog`, `field_values`, `field_words`) are
// in the hand-written migrations/0006_field_catalog.sql: WITHOUT ROWID tables and an untyped
// column are beyond drizzle-kit. See src/dataset/field-catalog.ts.

/** What the seeder loaded (seed, sizes, dataset now), so a reseed with the same inputs is skipped. */
export const datasetMeta = sqliteTable("dataset_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * A field's breakdown over every document of an index (an aggregate or report with no query),
 * kept per dataset: the dataset tables change only with a reseed, which changes
 * `dataset_meta.dataset`. `buckets` holds the top AGGREGATE_BUCKETS_MAX rows as the search
 * package's statement returns them; `totals` its totals row (src/services/aggregate.ts).
 */
export const aggregateMemo = sqliteTable(
  "aggregate_memo",
  {
    dataset: text("dataset").notNull(),
    registry: text("registry").notNull(),
    field: text("field").notNull(),
    buckets: text("buckets").notNull(),
    totals: text("totals").notNull(),
  },
  (t) => [primaryKey({ columns: [t.registry, t.field] })],
);
