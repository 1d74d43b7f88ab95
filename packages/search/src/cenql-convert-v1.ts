import { andOf, orOf, type QueryNode, type TermValue, type Value } from "./ast";
import { QueryError, quoteToken } from "./query-error";
import { byteLength, MAX_PATTERN_BYTES } from "./patterns";
import { regexToGlobs } from "./regex-globs";
import { ownEntry } from "./registry";

/**
 * The v1 indexes' own names (`ipv4`, `websites`, `certificates` documents) and what each is on
 * the Platform: the tables `cenql-convert.ts` reads for v1 queries and `cenql-report.ts` for v1
 * report fields.
 */

/** The v1 ipv4 index's own names for what v2 hosts call otherwise. */
export const IPV4_NAMES: Readonly<Record<string, string>> = {
  ports: "services.port",
  "location.latitude": "location.coordinates.latitude",
  "location.longitude": "location.coordinates.longitude",
  "autonomous_system.routed_prefix": "autonomous_system.bgp_prefix",
  updated_at: "last_updated_at",
};

/**
 * The attributes of a distinguished name (a certificate's subject or issuer), named alike in v1,
 * v2 and the Platform, in the order certificate documents list them.
 */
export const DN_ATTRIBUTES = [
  "common_name",
  "country",
  "locality",
  "province",
  "street_address",
  "organization",
  "organizational_unit",
  "postal_code",
  "serial_number",
  "domain_component",
  "email_address",
  "given_name",
  "surname",
  "business_category",
  "organization_id",
  "jurisdiction_country",
  "jurisdiction_locality",
  "jurisdiction_province",
] as const;

/** A presented certificate's subject and issuer, attribute by attribute. */
const DN_PORT_PATHS: Readonly<Record<string, string>> = Object.fromEntries(
  ["subject", "issuer"].flatMap((part) =>
    DN_ATTRIBUTES.map((attribute) => [
      `tls.certificate.parsed.${part}.${attribute}`,
      `cert.parsed.${part}.${attribute}`,
    ]),
  ),
);

/**
 * v1 per-port paths (after `<port>.<protocol>.`) → the path in a Platform service (after
 * `host.services.`) or web property (after `web.`), which share the names of what they served.
 * v1's `get.metadata` is the software the scan recognised on the service.
 */
const PORT_PATHS: Readonly<Record<string, string>> = {
  "get.status_code": "endpoints.http.status_code",
  "get.title": "endpoints.http.html_title",
  "get.body": "endpoints.http.body",
  "get.body_sha256": "endpoints.http.body_hash_sha256",
  "get.metadata.manufacturer": "software.vendor",
  "get.metadata.product": "software.product",
  "get.metadata.version": "software.version",
  "tls.certificate.parsed.fingerprint_sha256": "cert.fingerprint_sha256",
  "tls.certificate.parsed.subject_dn": "cert.parsed.subject_dn",
  "tls.certificate.parsed.issuer_dn": "cert.parsed.issuer_dn",
  "tls.certificate.parsed.names": "cert.names",
  "tls.certificate.parsed.subject_key_info.fingerprint_sha256":
    "cert.parsed.subject_key_info.fingerprint_sha256",
  "tls.certificate.parsed.subject_key_info.key_algorithm.name":
    "cert.parsed.subject_key_info.key_algorithm.name",
  ...DN_PORT_PATHS,
  "tls.version": "tls.version_selected",
  "tls.cipher_suite.name": "tls.cipher_selected",
  "tls.jarm": "jarm.fingerprint",
  "v2.banner.raw": "ssh.endpoint_id.raw",
  "v2.banner.software": "ssh.endpoint_id.software_version",
  "v2.banner.version": "ssh.endpoint_id.protocol_version",
  "v2.server_host_key.fingerprint_sha256": "ssh.server_host_key.fingerprint_sha256",
  "starttls.banner": "smtp.banner",
  "banner.banner": "banner",
  "banner.server_version": "mysql.server_version",
  "banner.protocol_version": "mysql.protocol_version",
  "banner.ping_response": "redis.ping_response",
  "banner.version": "redis.info_response.version",
  "banner.supported_versions": "postgres.supported_versions",
};

/** A response header by its v1 name (`get.headers.content_length`), any header. */
const HEADER_REST = /^get\.headers\.([a-z0-9_]+)$/;
const HEADER_PATH = /^endpoints\.http\.headers\.([a-z0-9_]+)$/;

/** The Platform path of a v1 per-port path (after `<port>.<protocol>.`), if it has one. */
export function platformPortPath(rest: string): string | undefined {
  const path = ownEntry(PORT_PATHS, rest);
  if (path !== undefined) return path;
  const header = HEADER_REST.exec(rest)?.[1];
  return header === undefined ? undefined : `endpoints.http.headers.${header}`;
}

