import type { FieldDef, FieldType, IndexRegistry, LeafTables } from "@scangate/search";
import { schemaFamilies } from "./schema-fields";

// The hot fields of each index: dotted field names with columns of their own in the tables of
// src/db/schema.ts (indexed, and the keyset order of host pages). Every other leaf the
// documents show, text fields included, lives in the generic leaf tables and comes from the
// field catalogue (field-catalog.ts), which the worker adds to these registries
// (services/field-catalog.ts). Types follow packages/search/src/registry.ts.

/** The generic leaf tables every index shares (migrations/0006_field_catalog.sql). */
export const LEAF_TABLES: LeafTables = { values: "field_values", words: "field_words" };

const column = (type: FieldType, name: string): FieldDef => ({
  type,
  storage: { kind: "column", column: name },
});
const side = (type: FieldType, table: string, key: string, name: string): FieldDef => ({
  type,
  storage: { kind: "side", table, key, column: name },
});
const service = (type: FieldType, name: string): FieldDef => ({
  type,
  storage: { kind: "scoped", scope: "services", column: name },
});

/**
 * HTTP bodies are kept once per distinct body (`http_bodies`, migration 0010) and found
 * through a service's body hash: `hashField` names the hash as the index holds it.
 */
export const httpBody = (hashField: string, keyPrefix?: string): FieldDef => ({
  type: "text",
  storage: {
    kind: "hashed",
    field: hashField,
    table: "http_bodies",
    key: "sha256",
    column: "body",
    ...(keyPrefix ? { keyPrefix } : {}),
  },
});

/** Host location and autonomous-system columns, shared by the v2 and v1 host indexes. */
function hostPlaceFields(asPrefixField: string, updatedField: string): Record<string, FieldDef> {
  return {
    ip: column("ip", "ip_num"),
    "location.continent": column("keyword", "continent"),
    "location.country": column("keyword", "country"),
    "location.country_code": column("keyword", "country_code"),
    "location.city": column("keyword", "city"),
    "location.province": column("keyword", "province"),
    "location.postal_code": column("keyword", "postal_code"),
    "location.timezone": column("keyword", "timezone"),
    "location.registered_country": column("keyword", "registered_country"),
    "location.registered_country_code": column("keyword", "registered_country_code"),
    "autonomous_system.asn": column("integer", "asn"),
    "autonomous_system.country_code": column("keyword", "as_country_code"),
    [`autonomous_system.${asPrefixField}`]: column("keyword", "bgp_prefix"),
    [updatedField]: column("timestamp", "last_updated_at"),
  };
}

export const hostsRegistryV2: IndexRegistry = {
  name: "hosts",
  root: { table: "hosts", key: "ip" },
  scopes: { services: { table: "host_services", key: "ip" } },
  fullText: { table: "hosts_fts" },
  leaves: LEAF_TABLES,
  maps: ["services.http.response.headers", "services.http.request.headers"],
  families: schemaFamilies("hosts"),
  fields: {
    ...hostPlaceFields("bgp_prefix", "last_updated_at"),
    service_count: column("integer", "services_count"),
    "services.http.response.body": httpBody("services.http.response.body_hashes", "sha256:"),
    "location.coordinates.latitude": column("float", "latitude"),
    "location.coordinates.longitude": column("float", "longitude"),
    "services.port": service("integer", "port"),
    "services.service_name": service("keyword", "service_name"),
    "services.transport_protocol": service("keyword", "transport_protocol"),
    "services.extended_service_name": service("keyword", "extended_service_name"),
    "services.software.vendor": service("keyword", "software_vendor"),
    "services.software.product": service("keyword", "software_product"),
    "services.software.version": service("keyword", "software_version"),
    "services.certificate": service("keyword", "certificate"),
    "services.tls.certificates.leaf_fp_sha_256": service("keyword", "certificate"),
    "services.tls.version_selected": service("keyword", "tls_version"),
    "services.http.response.status_code": service("integer", "http_status_code"),
    "services.observed_at": service("timestamp", "observed_at"),
  },
};

