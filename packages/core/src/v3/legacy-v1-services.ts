import { legacyTlsVersion } from "./legacy-host";
import { defined, list, num, obj, str, strings, type Json } from "./legacy-json";

/**
 * The per-port blocks of v1 `ipv4` and `websites` documents (`"443": {"https": {...}}`) from the
 * Platform's services and web properties, shared by `legacy-ipv4.ts` and `legacy-website.ts`.
 *
 * A service is named as v1 names it (`legacyProtocolName`): its protocol in lower case, except
 * that HTTP over TLS is `https`. Each protocol's block holds what the legacy documents show of
 * it, read from the Platform's own block of that protocol (`ssh`, `dns`, `smtp`, ...); a
 * protocol whose Platform block is missing gets an empty block (the service is known, its
 * details are not), and nothing is made up.
 */

/** The name of a Platform service in v1's `<port>/<name>` (`https` for HTTP over TLS). */
export function legacyProtocolName(service: unknown): string {
  const s = obj(service);
  const protocol = (str(s.protocol) ?? "unknown").toLowerCase();
  return protocol === "http" && s.tls !== undefined ? "https" : protocol;
}

/** `<port>/<name>` of a Platform service. */
export function legacyProtocol(service: unknown): string {
  return `${String(num(obj(service).port))}/${legacyProtocolName(service)}`;
}

/** v1's `protocols` of a set of services: `<port>/<name>`, sorted. */
export function legacyProtocols(services: readonly unknown[]): string[] {
  return services.map(legacyProtocol).sort();
}

/** v1's `ports`: each port once, ascending. */
export function legacyPorts(services: readonly unknown[]): number[] {
  const ports = services.map((s) => num(obj(s).port)).filter((p): p is number => p !== undefined);
  return [...new Set(ports)].sort((a, b) => a - b);
}

/** v1's `tags` of a host or website: the names of its protocols, each once, sorted. */
export function legacyProtocolTags(services: readonly unknown[]): string[] {
  return [...new Set(services.map(legacyProtocolName))].sort();
}

/** v1 header names: lowercased, anything but letters, digits and `_` as `_` (`content_type`). */
const legacyHeaderName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]/g, "_");

/** v1 `headers`: each response header's first value, under its v1 name. */
function legacyHeaders(http: Json): Json {
  const out: Json = {};
  for (const [name, entry] of Object.entries(obj(http.headers))) {
    const [first] = strings(obj(entry).headers);
    if (first !== undefined) out[legacyHeaderName(name)] = first;
  }
  return out;
}

/**
 * v1 `get`: the response at `/` (status, title, headers, body and its SHA-256) and, as
 * `metadata`, the first software the scan recognised on the service.
 */
function legacyGet(http: Json, software: unknown[]): Json {
  const status = num(http.status_code);
  const product = obj(software[0]);
  return defined({
    status_code: status,
    status_line:
      status === undefined ? undefined : `${String(status)} ${str(http.status_reason) ?? ""}`.trim(),
    title: str(http.html_title) ?? "",
    headers: legacyHeaders(http),
    body: str(http.body) ?? "",
    body_sha256: str(http.body_hash_sha256),
    metadata:
      str(product.product) === undefined
        ? undefined
        : defined({
            manufacturer: str(product.vendor),
            product: str(product.product),
            version: str(product.version),
          }),
  });
}

/**
 * v1 `tls`: version (`TLSv1.2`), cipher, the leaf's parsed summary, the chain above it and the
 * service's JARM fingerprint.
 */
function legacyV1Tls(tls: Json, cert: Json, jarm: Json): Json {
  const chain = list(tls.presented_chain).map(obj);
  const parsed = obj(cert.parsed);
  const leafFingerprint =
    str(cert.fingerprint_sha256) ?? str(tls.fingerprint_sha256) ?? str(chain[0]?.fingerprint_sha256);
  const version = legacyTlsVersion(str(tls.version_selected))?.replace("_", ".");
  const keyInfo = obj(parsed.subject_key_info);
  const keyAlgorithm = str(obj(keyInfo.key_algorithm).name);
  const selfSigned = obj(parsed.signature).self_signed;
  return defined({
    version,
    cipher_suite: defined({ name: str(tls.cipher_selected) }),
    certificate: {
      parsed: defined({
        fingerprint_sha256: leafFingerprint,
        subject_dn: str(parsed.subject_dn) ?? str(chain[0]?.subject_dn),
        issuer_dn: str(parsed.issuer_dn) ?? str(chain[0]?.issuer_dn),
        names: Array.isArray(cert.names) ? strings(cert.names) : undefined,
        subject: parsed.subject === undefined ? undefined : obj(parsed.subject),
        issuer: parsed.issuer === undefined ? undefined : obj(parsed.issuer),
        subject_key_info:
          keyAlgorithm === undefined
            ? undefined
            : defined({
                key_algorithm: { name: keyAlgorithm },
                fingerprint_sha256: str(keyInfo.fingerprint_sha256),
              }),
        signature: typeof selfSigned === "boolean" ? { self_signed: selfSigned } : undefined,
      }),
    },
    chain: chain
      .slice(1)
      .map((entry) => ({ parsed: defined({ fingerprint_sha256: str(entry.fingerprint_sha256) }) })),
    jarm: str(jarm.fingerprint),
  });
}