/** The Platform paths a website keeps per port (its HTTP answer, its TLS) → their v1 paths. */
const WEBSITE_PORT_RESTS: ReadonlyMap<string, string> = new Map(
  Object.entries(PORT_PATHS)
    .filter(([rest]) => /^(get|tls)\./.test(rest))
    .map(([rest, path]) => [path, rest]),
);

/**
 * The v1 per-port path a website keeps a web property's Platform path under (its HTTP answer
 * under `get.`, its TLS under `tls.`), if it keeps one: `platformPortPath` read the other way.
 */
export function websitePortRest(path: string): { legacy: string; tls: boolean } | undefined {
  const header = HEADER_PATH.exec(path)?.[1];
  if (header !== undefined) return { legacy: `get.headers.${header}`, tls: false };
  const legacy = WEBSITE_PORT_RESTS.get(path);
  return legacy === undefined ? undefined : { legacy, tls: legacy.startsWith("tls.") };
}

/** The Platform paths a website keeps per port, but for headers (any name): for suggestions. */
export const WEBSITE_PORT_PATHS: readonly string[] = [...WEBSITE_PORT_RESTS.keys()];

/** The per-port paths that convert, as an error lists them (the name attributes as one). */
const CONVERTIBLE_PORT_PATHS = [
  ...Object.keys(PORT_PATHS).filter((rest) => !(rest in DN_PORT_PATHS)),
  "get.headers.<name>",
  "tls.certificate.parsed.{subject,issuer}.<attribute>",
]
  .map((rest) => `<port>.<protocol>.${rest}`)
  .join(", ");

/**
 * v1 per-port values the Platform spells otherwise: a TLS version is `TLSv1.2` in v1 and
 * `tlsv1_2` on the Platform (matched with `:`, which ignores case, so the legacy index's
 * `TLSv1_2` matches too). `legacy` spells a Platform value (a report's bucket key) back.
 */
export const PORT_VALUE_SPELLINGS: Readonly<
  Record<string, { platform: (value: string) => string; legacy: (value: string) => string }>
> = {
  "tls.version": {
    platform: (value) => value.toLowerCase().replace(".", "_"),
    legacy: (value) => value.replace(/^tls/i, "TLS").replace(/^ssl/i, "SSL").replace("_", "."),
  },
};

/** A v1 per-port value as the Platform spells it (terms and set items; patterns as written). */
export function platformPortValue(rest: string, value: Value): Value {
  const spelling = ownEntry(PORT_VALUE_SPELLINGS, rest);
  if (!spelling) return value;
  const respell = <T extends Value>(v: T): T =>
    v.kind === "term" ? { ...v, text: spelling.platform(v.text) } : v;
  if (value.kind === "set") return { ...value, items: value.items.map(respell) };
  return respell(value);
}

/** `443.https.get.title` → port 443, protocol `https`, path `get.title`; null for other names. */
export function perPortName(name: string): { port: number; protocol: string; rest: string } | null {
  const match = /^(\d{1,5})\.([a-z0-9_]+)\.(.+)$/.exec(name);
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { port: Number(match[1]), protocol: match[2], rest: match[3] };
}

/** The Platform path of a v1 per-port name's rest, or an error naming the v1 name. */
export function portPath(legacy: string, rest: string, position: number): string {
  const path = platformPortPath(rest);
  if (path !== undefined) return path;
  throw new QueryError(
    `${quoteToken(legacy)} at position ${position} has no CenQL equivalent to convert to (per-port fields that convert: ${CONVERTIBLE_PORT_PATHS})`,
    position,
    legacy,
  );
}

/** v1 website fields without a Platform counterpart: a web property has no rank or place. */
const WEBSITE_WITHOUT_COUNTERPART = /^(alexa_rank|location|autonomous_system)(\.|$)/;

export function checkWebsiteField(legacy: string, position: number): void {
  if (!WEBSITE_WITHOUT_COUNTERPART.test(legacy)) return;
  throw new QueryError(
    `${quoteToken(legacy)} at position ${position} has no Platform counterpart: web properties carry neither a popularity rank nor the place of their host`,
    position,
    legacy,
  );
}

// ---- certificate tags ----------------------------------------------------------------------------

