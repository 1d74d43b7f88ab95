import { DN_ATTRIBUTES, type FieldFamily } from "@scangate/search";
import type { CatalogIndex } from "./field-catalog";

/**
 * The fields the indexes' schemas have beyond what this dataset's documents hold: the
 * Platform's host and service models (the SDK's `Host`, `Service` and `EndpointScanState`:
 * every protocol object a service may carry), the v1 per-port families (`<port>.<protocol>.*`
 * for any port), header names nobody here sends, certificate name attributes. A query naming
 * one is answered (no document matches it) rather than refused as an unknown field, as the
 * real service answers a query for a protocol it found on no host. Names outside these
 * families are still refused with the nearest known field.
 */

/** The protocol objects of the SDK's `Service` (snake_case, as CenQL names them). */
const SERVICE_OBJECTS = [
  "activemq",
  "amqp",
  "anerma_cf_forth",
  "any_connect",
  "asterisk_manager_interface",
  "bacnet",
  "banner_hex",
  "checkpoint_topology",
  "chromecast",
  "cisco_ipsla",
  "clickhouse_native",
  "cmore",
  "coap",
  "compromises",
  "cortex_xdr_p2p",
  "crestron_cp3",
  "crestron_din_ap2",
  "cursor_on_target",
  "cwmp",
  "darkcomet",
  "darkgate",
  "dcerpc",
  "denon_heos",
  "dhcpdiscover",
  "dicom",
  "dnp3",
  "dns",
  "dotnet_negotiate_stream",
  "dtls",
  "dvr_ip",
  "eip",
  "elasticsearch_transport",
  "elf_file",
  "epmd",
  "etcd",
  "ethereum",
  "exposures",
  "fins",
  "flash_socket_policy",
  "fox",
  "frps",
  "ftp",
  "gearman",
  "gemini",
  "giop",
  "gopher",
  "hajime",
  "hardware",
  "hid_vertx",
  "hikvision",
  "ibmnje",
  "icap",
  "iec608705104",
  "ike",
  "imap",
  "iota",
  "ipmi",
  "ipp",
  "isc_dhcp_omapi",
  "iscsi",
  "ja4tscan",
  "jarm",
  "java_rmi",
  "kcodes_netusb",
  "krpc",
  "l2tp",
  "labels",
  "ldap",
  "lpd",
  "mavlink",
  "mdns",
  "melsec",
  "memberlist",
  "memcached",
  "mikrotik_winbox",
  "minecraft",
  "misconfigs",
  "mms",
  "modbus",
  "monero_p2p",
  "mongodb",
  "mqtt",
  "mssql",
  "murmur",
  "mysql",
  "mysqlx",
  "nats_io",
  "nbd",
  "nfs_mountd",
  "nmea",
  "ntp",
  "ntrip",
  "onc",
  "onvif",
  "opc_ua",
  "openflow",
  "openvpn",
  "openvpn_mgmt",
  "operating_systems",
  "oracle",
  "pc_anywhere",
  "perforce_p4d",
  "pgbouncer",
  "pop3",
  "portmap",
  "postgres",
  "pptp",
  "profinet_cm",
  "qdrant_grpc",
  "r1soft_buagent",
  "rdate",
  "rdp",
  "realport",
  "redis",
  "redline",
  "redlion_crimson",
  "reolink_baichuan",
  "representative_info",
  "rifatron",
  "ripple",
  "rlogin",
  "rocketmq",
  "routeros_api",
  "rtmp",
  "rtsp",
  "rustdesk_heartbeat",
  "rustdesk_relay",
  "rustdesk_rendezvous",
  "s7",
  "sap_router",
  "sapient",
  "scpi",
  "screenshots",
  "ser2net",
  "seven_days_to_die",
  "sip",
  "skinny",
  "smb",
  "smtp",
  "snmp",
  "socks",
  "spice",
  "ssdp",
  "ssh",
  "steam",
  "stun",
  "syncthing_bep",
  "synergy",
  "tacacs_plus",
  "tarantool",
  "team_viewer",
  "telexper_tlxp",
  "telnet",
  "threats",
  "tibia",
  "tplink_kasa",
  "twamp_control",
  "unitronics_pcom",
  "upnp",
  "ventrilo",
  "vnc",
  "vulns",
  "weblogic_t3",
  "wince_cerdisp",
  "winrm",
  "ws_discovery",
  "x11",
  "zeromq",
  // Endpoint objects (the SDK's `EndpointScanState`), which the legacy index keeps on the service.
  "argocd",
  "chrome_devtools",
  "clickhouse_http",
  "cobalt_strike",
  "elasticsearch",
  "extracted",
  "fortigate",
  "graphql",
  "influxdb",
  "ivanti_avalanche",
  "jenkins",
  "jupyter",
  "keycloak",
  "kubernetes",
  "mcp",
  "nginx_proxy_manager",
  "ollama",
  "open_directory",
  "plex_media_server",
  "pprof",
  "prometheus",
  "prometheus_target",
  "proxmox_ve",
  "redlion_web",
  "scada_view",
  "synology_dsm",
  "vault",
  "wordpress",
];

