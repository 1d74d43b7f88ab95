/**
 * The v1 faces of a host, read off its v2 document (one record, several faces): the ipv4
 * document (`<port>.<protocol>` objects beside location and routing, as the v1 API served
 * them) and the per-port objects the websites index reuses. A planted test host gets its v1
 * face the same way as a generated one.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * The v1 protocol of a v2 service: `https` for HTTP over TLS, `unknown` for a service no
 * protocol was recognised on (v2's `banner_grab`), else the decoded block's name.
 */
export function v1ProtocolName(service: Json): string {
  if (service.http !== undefined) return service.tls !== undefined ? "https" : "http";
  if (service.service_name === "UNKNOWN") return "unknown";
  return str(service._decoded) ?? str(service.service_name)?.toLowerCase() ?? "banner";
}

/** `<port>/<protocol>`, as v1 `protocols` lists a service. */
export function v1Protocol(service: Json): string {
  return `${String(service.port)}/${v1ProtocolName(service)}`;
}

/** v1 header names: lowercased, `-` as `_` (`content_type`); values the first one sent. */
function v1Headers(headers: unknown): Json {
  const out: Json = {};
  for (const [name, values] of Object.entries(obj(headers))) {
    const [first] = list(values);
    if (typeof first === "string") out[name.toLowerCase().replace(/[^a-z0-9_]/g, "_")] = first;
  }
  return out;
}

function v1Get(http: Json, software: unknown[]): Json {
  const response = obj(http.response);
  const hashes = list(response.body_hashes).map(String);
  const sha256 = hashes.find((h) => h.startsWith("sha256:"))?.slice(7);
  const product = obj(software[0]);
  return {
    status_code: response.status_code,
    status_line: `${String(response.status_code)} ${str(response.status_reason) ?? ""}`.trim(),
    title: str(response.html_title) ?? "",
    headers: v1Headers(response.headers),
    body: str(response.body) ?? "",
    ...(sha256 ? { body_sha256: sha256 } : {}),
    ...(product.product
      ? { metadata: { manufacturer: product.vendor, product: product.product, version: product.version } }
      : {}),
  };
}

function v1Tls(tls: Json, jarm: unknown): Json {
  const certificates = obj(tls.certificates);
  const leaf = obj(certificates.leaf_data);
  const version = str(tls.version_selected) ?? "";
  return {
    version: version.replace("TLSv1_", "TLSv1."),
    cipher_suite: { name: tls.cipher_selected },
    certificate: {
      parsed: {
        fingerprint_sha256: certificates.leaf_fp_sha_256,
        subject_dn: leaf.subject_dn,
        issuer_dn: leaf.issuer_dn,
        names: leaf.names,
        subject: leaf.subject,
        issuer: leaf.issuer,
        subject_key_info: {
          key_algorithm: { name: leaf.pubkey_algorithm },
          fingerprint_sha256: obj(leaf.public_key).fingerprint_sha256,
        },
        signature: { self_signed: obj(leaf.signature).self_signed },
      },
    },
    chain: list(certificates.chain_fps_sha_256).map((fp) => ({ parsed: { fingerprint_sha256: fp } })),
    ...(typeof jarm === "string" ? { jarm } : {}),
  };
}

/** The v1 object of one service (what `<port>.<protocol>` holds). */
export function v1ServiceObject(service: Json): Json {
  const block = obj(service[str(service._decoded) ?? ""]);
  const jarm = obj(service.jarm).fingerprint;
  if (service.http !== undefined) {
    const out: Json = { get: v1Get(obj(service.http), list(service.software)) };
    if (service.tls !== undefined) out.tls = v1Tls(obj(service.tls), jarm);
    return out;
  }
  const out: Json = {};
  switch (service._decoded) {
    case "ssh": {
      const id = obj(block.endpoint_id);
      out.v2 = {
        banner: {
          raw: id.raw,
          version: id.protocol_version,
          software: id.software_version,
          ...(id.comment ? { comment: id.comment } : {}),
        },
        server_host_key: block.server_host_key,
        selected: block.algorithm_selection,
      };
      break;
    }
    case "dns":
      out.lookup = { open_resolver: block.server_type !== "AUTHORITATIVE", support: true };
      break;
    case "smtp":
      out.starttls = { banner: block.banner, ehlo: str(block.ehlo)?.replace(/\r\n250[- ]/g, " ") };
      break;
    case "mysql":
      out.banner = { protocol_version: block.protocol_version, server_version: block.server_version };
      break;
    case "redis":
      out.banner = {
        ping_response: str(block.ping_response) ?? "",
        version: str(obj(block.info_response).redis_version) ?? "",
      };
      break;
    case "rdp":
      out.banner = {
        tls: obj(block.protocol_supported_flags).tls,
        credssp: obj(block.protocol_supported_flags).credssp,
      };
      break;
    case "postgres":
      out.banner = { supported_versions: block.supported_versions };
      break;
    case "kubernetes":
      out.banner = { git_version: obj(block.version_info).git_version };
      break;
    default:
      out.banner = { banner: str(block.banner) ?? str(service.banner) ?? "" };
  }
  if (service.tls !== undefined) out.tls = v1Tls(obj(service.tls), jarm);
  return out;
}

/** The v1 ipv4 document of a v2 host document. */
export function v1HostDocument(v2: Json, updatedAt: string): Json {
  const services = list(v2.services).map(obj);
  const location = obj(v2.location);
  const coordinates = obj(location.coordinates);
  const as = obj(v2.autonomous_system);
  const doc: Json = {
    ip: v2.ip,
    protocols: services.map(v1Protocol).sort(),
    ports: [...new Set(services.map((s) => Number(s.port)))].sort((a, b) => a - b),
    location: {
      continent: location.continent,
      country: location.country,
      country_code: location.country_code,
      city: location.city,
      province: location.province,
      postal_code: location.postal_code,
      timezone: location.timezone,
      latitude: coordinates.latitude,
      longitude: coordinates.longitude,
      registered_country: location.registered_country,
      registered_country_code: location.registered_country_code,
    },
    autonomous_system: {
      asn: as.asn,
      name: as.name,
      description: as.description,
      routed_prefix: as.bgp_prefix,
      country_code: as.country_code,
    },
    tags: [...new Set(services.map(v1ProtocolName))].sort(),
    updated_at: updatedAt,
  };
  for (const service of services) {
    const port = String(service.port);
    doc[port] = { ...obj(doc[port]), [v1ProtocolName(service)]: v1ServiceObject(service) };
  }
  return doc;
}