export const ipv4RegistryV1: IndexRegistry = {
  name: "ipv4",
  root: { table: "hosts", key: "ip" },
  scopes: {},
  fullText: { table: "hosts_fts" },
  leaves: LEAF_TABLES,
  families: schemaFamilies("ipv4"),
  fields: {
    ...hostPlaceFields("routed_prefix", "updated_at"),
    "location.latitude": column("float", "latitude"),
    "location.longitude": column("float", "longitude"),
    protocols: side("keyword", "host_protocols", "ip", "protocol"),
    ports: side("integer", "host_services", "ip", "port"),
    // Per-port names of the v1 documents, for the one that people search most.
    "443.https.tls.certificate.parsed.fingerprint_sha256": side(
      "keyword",
      "host_port_443_certificates",
      "ip",
      "certificate",
    ),
  },
};

export const certificatesRegistry: IndexRegistry = {
  name: "certificates",
  root: { table: "certificates", key: "sha256" },
  scopes: {},
  fullText: { table: "certificates_fts" },
  leaves: LEAF_TABLES,
  families: schemaFamilies("certificates"),
  fields: {
    "parsed.fingerprint_sha256": column("keyword", "sha256"),
    "parsed.fingerprint_sha1": column("keyword", "sha1"),
    "parsed.fingerprint_md5": column("keyword", "md5"),
    "parsed.tbs_fingerprint": column("keyword", "tbs_fingerprint"),
    "parsed.spki_subject_fingerprint": column("keyword", "spki_subject_fingerprint"),
    "parsed.subject_key_info.fingerprint_sha256": column("keyword", "spki_fingerprint"),
    "parsed.serial_number": column("keyword", "serial"),
    "parsed.names": side("keyword", "certificate_names", "sha256", "name"),
    "parsed.extensions.subject_alt_name.dns_names": side(
      "keyword",
      "certificate_san_names",
      "sha256",
      "name",
    ),
    "parsed.subject.common_name": column("keyword", "subject_common_name"),
    "parsed.subject.country": column("keyword", "subject_country"),
    "parsed.issuer.common_name": column("keyword", "issuer_common_name"),
    "parsed.validity.start": column("timestamp", "not_before"),
    "parsed.validity.end": column("timestamp", "not_after"),
    "parsed.validity.length": column("integer", "validity_length"),
    "parsed.subject_key_info.key_algorithm.name": column("keyword", "key_algorithm"),
    "parsed.subject_key_info.rsa_public_key.length": column("integer", "key_bits"),
    "parsed.signature_algorithm.name": column("keyword", "signature_algorithm"),
    "parsed.signature.self_signed": column("boolean", "self_signed"),
    "parsed.signature.valid": column("boolean", "signature_valid"),
    "parsed.extensions.basic_constraints.is_ca": column("boolean", "is_ca"),
    "parsed.validation_level": column("keyword", "validation_level"),
    "validation.nss.valid": column("boolean", "trusted_nss"),
    // v1 certificates named NSS trust at the top level too.
    valid_nss: column("boolean", "trusted_nss"),
    "validation.apple.valid": column("boolean", "trusted_apple"),
    "validation.microsoft.valid": column("boolean", "trusted_microsoft"),
    "validation.google_ct_primary.valid": column("boolean", "trusted_google_ct_primary"),
    "zlint.errors_present": column("boolean", "zlint_errors"),
    "metadata.parse_status": column("keyword", "parse_status"),
    "metadata.added_at": column("timestamp", "added_at"),
    "metadata.updated_at": column("timestamp", "updated_at"),
    updated_at: column("timestamp", "updated_at"),
    precert: column("boolean", "precert"),
    tags: side("keyword", "certificate_tags", "sha256", "tag"),
  },
};

export const websitesRegistry: IndexRegistry = {
  name: "websites",
  root: { table: "websites", key: "domain" },
  scopes: {},
  fullText: { table: "websites_fts" },
  leaves: LEAF_TABLES,
  families: schemaFamilies("websites"),
  fields: {
    domain: column("keyword", "domain"),
    alexa_rank: column("integer", "alexa_rank"),
    ip: column("ip", "ip_num"),
    protocols: side("keyword", "website_protocols", "domain", "protocol"),
    tags: side("keyword", "website_tags", "domain", "tag"),
    "autonomous_system.asn": column("integer", "asn"),
    "location.country_code": column("keyword", "country_code"),
    updated_at: column("timestamp", "updated_at"),
  },
};

/** The hot registry of each catalogued index. */
export const HOT_REGISTRIES = {
  hosts: hostsRegistryV2,
  ipv4: ipv4RegistryV1,
  certificates: certificatesRegistry,
  websites: websitesRegistry,
} as const;
