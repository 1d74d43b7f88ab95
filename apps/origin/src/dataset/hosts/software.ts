import type { Prng } from "../prng";

/** Software as v2 services list it: a CPE 2.3 name and its parts. */
export interface SoftwareEntry {
  uniform_resource_identifier: string;
  part: string;
  vendor: string;
  product: string;
  version?: string;
  source: string;
}

export function software(
  part: "a" | "o" | "h",
  vendor: string,
  product: string,
  version?: string,
): SoftwareEntry {
  const cpe = (s: string) => s.toLowerCase().replace(/[^a-z0-9._-]+/g, "_");
  const entry: SoftwareEntry = {
    uniform_resource_identifier: `cpe:2.3:${part}:${cpe(vendor)}:${cpe(product)}:${version ? cpe(version) : "*"}:*:*:*:*:*:*:*`,
    part,
    vendor,
    product,
    source: "OSI_APPLICATION_LAYER",
  };
  if (version) entry.version = version;
  return entry;
}

/** Web servers: name in the Server header, CPE vendor/product, versions seen in the wild. */
export const WEB_SERVERS = [
  {
    header: "nginx",
    vendor: "F5",
    product: "Nginx",
    versions: ["1.18.0", "1.22.1", "1.24.0", "1.26.2", "1.27.3"],
    weight: 34,
  },
  {
    header: "Apache",
    vendor: "Apache",
    product: "HTTPD",
    versions: ["2.4.41", "2.4.49", "2.4.52", "2.4.57", "2.4.62"],
    weight: 26,
  },
  {
    header: "Microsoft-IIS",
    vendor: "Microsoft",
    product: "Internet Information Services",
    versions: ["8.5", "10.0"],
    weight: 8,
  },
  {
    header: "cloudflare",
    vendor: "Cloudflare",
    product: "Cloudflare Load Balancer",
    versions: [],
    weight: 8,
  },
  {
    header: "LiteSpeed",
    vendor: "LiteSpeed Technologies",
    product: "LiteSpeed Web Server",
    versions: [],
    weight: 4,
  },
  {
    header: "openresty",
    vendor: "OpenResty",
    product: "OpenResty",
    versions: ["1.21.4.1", "1.25.3.1"],
    weight: 4,
  },
  { header: "lighttpd", vendor: "lighttpd", product: "lighttpd", versions: ["1.4.59", "1.4.69"], weight: 3 },
  { header: "Caddy", vendor: "Caddy", product: "Caddy", versions: [], weight: 3 },
  {
    header: "Jetty",
    vendor: "Eclipse",
    product: "Jetty",
    versions: ["9.4.51.v20230217", "10.0.20"],
    weight: 2,
  },
  { header: "Boa", vendor: "Boa", product: "Boa", versions: ["0.94.14rc21"], weight: 2 },
  { header: "mini_httpd", vendor: "ACME Labs", product: "mini_httpd", versions: ["1.30"], weight: 2 },
] as const;

export type WebServer = (typeof WEB_SERVERS)[number];

export function pickWebServer(rng: Prng): { server: WebServer; version: string | undefined } {
  const server = rng.weighted(WEB_SERVERS.map((s) => [s, s.weight] as const));
  const version = server.versions.length > 0 ? rng.pick<string>(server.versions) : undefined;
  return { server, version };
}

export const SSH_SERVERS = [
  {
    banner: "SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.10",
    version: "8.9p1",
    os: ["Canonical", "Ubuntu Linux"] as const,
    weight: 25,
  },
  {
    banner: "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5",
    version: "9.6p1",
    os: ["Canonical", "Ubuntu Linux"] as const,
    weight: 18,
  },
  {
    banner: "SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3",
    version: "9.2p1",
    os: ["Debian", "Debian Linux"] as const,
    weight: 14,
  },
  { banner: "SSH-2.0-OpenSSH_7.4", version: "7.4", os: ["Red Hat", "Enterprise Linux"] as const, weight: 8 },
  { banner: "SSH-2.0-OpenSSH_8.0", version: "8.0", os: null, weight: 8 },
  { banner: "SSH-2.0-OpenSSH_8.7", version: "8.7", os: ["Red Hat", "Enterprise Linux"] as const, weight: 4 },
  { banner: "SSH-2.0-OpenSSH_9.3", version: "9.3", os: null, weight: 3 },
  { banner: "SSH-2.0-dropbear_2020.81", version: null, os: null, weight: 7 },
  {
    banner: "SSH-2.0-OpenSSH_for_Windows_8.1",
    version: "8.1",
    os: ["Microsoft", "Windows"] as const,
    weight: 3,
  },
  { banner: "SSH-2.0-ROSSSH", version: null, os: ["MikroTik", "RouterOS"] as const, weight: 4 },
] as const;
