import { LABEL_VALUES } from "@scangate/search";
import type { V3Attribute } from "@scangate/core";

/**
 * The parts of a v2 service (and host) the Platform spells differently, reshaped into the
 * SDK's models: labels (`Label`, in the Platform's vocabulary), JARM (`JarmScan`), protocol
 * blocks whose v2 shape differs (telnet options as maps, RDP flags, the FTP responses), and the
 * Attribute lists of software, hardware and operating systems.
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Legacy label (`remote-access`) → the Platform's (`REMOTE_ACCESS`). */
const PLATFORM_LABELS = new Map(Object.entries(LABEL_VALUES).map(([platform, legacy]) => [legacy, platform]));

/** v2 labels (strings) as the SDK's `Label` objects. */
export function v3Labels(labels: unknown): { value: string; source: string; confidence: number }[] {
  return list(labels).map((label) => {
    const legacy = String(label);
    return {
      value: PLATFORM_LABELS.get(legacy) ?? legacy.toUpperCase().replace(/-/g, "_"),
      source: "censys",
      confidence: 1,
    };
  });
}

/** v2 software entries (CPE in `uniform_resource_identifier`) as the Platform's `Attribute`. */
export function v3Attribute(entry: unknown): V3Attribute {
  const s = obj(entry);
  return {
    cpe: str(s.uniform_resource_identifier),
    part: str(s.part),
    vendor: str(s.vendor),
    product: str(s.product),
    version: str(s.version),
    source: str(s.source),
  };
}

export function v3Software(software: unknown): V3Attribute[] {
  return list(software).map(v3Attribute);
}

/** The v2 `jarm` block (`observed_at`) as the SDK's `JarmScan` (`scan_time`). */
export function v3Jarm(jarm: unknown, service: Json, ip: string | undefined): Json | undefined {
  const j = obj(jarm);
  if (str(j.fingerprint) === undefined) return undefined;
  return {
    fingerprint: j.fingerprint,
    cipher_and_version_fingerprint: j.cipher_and_version_fingerprint,
    tls_extensions_sha256: j.tls_extensions_sha256,
    scan_time: j.observed_at,
    is_success: true,
    ip,
    port: service.port,
    transport_protocol: str(service.transport_protocol)?.toLowerCase(),
  };
}

/** v2 telnet options (`[{name, value}]`) as the Platform's maps of option name to value. */
function telnetOptions(options: unknown): Record<string, string> {
  return Object.fromEntries(list(options).map((o) => [String(obj(o).name), String(obj(o).value)]));
}

/**
 * The Platform's protocol block of a v2 service, under the SDK's name for it, or null when the
 * service has none the SDK models. Blocks whose shape the two APIs share pass through.
 */
export function v3ProtocolBlock(service: Json): [string, Json] | null {
  const name = str(service._decoded);
  if (name === undefined) return null;
  const block = obj(service[name]);
  switch (name) {
    case "ssh":
    case "dns":
    case "mysql":
    case "smtp":
    case "redis":
    case "postgres":
      return [name, block];
    case "ftp": {
      const { auth_tls_resp: auth, ...rest } = block;
      return ["ftp", { ...rest, ...(auth !== undefined ? { auth_tls_response: auth } : {}) }];
    }
    case "telnet":
      return ["telnet", { do: telnetOptions(block.do), will: telnetOptions(block.will) }];
    case "rdp": {
      const flags = obj(block.protocol_supported_flags);
      const version = obj(block.version);
      const selected = str(block.selected_security_protocol);
      return [
        "rdp",
        {
          // The protocol the server chose with the scanner, as the SDK's flags of one.
          selected_security_protocol: {
            standard_rdp: false,
            tls: selected === "TLS",
            credssp: selected === "CREDSSP",
            rdstls: flags.rdstls === true && selected === "RDSTLS",
          },
          ...(version.major !== undefined
            ? {
                version: {
                  major: version.major,
                  minor: version.minor,
                  raw: `${Number(version.major)}.${Number(version.minor)}`,
                },
              }
            : {}),
        },
      ];
    }
    default:
      return null;
  }
}

/** The favicons of a v2 response (`md5_hash`, ...) as the SDK's `HttpFavicon` (`hash_md5`, ...). */
export function v3Favicons(favicons: unknown): Json[] {
  return list(favicons).map((f) => {
    const icon = obj(f);
    return {
      name: icon.name,
      size: icon.size,
      hash_md5: icon.md5_hash,
      hash_sha256: icon.sha256_hash,
      hash_shodan: icon.shodan_hash,
    };
  });
}
