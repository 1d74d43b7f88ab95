import { legacyTlsVersion } from "@scangate/core";
import { cenqlPath } from "@scangate/search";
import type { SnapshotSeries } from "../series";

/**
 * Which series fields the Platform can search and aggregate, and under which CenQL name. A
 * field is named in CenQL as the search package's field table names its legacy path
 * (`services.service_name` → `host.services.protocol`); the fields of the `services` record
 * hold on one service (`host.services: (...)`).
 *
 * Not searchable, so evaluated over the rows only: what the legacy documents derive
 * (`protocols` apart, which has its own translation, `services_count`, `extended_service_name`,
 * certificate `tags` and `metadata.source`), what the Platform keeps in another shape (HTTP
 * headers, hashes, a certificate's CT entries, per-port website fields) and what it has no field
 * for (`last_updated_at`).
 */
export interface PlatformField {
  /** The CenQL name (`host.services.port`). */
  cenql: string;
  /** The scope its record is searched in (`host.services`), or null for a document field. */
  scope: string | null;
  /**
   * The Platform spells the values otherwise, in case only (`tlsv1_2` for `TLSv1_2`): matched
   * with the case-insensitive `:`, and still exact, since no two values differ in case alone.
   */
  caseless?: {
    /** A series value as the Platform spells it, or null when it has none. */
    toPlatform(value: string): string | null;
    /** A Platform value (an aggregate's bucket key) as the series spells it. */
    fromPlatform(value: string): string;
  };
}

const lower = (value: string) => value.toLowerCase();

const CASELESS: Readonly<Record<string, NonNullable<PlatformField["caseless"]>>> = {
  "services.tls.version_selected": {
    toPlatform: lower,
    fromPlatform: (value) => legacyTlsVersion(value) ?? value,
  },
  "services.transport_protocol": { toPlatform: lower, fromPlatform: (value) => value.toUpperCase() },
  "parsed.validation_level": {
    toPlatform: (value) => (value === "unknown" ? null : value.toLowerCase()),
    fromPlatform: (value) => value.toUpperCase() || "unknown",
  },
};

/** Series fields named otherwise than their legacy path (the ipv4 series' certificate shortcuts). */
const SERIES_NAMES: Readonly<Record<string, string>> = {
  "services.tls.certificate.fingerprint_sha256": "services.certificate",
  "services.tls.certificate.names": "services.tls.certificates.leaf_data.names",
};

const NOT_SEARCHABLE: Readonly<Record<SnapshotSeries, RegExp>> = {
  ipv4: new RegExp(
    [
      "^services_count$",
      "^protocols$",
      "^last_updated_at$",
      "^services\\.extended_service_name$",
      "^services\\.http\\.",
      "^services\\.software\\.uniform_resource_identifier$",
      "^services\\.tls\\.certificates\\.",
    ].join("|"),
  ),
  certificates:
    /^(tags|metadata\.source|ct\..*|validation_timestamp|parsed\.__expanded_names|zlint\.lints\..*)$/,
  websites: /^(?!domain$)/,
};

/** The ipv4 series' HTTP fields the Platform searches under the endpoint's response. */
const IPV4_HTTP_SEARCHABLE = /^services\.http\.response\.(status_code|status_reason|html_title|protocol)$/;

const RESOURCE: Readonly<Record<SnapshotSeries, "host" | "cert" | "web">> = {
  ipv4: "host",
  certificates: "cert",
  websites: "web",
};

/** The Platform field of a series field, or null when the Platform cannot search it. */
export function platformField(series: SnapshotSeries, name: string): PlatformField | null {
  const searchable = series === "ipv4" && IPV4_HTTP_SEARCHABLE.test(name);
  if (!searchable && NOT_SEARCHABLE[series].test(name)) return null;
  const resource = RESOURCE[series];
  const legacy = SERIES_NAMES[name] ?? name;
  const path = cenqlPath(resource, legacy);
  if (path === null) return null;
  const field: PlatformField = {
    cenql: `${resource}.${path}`,
    scope: series === "ipv4" && name.startsWith("services.") ? "host.services" : null,
  };
  const caseless = CASELESS[name];
  if (caseless) field.caseless = caseless;
  return field;
}
