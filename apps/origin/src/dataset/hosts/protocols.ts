import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Prng } from "../prng";
import { sshAlgorithms } from "./fingerprints";
import { SSH_SERVERS, software, type SoftwareEntry } from "./software";

/**
 * The protocols other than HTTP a service speaks, as the scan decodes them: the protocol's
 * block in the v2 service document (its name is the `_decoded` of the service), its banner
 * and software (the v1 document's object for the port is read off that: v1-document.ts). Field names follow the Platform's
 * models (SDK `Ssh`, `Ftp`, `Smtp`, `Mysql`, `Redis`, `Kubernetes`), where v2 spelled them the
 * same; where v2 differs (telnet options, RDP flags) the v3 projection reshapes them.
 */

export interface ProtocolScan {
  banner: string;
  software: SoftwareEntry[];
  decoded: Record<string, unknown>;
  /** What risks are judged from beyond software (risks.ts `RiskFacts.openRedis`). */
  openRedis?: boolean;
  transport?: "TCP" | "UDP";
}

export function sshScan(rng: Prng): ProtocolScan {
  const ssh = rng.weighted(SSH_SERVERS.map((s) => [s, s.weight] as const));
  const [, softwareVersion = "", comment] = /^SSH-2\.0-(\S+?)(?: (.*))?$/.exec(ssh.banner) ?? [];
  const hostKey = bytesToHex(sha256(rng.bytes(32)));
  const entries: SoftwareEntry[] = [];
  if (softwareVersion.startsWith("OpenSSH"))
    entries.push(software("a", "OpenBSD", "OpenSSH", ssh.version ?? undefined));
  else if (softwareVersion.startsWith("dropbear"))
    entries.push(software("a", "Dropbear SSH Project", "Dropbear SSH", "2020.81"));
  if (ssh.os) entries.push(software("o", ssh.os[0], ssh.os[1]));
  const algorithms = sshAlgorithms(softwareVersion);
  return {
    banner: ssh.banner,
    software: entries,
    decoded: {
      endpoint_id: {
        raw: ssh.banner,
        protocol_version: "2.0",
        software_version: softwareVersion,
        ...(comment ? { comment } : {}),
      },
      server_host_key: { fingerprint_sha256: hostKey, key_algorithm: algorithms.hostKeyAlgorithm },
      hassh_fingerprint: bytesToHex(rng.bytes(16)),
      kex_init_message: algorithms.kex_init_message,
      algorithm_selection: algorithms.algorithm_selection,
    },
  };
}

export function dnsScan(rng: Prng, device: boolean): ProtocolScan {
  const serverType = device
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
    transport: "UDP",
    software: [software("a", product[0] ?? "", product[1] ?? "", product[2])],
    banner: "",
    decoded: {
      server_type: serverType,
      resolves_correctly: serverType !== "AUTHORITATIVE",
      r_code: "SUCCESS",
    },
  };
}

export function smtpScan(rng: Prng, ip: string): ProtocolScan {
  const mta = rng.pick([
    ["Postfix", "Wietse Venema", "Postfix", ""],
    ["Exim", "Exim", "Exim", rng.pick(["4.96", "4.97", "4.91"])],
    ["Microsoft ESMTP MAIL Service", "Microsoft", "Exchange Server", ""],
  ]);
  const [name = "", vendor = "", product = "", version = ""] = mta;
  const banner = `220 mail.${ip.replace(/\./g, "-")}.example ESMTP ${name}${version ? ` ${version}` : ""}`;
  return {
    software: [software("a", vendor, product, version || undefined)],
    banner,
    decoded: {
      banner,
      ehlo: "250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME",
      start_tls: "220 2.0.0 Ready to start TLS",
    },
  };
}

export function ftpScan(rng: Prng): ProtocolScan {
  const ftp = rng.pick([
    ["220 (vsFTPd 3.0.3)", "vsftpd Project", "vsftpd", "3.0.3"],
    ["220 ProFTPD Server (Debian) [::ffff:127.0.0.1]", "ProFTPD Project", "ProFTPD", undefined],
    ["220 ProFTPD 1.3.5b Server (ProFTPD) [::ffff:127.0.0.1]", "ProFTPD Project", "ProFTPD", "1.3.5b"],
    ["220 Microsoft FTP Service", "Microsoft", "Internet Information Services", undefined],
  ] as const);
  const tls = rng.chance(0.5);
  return {
    software: [software("a", ftp[1], ftp[2], ftp[3])],
    banner: ftp[0],
    decoded: {
      banner: ftp[0],
      status_code: 220,
      status_meaning: "Service ready for new user",
      implicit_tls: false,
      auth_tls_resp: tls ? "234 Proceed with negotiation." : "530 Please login with USER and PASS.",
    },
  };
}

