import { WEBSITE_PORT_PATHS, websitePortRest } from "./cenql-convert-v1";
import { quoteToken } from "./query-error";

/**
 * CenQL field names ↔ the legacy registries' names: one table for the three resources.
 *
 * A CenQL name is its resource (`host.`, `cert.`, `web.`) and a path in the Platform's models
 * (the censys-platform SDKs' `Host`, `Service`, `Certificate`, `WebProperty`); the legacy name
 * is the path in the v2 hosts, certificates or websites index. Most paths are the same after
 * the resource; the renames below are the ones the Platform changed. A rename is a path prefix
 * on segment boundaries (`services.endpoints.http` covers `services.endpoints.http.html_title`),
 * and the longest one that applies wins. Names no rename covers map to themselves, so every
 * legacy field stays reachable as `<resource>.<legacy name>`.
 */
export type CenqlResource = "host" | "cert" | "web";

export const CENQL_RESOURCES: readonly CenqlResource[] = ["host", "cert", "web"];

/** The legacy index each resource searches. */
export type LegacyIndex = "hosts" | "certificates" | "websites";
export const CENQL_INDEX: Readonly<Record<CenqlResource, LegacyIndex>> = {
  host: "hosts",
  cert: "certificates",
  web: "websites",
};

interface Rename {
  /** Path after the resource, in the Platform's model. */
  cenql: string;
  /** Path in the legacy index. */
  legacy: string;
  /** A second legacy name of the same value: read back to `cenql`, never written. */
  legacyAlias?: true;
  /**
   * The legacy index spells the value differently: a hash with its algorithm in front
   * (`sha256:<hex>`), or a label in its legacy vocabulary. Such a rename is read one way only
   * (CenQL to legacy); the legacy name stays reachable as itself under the resource.
   */
  value?: { prefix?: string; terms?: Readonly<Record<string, string>> };
  /** A second CenQL name of a legacy field that has its own: read one way only (CenQL to legacy). */
  oneWay?: true;
}

/** A root store's trust flags: the Platform's `RootStore` names and v1's, per store. */
const ROOT_STORE_RENAMES: readonly Rename[] = [
  ["nss", "nss"],
  ["apple", "apple"],
  ["microsoft", "microsoft"],
  ["chrome", "google_ct_primary"],
].flatMap(([platform, legacy]) =>
  [
    ["is_valid", "valid"],
    ["ever_valid", "was_valid"],
    ["has_trusted_path", "trusted_path"],
  ].map(([flag, legacyFlag]) => ({
    cenql: `validation.${platform}.${flag}`,
    legacy: `validation.${legacy}.${legacyFlag}`,
  })),
);

/**
 * Labels: the Platform's values (`REMOTE_ACCESS`) and the legacy index's (`remote-access`), as
 * Censys's two products name the same finding.
 */
export const LABEL_VALUES: Readonly<Record<string, string>> = {
  C2: "c2",
  REMOTE_ACCESS: "remote-access",
  LOGIN_PAGE: "login-page",
  OPEN_DIRECTORY: "open-dir",
  HONEYPOT: "honeypot",
  TARPIT: "tarpit",
  DATABASE: "database",
  IOT: "iot",
  ICS: "ics",
  SCADA: "scada",
  FILE_SHARING: "file-sharing",
  EMAIL: "email",
  VPN: "vpn",
  CAMERA: "camera",
  NETWORK_ADMINISTRATION: "network-administration",
  DEFAULT_LANDING_PAGE: "default-landing-page",
  WEB_UI: "web-ui",
  CLOUD: "cloud",
  NAS: "nas",
  ROUTER: "router",
  FIREWALL: "firewall",
  MEDIA_SERVER: "media-server",
  SUSPICIOUS_OPEN_DIRECTORY: "suspicious-open-dir",
};

/**
 * Endpoint objects the Platform keeps under a service's `endpoints` (the SDK's
 * EndpointScanState) and the legacy index keeps on the service itself.
 */
export const ENDPOINT_OBJECTS: readonly string[] = [
  "cobalt_strike",
  "kubernetes",
  "elasticsearch",
  "prometheus",
  "jenkins",
  "argocd",
  "graphql",
  "keycloak",
  "vault",
  "wordpress",
  "open_directory",
  "fortigate",
  "jupyter",
  "ollama",
  "mcp",
];

