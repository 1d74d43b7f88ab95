import type { FieldDef, FieldType, IndexRegistry } from "../src/index";

// Registries shaped like the origin's: a hosts index with a services scope, a side table of
// tags and a full-text table, and a certificates index without scopes or full text.
const column = (type: FieldType, name: string): FieldDef => ({
  type,
  storage: { kind: "column", column: name },
});
const service = (type: FieldType, name: string): FieldDef => ({
  type,
  storage: { kind: "scoped", scope: "services", column: name },
});

export const hostsRegistry: IndexRegistry = {
  name: "hosts",
  root: { table: "hosts", key: "ip" },
  scopes: { services: { table: "host_services", key: "ip" } },
  fullText: { table: "hosts_fts" },
  fields: {
    ip: column("ip", "ip_num"),
    "location.country": column("keyword", "country"),
    "location.city": column("keyword", "city"),
    "location.coordinates.latitude": column("float", "latitude"),
    "autonomous_system.asn": column("integer", "asn"),
    "autonomous_system.description": column("text", "as_description"),
    last_updated_at: column("timestamp", "updated_at"),
    tor_exit: column("boolean", "tor_exit"),
    tags: { type: "keyword", storage: { kind: "side", table: "host_tags", key: "ip", column: "tag" } },
    "services.port": service("integer", "port"),
    "services.service_name": service("keyword", "service_name"),
    "services.banner": service("text", "banner"),
    "services.observed_at": service("timestamp", "observed_at"),
    "services.tls.version_selected": service("keyword", "tls_version"),
  },
};

export const certificatesRegistry: IndexRegistry = {
  name: "certificates",
  root: { table: "certificates", key: "sha256" },
  scopes: {},
  fields: {
    "parsed.subject_dn": column("text", "subject_dn"),
    "parsed.names": {
      type: "keyword",
      storage: { kind: "side", table: "certificate_names", key: "sha256", column: "name" },
    },
    "parsed.validity.length": column("integer", "validity_length"),
  },
};