export function mysqlScan(rng: Prng): ProtocolScan {
  const version = rng.pick([
    "8.0.36",
    "8.0.39",
    "5.7.44",
    "10.6.18-MariaDB",
    "10.11.8-MariaDB-0ubuntu0.24.04.1",
  ]);
  const maria = version.includes("MariaDB");
  return {
    software: [
      software("a", maria ? "MariaDB" : "Oracle", maria ? "MariaDB" : "MySQL", version.split("-")[0]),
    ],
    banner: version,
    decoded: {
      protocol_version: 10,
      server_version: version,
      connection_id: rng.int(1, 90000),
      capability_flags: { CLIENT_SSL: true, CLIENT_PROTOCOL_41: true },
      auth_plugin_name: maria ? "mysql_native_password" : "caching_sha2_password",
    },
  };
}

/** `authRequired`: answer as a server that asks for a password, whatever the draw. */
export function redisScan(rng: Prng, authRequired = false): ProtocolScan {
  const version = rng.pick(["6.2.14", "7.0.15", "7.2.5"]);
  const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
  const open = rng.chance(0.6) && !authRequired;
  return {
    openRedis: open,
    software: [software("a", "Redis", "Redis", version)],
    banner: open ? "+PONG" : "-NOAUTH Authentication required.",
    decoded: open
      ? {
          ping_response: "PONG",
          info_response: { redis_version: version, redis_mode: "standalone", os: "Linux 5.15.0 x86_64" },
          major,
          minor,
          patch_level: patch,
          mode: "standalone",
          os: "Linux 5.15.0 x86_64",
          arch_bits: "64",
        }
      : { auth_response: "-NOAUTH Authentication required." },
  };
}

export function rdpScan(rng: Prng): ProtocolScan {
  // Servers old enough to answer without CredSSP name their Windows release.
  const legacy = rng.chance(0.12);
  return {
    software: legacy
      ? [software("o", "Microsoft", "Windows Server 2008 R2", "6.1")]
      : [software("o", "Microsoft", "Windows")],
    banner: "",
    decoded: {
      protocol_supported_flags: { tls: true, credssp: !legacy, rdstls: false },
      selected_security_protocol: legacy ? "TLS" : "CREDSSP",
      ...(legacy ? { version: { major: 6, minor: 1 } } : {}),
    },
  };
}

export function telnetScan(rng: Prng): ProtocolScan {
  const banner = rng.pick([
    "\r\nUser Access Verification\r\n\r\nUsername: ",
    "BusyBox v1.31.1 () built-in shell\r\nlogin: ",
    "\r\nMikroTik v6.49.10\r\nLogin: ",
  ]);
  return {
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
  };
}

export function postgresScan(rng: Prng): ProtocolScan {
  const version = rng.pick(["13", "14", "15", "16"]);
  return {
    software: [software("a", "PostgreSQL", "PostgreSQL", version)],
    banner: "",
    decoded: {
      supported_versions: "3.0",
      protocol_error: { code: "28000", message: "no pg_hba.conf entry for host", severity: "FATAL" },
    },
  };
}

/** A Kubernetes API server; a third leave anonymous reads open, which lists its pods. */
export function kubernetesScan(rng: Prng): ProtocolScan {
  const minor = rng.pick([27, 28, 29, 30]);
  const open = rng.chance(0.3);
  const version = `v1.${minor}.${rng.int(1, 9)}`;
  const pods = [
    "coredns-5d78c9869d-8xkqv",
    "kube-proxy-7xk2p",
    "etcd-control-plane",
    "nginx-ingress-controller-6f9",
  ];
  return {
    software: [software("a", "Kubernetes", "Kubernetes", version.slice(1))],
    banner: "",
    decoded: {
      version_info: {
        major: "1",
        minor: String(minor),
        git_version: version,
        git_tree_state: "clean",
        go_version: "go1.21.9",
        compiler: "gc",
        platform: "linux/amd64",
      },
      kubernetes_dashboard_found: open && rng.chance(0.5),
      ...(open ? { pod_names: rng.sample(pods, rng.int(2, pods.length)).sort() } : {}),
    },
  };
}