const RENAMES: Readonly<Record<CenqlResource, readonly Rename[]>> = {
  host: [
    // Service: `protocol` is v2's service_name; the certificate is a nested Certificate.
    { cenql: "services.protocol", legacy: "services.service_name" },
    { cenql: "services.cert.fingerprint_sha256", legacy: "services.certificate" },
    {
      cenql: "services.cert.fingerprint_sha256",
      legacy: "services.tls.certificates.leaf_fp_sha_256",
      legacyAlias: true,
    },
    { cenql: "services.cert.names", legacy: "services.tls.certificates.leaf_data.names" },
    { cenql: "services.cert.parsed.subject_dn", legacy: "services.tls.certificates.leaf_data.subject_dn" },
    { cenql: "services.cert.parsed.issuer_dn", legacy: "services.tls.certificates.leaf_data.issuer_dn" },
    {
      cenql: "services.cert.tbs_fingerprint_sha256",
      legacy: "services.tls.certificates.leaf_data.tbs_fingerprint",
    },
    // Its key, which the TLS record's leaf summary names otherwise.
    {
      cenql: "services.cert.parsed.subject_key_info.fingerprint_sha256",
      legacy: "services.tls.certificates.leaf_data.public_key.fingerprint_sha256",
    },
    {
      cenql: "services.cert.parsed.subject_key_info.key_algorithm.name",
      legacy: "services.tls.certificates.leaf_data.pubkey_algorithm",
    },
    // The rest of the presented certificate's parsed data: the TLS record's leaf summary.
    { cenql: "services.cert.parsed", legacy: "services.tls.certificates.leaf_data" },
    { cenql: "services.scan_time", legacy: "services.observed_at" },
    { cenql: "services.banner_hash_sha256", legacy: "services.banner_hashes", value: { prefix: "sha256:" } },
    { cenql: "services.jarm.scan_time", legacy: "services.jarm.observed_at" },
    { cenql: "services.labels.value", legacy: "services.labels", value: { terms: LABEL_VALUES } },
    { cenql: "labels.value", legacy: "labels", value: { terms: LABEL_VALUES } },
    { cenql: "dns.reverse_dns.resolve_time", legacy: "dns.reverse_dns.resolved_at" },
    { cenql: "services.ftp.auth_tls_response", legacy: "services.ftp.auth_tls_resp" },
    // HTTP responses live under the service's endpoints (EndpointScanState.http).
    { cenql: "services.endpoints.http", legacy: "services.http.response" },
    { cenql: "services.endpoints.http.uri", legacy: "services.http.request.uri" },
    {
      cenql: "services.endpoints.http.body_hash_sha256",
      legacy: "services.http.response.body_hashes",
      value: { prefix: "sha256:" },
    },
    {
      cenql: "services.endpoints.http.body_hash_sha1",
      legacy: "services.http.response.body_hash",
      value: { prefix: "sha1:" },
    },
    { cenql: "services.endpoints.banner", legacy: "services.banner", oneWay: true },
    { cenql: "services.endpoints.port", legacy: "services.port", oneWay: true },
    ...ENDPOINT_OBJECTS.map((name) => ({ cenql: `services.endpoints.${name}`, legacy: `services.${name}` })),
  ],
  cert: [
    { cenql: "fingerprint_sha256", legacy: "parsed.fingerprint_sha256" },
    { cenql: "fingerprint_sha1", legacy: "parsed.fingerprint_sha1" },
    { cenql: "fingerprint_md5", legacy: "parsed.fingerprint_md5" },
    { cenql: "tbs_fingerprint_sha256", legacy: "parsed.tbs_fingerprint" },
    { cenql: "tbs_no_ct_fingerprint_sha256", legacy: "parsed.tbs_noct_fingerprint" },
    { cenql: "spki_subject_fingerprint_sha256", legacy: "parsed.spki_subject_fingerprint" },
    { cenql: "spki_fingerprint_sha256", legacy: "parsed.subject_key_info.fingerprint_sha256" },
    { cenql: "parent_spki_subject_fingerprint_sha256", legacy: "parent_spki_subject_fingerprint" },
    { cenql: "names", legacy: "parsed.names" },
    { cenql: "validation_level", legacy: "parsed.validation_level" },
    { cenql: "parsed.validity_period.not_before", legacy: "parsed.validity.start" },
    { cenql: "parsed.validity_period.not_after", legacy: "parsed.validity.end" },
    { cenql: "parsed.validity_period.length_seconds", legacy: "parsed.validity.length" },
    { cenql: "parse_status", legacy: "metadata.parse_status" },
    { cenql: "added_at", legacy: "metadata.added_at" },
    { cenql: "modified_at", legacy: "metadata.updated_at" },
    { cenql: "modified_at", legacy: "updated_at", legacyAlias: true },
    { cenql: "ever_seen_in_scan", legacy: "metadata.seen_in_scan" },
    // Root stores: Chrome is v1's google_ct_primary, and the Platform renamed the trust flags.
    { cenql: "validation.chrome", legacy: "validation.google_ct_primary" },
    ...ROOT_STORE_RENAMES,
  ],
  web: [
    { cenql: "hostname", legacy: "domain" },
    { cenql: "port", legacy: "ports" },
  ],
};

/** Nested scopes: CenQL path → legacy scope (conditions in `host.services: (...)` hold on one service). */
export const CENQL_SCOPES: Readonly<Record<CenqlResource, Readonly<Record<string, string>>>> = {
  host: { services: "services" },
  cert: {},
  web: {},
};

/**
 * A web property is one `hostname:port`; a legacy website keeps each port's data under
 * `<port>.<scheme>` (v1 website documents). These Platform fields read every port the
 * websites index has, so `web.endpoints.http.status_code: 200` holds when any port answers
 * 200, and paths only TLS ports have read the TLS ports alone. Which paths a website keeps, and
 * under which v1 names, is cenql-convert-v1.ts's `websitePortRest`: the v1 per-port paths that
 * convert, read the other way.
 */