const field = (name: string, position: number, value: Value, op: "match" | "exact" = "match"): QueryNode => ({
  type: "field",
  field: name,
  position,
  op,
  value,
});
const term = (text: string, position: number): TermValue => ({
  kind: "term",
  text,
  quoted: false,
  position,
  raw: text,
});
const isTrue = (name: string, position: number) => field(name, position, term("true", position));
const not = (child: QueryNode): QueryNode => ({ type: "not", child });
/** `name < bound` (`<=` when inclusive), or `name > bound` with `above`. */
const compare = (name: string, position: number, bound: string, how: "<" | "<=" | ">"): QueryNode => {
  const end = { value: term(bound, position), inclusive: how === "<=" };
  return field(name, position, {
    kind: "range",
    lower: how === ">" ? end : null,
    upper: how === ">" ? null : end,
    position,
    raw: bound,
  });
};

const STORES = ["nss", "apple", "microsoft", "chrome"];
const trusted = (p: number) => orOf(STORES.map((s) => isTrue(`cert.validation.${s}.is_valid`, p)));
const everTrusted = (p: number) => orOf(STORES.map((s) => isTrue(`cert.validation.${s}.ever_valid`, p)));
const ca = (p: number) => isTrue("cert.parsed.extensions.basic_constraints.is_ca", p);
const selfSigned = (p: number) => isTrue("cert.parsed.signature.self_signed", p);
const NOT_AFTER = "cert.parsed.validity_period.not_after";
const NOT_BEFORE = "cert.parsed.validity_period.not_before";

/**
 * v1 certificate tags as the conditions they summarise (`legacy-certificate-tags.ts` in core
 * derives them by the same rules). `ct` and `nss-root` read fields CenQL cannot test.
 */
const CERTIFICATE_TAGS: Readonly<Record<string, (position: number) => QueryNode>> = {
  root: (p) => andOf([ca(p), selfSigned(p)]),
  intermediate: (p) => andOf([ca(p), not(selfSigned(p))]),
  leaf: (p) => not(ca(p)),
  "self-signed": selfSigned,
  expired: (p) => compare(NOT_AFTER, p, "now", "<"),
  "not-yet-valid": (p) => compare(NOT_BEFORE, p, "now", ">"),
  unexpired: (p) => andOf([compare(NOT_BEFORE, p, "now", "<="), not(compare(NOT_AFTER, p, "now", "<"))]),
  trusted,
  "was-trusted": (p) => andOf([not(trusted(p)), everTrusted(p)]),
  untrusted: (p) => not(orOf([trusted(p), everTrusted(p)])),
  dv: (p) => field("cert.validation_level", p, term("dv", p)),
  ov: (p) => field("cert.validation_level", p, term("ov", p)),
  ev: (p) => field("cert.validation_level", p, term("ev", p)),
  precert: (p) => isTrue("cert.precert", p),
  "weak-key": (p) =>
    andOf([
      field("cert.parsed.subject_key_info.key_algorithm.name", p, term("RSA", p)),
      compare("cert.parsed.subject_key_info.rsa_public_key.length", p, "2048", "<"),
    ]),
  "seen-in-scan": (p) => isTrue("cert.ever_seen_in_scan", p),
};

/** `tags: trusted` on certificates → the condition the tag summarises. */
export function certificateTagCondition(value: Value, position: number): QueryNode {
  const items = value.kind === "term" ? [value] : value.kind === "set" ? value.items : [];
  const terms = items.filter((item): item is TermValue => item.kind === "term");
  if (terms.length === 0 || terms.length !== items.length) {
    throw new QueryError(
      `certificate tags take a tag name to convert (${Object.keys(CERTIFICATE_TAGS).join(", ")}), not ${quoteToken(value.raw)} at position ${value.position}`,
      value.position,
      value.raw,
    );
  }
  return orOf(
    terms.map((item) => {
      const build = ownEntry(CERTIFICATE_TAGS, item.text.trim().toLowerCase());
      if (build === undefined) {
        throw new QueryError(
          `the certificate tag ${quoteToken(item.text)} at position ${item.position} has no Platform condition (tags that convert: ${Object.keys(CERTIFICATE_TAGS).join(", ")})`,
          item.position,
          item.raw,
        );
      }
      return build(position);
    }),
  );
}

// ---- what every CenQL engine here reads ----------------------------------------------------------

/**
 * Whether a CenQL regex (`field =~ "source"`) is one the origin's engine runs as well as the
 * Platform's: the GLOB-translatable subset (see `regexToGlobs`), within D1's pattern length.
 * Conversions that may write a regex or a wildcard check it, so what they send is never refused.
 */
export function isPortableRegex(source: string): boolean {
  const globs = regexToGlobs(source);
  return globs !== null && globs.every((glob) => byteLength(glob.body) + 2 <= MAX_PATTERN_BYTES);
}

/** Whether a wildcard pattern of `text` and one `*` fits the pattern length every engine takes. */
export function isPortablePrefix(text: string): boolean {
  return byteLength(text) + 1 <= MAX_PATTERN_BYTES;
}
