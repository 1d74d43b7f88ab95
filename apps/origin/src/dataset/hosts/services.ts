import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Prng } from "../prng";
import { httpExchange } from "./http";
import { SSH_SERVERS, software, type SoftwareEntry } from "./software";

/**
 * One service of a host, with every choice made once (so a service rendered at several
 * instants of its history stays the same service): what `host_services` stores, the v2
 * service object minus its observation fields, and the v1 protocol object.
 */

/** A certificate a TLS service presents (a leaf of the dataset's certificate catalog). */
export interface TlsLeaf {
  sha256: string;
  chain: string[];
  pubkeyAlgorithm: string;
  pubkeyBits: number;
  subjectDn: string;
  issuerDn: string;
  names: string[];
  tbsFingerprint: string;
  /** Old stacks: weak keys and SHA-1 chains are served over older TLS. */
  legacy: boolean;
  domain?: string;
}

export interface ServiceSpec {
  kind: ServiceKind;
  port: number;
  transport: "TCP" | "UDP";
  serviceName: string;
  extendedServiceName: string;
  decodedName: string;
  /** `<port>/<v1 protocol>`. */
  v1Protocol: string;
  software: SoftwareEntry[];
  banner: string;
  decoded: Record<string, unknown>;
  tls?: Record<string, unknown>;
  certificate?: string;
  tlsVersion?: string;
  httpStatus?: number;
  httpTitle?: string;
  httpServer?: string;
  /** The v1 document's object under `<port>.<protocol>`. */
  v1: Record<string, unknown>;
}

export type ServiceKind =
  | "HTTP"
  | "HTTPS"
  | "SSH"
  | "DNS"
  | "SMTP"
  | "FTP"
  | "MYSQL"
  | "REDIS"
  | "RDP"
  | "TELNET"
  | "POSTGRES";

export const SERVICE_PORTS: Record<ServiceKind, number[]> = {
  HTTP: [80, 8080, 8000, 8888],
  HTTPS: [443, 8443],
  SSH: [22, 2222],
  DNS: [53],
  SMTP: [25, 587],
  FTP: [21],
  MYSQL: [3306],
  REDIS: [6379],
  RDP: [3389],
  TELNET: [23],
  POSTGRES: [5432],
};

function tlsObject(rng: Prng, leaf: TlsLeaf): { decoded: Record<string, unknown>; version: string } {
  const ec = leaf.pubkeyAlgorithm === "ECDSA";
  const version = leaf.legacy ? rng.pick(["TLSv1_0", "TLSv1_2"]) : rng.chance(0.7) ? "TLSv1_3" : "TLSv1_2";
  const cipher =
    version === "TLSv1_3"
      ? rng.pick(["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"])
      : version === "TLSv1_0"
        ? "TLS_RSA_WITH_AES_128_CBC_SHA"
        : ec
          ? "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"
          : "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384";
  return {
    version,
    decoded: {
      version_selected: version,
      cipher_selected: cipher,
      certificates: {
        leaf_fp_sha_256: leaf.sha256,
        chain_fps_sha_256: leaf.chain,
        leaf_data: {
          pubkey_algorithm: leaf.pubkeyAlgorithm,
          pubkey_bit_size: leaf.pubkeyBits,
          subject_dn: leaf.subjectDn,
          issuer_dn: leaf.issuerDn,
          names: leaf.names.slice(0, 8),
          tbs_fingerprint: leaf.tbsFingerprint,
        },
        _encoding: { leaf_fp_sha_256: "DISPLAY_HEX", chain_fps_sha_256: "DISPLAY_HEX" },
      },
      _encoding: {},
    },
  };
}

function v1Tls(leaf: TlsLeaf, version: string, cipher: unknown): Record<string, unknown> {
  return {
    version: version.replace("TLSv1_", "TLSv1."),
    cipher_suite: { name: cipher },
    certificate: {
      parsed: {
        fingerprint_sha256: leaf.sha256,
        subject_dn: leaf.subjectDn,
        issuer_dn: leaf.issuerDn,
        names: leaf.names.slice(0, 8),
        subject_key_info: { key_algorithm: { name: leaf.pubkeyAlgorithm } },
      },
    },
    chain: leaf.chain.map((fp) => ({ parsed: { fingerprint_sha256: fp } })),
  };
}

const base = (
  kind: ServiceKind,
  port: number,
  name: string,
  decodedName: string,
  transport: "TCP" | "UDP" = "TCP",
) => ({
  kind,
  port,
  transport,
  serviceName: name,
  extendedServiceName: name,
  decodedName,
  v1Protocol: `${port}/${decodedName}`,
});