const WEB_PORTS: readonly { port: number; scheme: "http" | "https" }[] = [
  { port: 80, scheme: "http" },
  { port: 443, scheme: "https" },
  { port: 8000, scheme: "http" },
  { port: 8080, scheme: "http" },
  { port: 8443, scheme: "https" },
  { port: 8888, scheme: "http" },
];

/** `rest` after `prefix` on a segment boundary, or null ("" when equal). */
function underPrefix(path: string, prefix: string): string | null {
  if (path === prefix) return "";
  return path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : null;
}

function longestRename(
  path: string,
  renames: readonly Rename[],
  from: "cenql" | "legacy",
): { rename: Rename; rest: string } | null {
  let best: { rename: Rename; rest: string } | null = null;
  for (const rename of renames) {
    if (from === "cenql" && rename.legacyAlias) continue;
    if (from === "legacy" && (rename.value || rename.oneWay)) continue;
    const rest = underPrefix(path, rename[from]);
    if (rest !== null && (best === null || rename[from].length > best.rename[from].length))
      best = { rename, rest };
  }
  return best;
}

const join = (prefix: string, rest: string): string => (rest === "" ? prefix : `${prefix}.${rest}`);

/**
 * The legacy field names a CenQL path (after its resource) reads: one name, or for the
 * per-port web fields one per port (any of them may match).
 */
export function legacyFieldNames(resource: CenqlResource, path: string): string[] {
  if (resource === "web") {
    const perPort = websitePortRest(path);
    if (perPort) {
      return WEB_PORTS.filter((port) => !perPort.tls || port.scheme === "https").map(
        ({ port, scheme }) => `${port}.${scheme}.${perPort.legacy}`,
      );
    }
  }
  const found = longestRename(path, RENAMES[resource], "cenql");
  return [found ? join(found.rename.legacy, found.rest) : path];
}

/**
 * How the legacy index spells a CenQL path's values, when it spells them differently (see
 * `Rename.value`): the text of a query's value as the legacy field holds it; null when alike.
 */
export function legacyValue(resource: CenqlResource, path: string): ((text: string) => string) | null {
  const found = longestRename(path, RENAMES[resource], "cenql");
  const value = found?.rest === "" ? found.rename.value : undefined;
  if (value === undefined) return null;
  return (text) => {
    const term = value.terms?.[text.toUpperCase()];
    if (term !== undefined) return term;
    const { prefix } = value;
    return prefix === undefined || text.toLowerCase().startsWith(prefix) ? text : `${prefix}${text}`;
  };
}

/** The CenQL path (after the resource) of a legacy field name, or null when CenQL has none. */
export function cenqlPath(resource: CenqlResource, legacy: string): string | null {
  // Per-port website fields (`443.https.get.title`) have no single Platform field.
  if (resource === "web" && /^\d+\./.test(legacy)) return null;
  const found = longestRename(legacy, RENAMES[resource], "legacy");
  if (!found) return legacy;
  // A legacy name under a renamed prefix that is itself a CenQL name elsewhere would not read
  // back to itself; such names are listed as renames of their own.
  return join(found.rename.cenql, found.rest);
}

/** `host.services.port` → { resource: "host", path: "services.port" }; the resource in any case. */
export function splitResource(name: string): { resource: CenqlResource; path: string } | null {
  const dot = name.indexOf(".");
  const head = (dot === -1 ? name : name.slice(0, dot)).toLowerCase();
  const resource = CENQL_RESOURCES.find((candidate) => candidate === head);
  if (resource === undefined) return null;
  return { resource, path: dot === -1 ? "" : name.slice(dot + 1) };
}

/** The resource a legacy-looking name most likely belongs to, for "did you mean" hints. */
function likelyResource(name: string): CenqlResource {
  if (/^(parsed|fingerprint|names|validation|zlint|ct)(\.|_|$)/.test(name)) return "cert";
  if (/^(hostname|endpoints|domain)(\.|$)/.test(name)) return "web";
  return "host";
}

/** The message for a field without a resource prefix. */
export function missingResourceMessage(name: string, position?: number): string {
  const where = position === undefined ? "" : ` at position ${position}`;
  return `field ${quoteToken(name)}${where} needs a resource prefix: host., cert. or web. (did you mean ${quoteToken(`${likelyResource(name)}.${name}`)}?)`;
}

/** Every CenQL name the renames and scopes spell out, per resource (for suggestions). */
export function knownCenqlNames(resource: CenqlResource): string[] {
  const names = new Set<string>();
  for (const rename of RENAMES[resource]) names.add(`${resource}.${rename.cenql}`);
  for (const scope of Object.keys(CENQL_SCOPES[resource])) names.add(`${resource}.${scope}`);
  if (resource === "web") for (const path of WEBSITE_PORT_PATHS) names.add(`web.${path}`);
  return [...names].sort();
}