/** Host objects of the SDK's `Host` (and the legacy `name` of a virtual host). */
const HOST_OBJECTS = [
  "dns",
  "whois",
  "labels",
  "operating_system",
  "hardware",
  "network",
  "privacy",
  "reputation",
  "greynoise",
];

/** The attributes a distinguished name may hold (certificate subjects and issuers), as one alternation. */
const DN_ATTRIBUTE_NAMES = DN_ATTRIBUTES.join("|");

/** v1 per-port subtrees whose keys are open: headers by name, a presented certificate's parsed fields. */
const V1_OPEN_SUBTREES = [
  "get\\.headers\\.[a-z0-9_]+",
  "get\\.metadata\\.[a-z0-9_]+",
  `tls\\.certificate\\.parsed\\.(subject|issuer)\\.(${DN_ATTRIBUTE_NAMES})`,
  // Host documents keep only the fingerprints of the chain a service sent.
  "tls\\.chain\\.parsed\\..+",
];

const family = (source: string): FieldFamily => ({ pattern: new RegExp(source), type: "keyword" });
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The v1 per-port families: for each protocol the documents show (`https`), every path they
 * show under it on any port (`443.https.tls.version` makes `8443.https.tls.version` known), and
 * the open subtrees; a typo under a known protocol is still refused.
 */
function perPortFamilies(catalogued: readonly string[]): FieldFamily[] {
  const suffixes = new Map<string, Set<string>>();
  for (const path of catalogued) {
    const match = /^\d{1,5}\.([a-z0-9_]+)\.(.+)$/.exec(path);
    if (!match?.[1] || !match[2]) continue;
    suffixes.set(match[1], (suffixes.get(match[1]) ?? new Set()).add(match[2]));
  }
  const web = new Set([...(suffixes.get("http") ?? []), ...(suffixes.get("https") ?? [])]);
  for (const proto of ["http", "https"]) suffixes.set(proto, web);
  const known = [...suffixes].map(
    ([proto, rest]) => `^\\d{1,5}\\.${escape(proto)}\\.(${[...rest].map(escape).join("|")})$`,
  );
  return [...known, `^\\d{1,5}\\.(https?)\\.(${V1_OPEN_SUBTREES.join("|")})$`].map(family);
}

/** The families of an index, given the paths its catalogue holds (none for the bare hot registries). */
export function schemaFamilies(index: CatalogIndex, catalogued: readonly string[] = []): FieldFamily[] {
  const present = new Set(catalogued.map((path) => path.split(".").slice(0, 2).join(".")));
  // An object the documents carry is known field by field: a typo under it is still refused.
  const absentObjects = SERVICE_OBJECTS.filter((name) => !present.has(`services.${name}`));
  const absentHostObjects = HOST_OBJECTS.filter(
    (name) => !catalogued.some((path) => path === name || path.startsWith(`${name}.`)),
  );
  switch (index) {
    case "hosts":
      return [
        family(`^services\\.(${absentObjects.join("|")})(\\..+)?$`),
        family("^services\\.endpoints(\\..+)?$"),
        family("^services\\.http\\.(request|response)\\.headers\\.[a-z0-9_]+$"),
        family(`^services\\.tls\\.certificates\\.leaf_data\\.(subject|issuer)\\.(${DN_ATTRIBUTE_NAMES})$`),
        ...(absentHostObjects.length > 0 ? [family(`^(${absentHostObjects.join("|")})(\\..+)?$`)] : []),
        family("^name$"),
      ];
    case "ipv4":
      return [...perPortFamilies(catalogued), family("^metadata(\\..+)?$")];
    case "certificates":
      return [
        family(`^parsed\\.(subject|issuer)\\.(${DN_ATTRIBUTE_NAMES})$`),
        family("^parsed\\.extensions\\..+$"),
        family("^(validation|ct|zlint)\\..+$"),
      ];
    case "websites":
      return [
        ...perPortFamilies(catalogued),
        family("^(threats|vulns|exposures|misconfigs|labels)(\\..+)?$"),
      ];
  }
}