/** The HTTP response at `/` of a service's or web property's endpoints. */
function rootHttp(endpoints: unknown): Json | undefined {
  const withHttp = list(endpoints)
    .map(obj)
    .filter((e) => e.http !== undefined);
  const root = withHttp.find((e) => (str(e.path) ?? "/") === "/") ?? withHttp[0];
  return root === undefined ? undefined : obj(root.http);
}

/** The v1 `tls` of a service or web property that has one. */
const legacyServiceTls = (s: Json) =>
  s.tls === undefined ? undefined : legacyV1Tls(obj(s.tls), obj(s.cert), obj(s.jarm));

/**
 * The v1 block of an HTTP(S) service or web property (`{"get": ..., "tls": ...}`): `source` is a
 * v3 `Service` or `Webproperty`, both of which hold `endpoints`, `software`, `tls`, `cert` and
 * `jarm`.
 */
export function legacyWebBlock(source: unknown): Json {
  const s = obj(source);
  const http = rootHttp(s.endpoints);
  return defined({
    tls: legacyServiceTls(s),
    get: http === undefined ? undefined : legacyGet(http, list(s.software)),
  });
}

/** The lines of an SMTP reply joined as one line, as v1 shows a multi-line EHLO answer. */
const oneLine = (text: string | undefined) => text?.split(/\r?\n/).join(" ");

/** What v1 shows of each protocol, from the Platform's block of that protocol. */
const V1_BLOCKS: Readonly<Record<string, (service: Json) => Json>> = {
  ssh: (s) => {
    const ssh = obj(s.ssh);
    const endpoint = obj(ssh.endpoint_id);
    return {
      v2: defined({
        banner: defined({
          raw: str(endpoint.raw),
          version: str(endpoint.protocol_version),
          software: str(endpoint.software_version),
          comment: str(endpoint.comment) || undefined,
        }),
        server_host_key: defined({
          fingerprint_sha256: str(obj(ssh.server_host_key).fingerprint_sha256),
          key_algorithm: str(obj(ssh.server_host_key).key_algorithm),
        }),
        selected: ssh.algorithm_selection === undefined ? undefined : obj(ssh.algorithm_selection),
      }),
    };
  },
  dns: (s) => {
    const type = str(obj(s.dns).server_type);
    // An authoritative-only server answers no one else's lookups: v1's open resolver flag.
    return type === undefined ? {} : { lookup: { open_resolver: type !== "AUTHORITATIVE", support: true } };
  },
  smtp: (s) => {
    const smtp = obj(s.smtp);
    return { starttls: defined({ banner: str(smtp.banner), ehlo: oneLine(str(smtp.ehlo)) }) };
  },
  ftp: (s) => ({ banner: defined({ banner: str(obj(s.ftp).banner) }) }),
  mysql: (s) => {
    const mysql = obj(s.mysql);
    return {
      banner: defined({
        protocol_version: num(mysql.protocol_version),
        server_version: str(mysql.server_version),
      }),
    };
  },
  redis: (s) => {
    const redis = obj(s.redis);
    if (Object.keys(redis).length === 0) return {};
    return {
      banner: {
        ping_response: str(redis.ping_response) ?? "",
        // The INFO reply's own name for the server's version.
        version: str(obj(redis.info_response).redis_version) ?? "",
      },
    };
  },
  postgres: (s) => ({ banner: defined({ supported_versions: str(obj(s.postgres).supported_versions) }) }),
  telnet: (s) => ({ banner: defined({ banner: str(s.banner) }) }),
  kubernetes: (s) => {
    const endpoint = list(s.endpoints)
      .map(obj)
      .find((e) => e.kubernetes !== undefined);
    const version = str(obj(obj(endpoint?.kubernetes).version_info).git_version);
    return version === undefined ? {} : { banner: { git_version: version } };
  },
};

/** The v1 block of one Platform service, under its v1 name. */
export function legacyServiceBlock(service: unknown): { name: string; block: Json } {
  const s = obj(service);
  const name = legacyProtocolName(s);
  if (name === "http" || name === "https") return { name, block: legacyWebBlock(s) };
  const build = V1_BLOCKS[name];
  const block = build ? build(s) : {};
  const tls = legacyServiceTls(s);
  return { name, block: tls === undefined ? block : { ...block, tls } };
}