export function buildService(
  rng: Prng,
  kind: ServiceKind,
  port: number,
  context: { ip: string; device: boolean; leaf?: TlsLeaf },
): ServiceSpec {
  switch (kind) {
    case "HTTP":
    case "HTTPS": {
      const tls = kind === "HTTPS" && context.leaf ? tlsObject(rng, context.leaf) : undefined;
      const domain = context.leaf?.domain;
      const http = httpExchange(rng, {
        host: domain ?? context.ip,
        port,
        tls: tls !== undefined,
        domain,
        device: context.device,
      });
      const spec: ServiceSpec = {
        ...base(kind, port, "HTTP", "http"),
        extendedServiceName: tls ? "HTTPS" : "HTTP",
        v1Protocol: `${port}/${tls ? "https" : "http"}`,
        software: http.software,
        banner: http.banner,
        decoded: http.decoded,
        httpStatus: http.statusCode,
        httpServer: http.server ?? undefined,
        httpTitle: http.title ?? undefined,
        v1: {},
      };
      const get = {
        status_code: http.statusCode,
        title: http.title ?? "",
        headers: { server: http.server ?? "" },
        body_sha256: http.bodySha256,
      };
      if (tls && context.leaf) {
        spec.tls = tls.decoded;
        spec.certificate = context.leaf.sha256;
        spec.tlsVersion = tls.version;
        spec.v1 = { tls: v1Tls(context.leaf, tls.version, tls.decoded.cipher_selected), get };
      } else {
        spec.v1 = { get };
      }
      return spec;
    }
    case "SSH": {
      const ssh = rng.weighted(SSH_SERVERS.map((s) => [s, s.weight] as const));
      const [, softwareVersion = "", comment] = /^SSH-2\.0-(\S+?)(?: (.*))?$/.exec(ssh.banner) ?? [];
      const hostKey = bytesToHex(sha256(rng.bytes(32)));
      const entries: SoftwareEntry[] = [];
      if (softwareVersion.startsWith("OpenSSH"))
        entries.push(software("a", "OpenBSD", "OpenSSH", ssh.version ?? undefined));
      else if (softwareVersion.startsWith("dropbear"))
        entries.push(software("a", "Dropbear SSH Project", "Dropbear SSH", "2020.81"));
      if (ssh.os) entries.push(software("o", ssh.os[0], ssh.os[1]));
      return {
        ...base(kind, port, "SSH", "ssh"),
        software: entries,
        banner: ssh.banner,
        decoded: {
          endpoint_id: {
            raw: ssh.banner,
            protocol_version: "2.0",
            software_version: softwareVersion,
            ...(comment ? { comment } : {}),
          },
          server_host_key: { fingerprint_sha256: hostKey },
          hassh_fingerprint: bytesToHex(rng.bytes(16)),
        },
        v1: {
          v2: {
            banner: { raw: ssh.banner, version: "2.0", software: softwareVersion },
            server_host_key: { fingerprint_sha256: hostKey },
          },
        },
      };
    }
    case "DNS": {
      const serverType = context.device
        ? rng.pick(["FORWARDING", "RECURSIVE_RESOLVER"])
        : rng.pick(["AUTHORITATIVE", "RECURSIVE_RESOLVER", "FORWARDING"]);
      const product =
        serverType === "FORWARDING"
          ? ["Thekelleys", "Dnsmasq", "2.85"]
          : rng.pick([
              ["ISC", "BIND", "9.18.28"],
              ["NLnet Labs", "Unbound", "1.17.1"],
            ]);
      return {
        ...base(kind, port, "DNS", "dns", "UDP"),
        software: [software("a", product[0] ?? "", product[1] ?? "", product[2])],
        banner: "",
        decoded: {
          server_type: serverType,
          resolves_correctly: serverType !== "AUTHORITATIVE",
          r_code: "SUCCESS",
        },
        v1: { lookup: { open_resolver: serverType !== "AUTHORITATIVE", support: true } },
      };
    }
    case "SMTP": {
      const mta = rng.pick([
        ["Postfix", "Wietse Venema", "Postfix"],
        ["Exim", "Exim", "Exim"],
        ["Microsoft ESMTP MAIL Service", "Microsoft", "Exchange Server"],
      ]);
      const banner = `220 mail.${context.ip.replace(/\./g, "-")}.example ESMTP ${mta[0]}`;
      return {
        ...base(kind, port, "SMTP", "smtp"),
        software: [software("a", mta[1] ?? "", mta[2] ?? "")],
        banner,
        decoded: {
          banner,
          ehlo: "250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME",
          start_tls: "220 2.0.0 Ready to start TLS",
        },
        v1: { starttls: { banner, ehlo: "250-PIPELINING 250-STARTTLS 250 8BITMIME" } },
      };
    }
    case "FTP": {
      const ftp = rng.pick([
        ["220 (vsFTPd 3.0.3)", "vsftpd Project", "vsftpd", "3.0.3"],
        ["220 ProFTPD Server (Debian) [::ffff:127.0.0.1]", "ProFTPD Project", "ProFTPD", undefined],
        ["220 Microsoft FTP Service", "Microsoft", "Internet Information Services", undefined],
      ] as const);
      return {
        ...base(kind, port, "FTP", "ftp"),
        software: [software("a", ftp[1], ftp[2], ftp[3])],
        banner: ftp[0],
        decoded: {
          banner: ftp[0],
          auth_tls_resp: rng.chance(0.5)
            ? "234 Proceed with negotiation."
            : "530 Please login with USER and PASS.",
        },
        v1: { banner: { banner: ftp[0] } },
      };
    }
    case "MYSQL": {
      const version = rng.pick([
        "8.0.36",
        "8.0.39",
        "5.7.44",
        "10.6.18-MariaDB",
        "10.11.8-MariaDB-0ubuntu0.24.04.1",
      ]);
      const maria = version.includes("MariaDB");
      return {
        ...base(kind, port, "MYSQL", "mysql"),
        software: [
          software("a", maria ? "MariaDB" : "Oracle", maria ? "MariaDB" : "MySQL", version.split("-")[0]),
        ],
        banner: `${version}`,
        decoded: {
          protocol_version: 10,
          server_version: version,
          connection_id: rng.int(1, 90000),
          capability_flags: { CLIENT_SSL: true, CLIENT_PROTOCOL_41: true },
        },
        v1: { banner: { protocol_version: 10, server_version: version } },
      };
    }
    case "REDIS": {
      const version = rng.pick(["6.2.14", "7.0.15", "7.2.5"]);
      const open = rng.chance(0.6);
      return {
        ...base(kind, port, "REDIS", "redis"),
        software: [software("a", "Redis", "Redis", version)],
        banner: open ? "+PONG" : "-NOAUTH Authentication required.",
        decoded: open
          ? {
              ping_response: "PONG",
              info_response: { version, mode: "standalone", os: "Linux 5.15.0 x86_64" },
            }
          : { auth_response: "-NOAUTH Authentication required." },
        v1: { banner: { ping_response: open ? "PONG" : "", version: open ? version : "" } },
      };
    }
    case "RDP":
      return {
        ...base(kind, port, "RDP", "rdp"),
        software: [software("o", "Microsoft", "Windows")],
        banner: "",
        decoded: {
          protocol_supported_flags: { tls: true, credssp: true, rdstls: false },
          selected_security_protocol: "CREDSSP",
        },
        v1: { banner: { tls: true, credssp: true } },
      };
    case "TELNET": {
      const banner = rng.pick([
        "\r\nUser Access Verification\r\n\r\nUsername: ",
        "BusyBox v1.31.1 () built-in shell\r\nlogin: ",
        "\r\nMikroTik v6.49.10\r\nLogin: ",
      ]);
      return {
        ...base(kind, port, "TELNET", "telnet"),
        software: banner.includes("BusyBox") ? [software("a", "BusyBox", "BusyBox", "1.31.1")] : [],
        banner,
        decoded: {
          banner,
          will: [
            { name: "Echo", value: 1 },
            { name: "Suppress Go Ahead", value: 3 },
          ],
          do: [{ name: "Terminal Type", value: 24 }],
        },
        v1: { banner: { banner } },
      };
    }
    case "POSTGRES": {
      const version = rng.pick(["13", "14", "15", "16"]);
      return {
        ...base(kind, port, "POSTGRES", "postgres"),
        software: [software("a", "PostgreSQL", "PostgreSQL", version)],
        banner: "",
        decoded: {
          supported_versions: "3.0",
          protocol_error: { code: "28000", message: "no pg_hba.conf entry for host", severity: "FATAL" },
        },
        v1: { banner: { supported_versions: "3.0" } },
      };
    }
  }
}
