import { ipAddressSchema, type V3Webproperty } from "@scangate/core";
import { readCertificates, readHosts, readHostsAt, readWebsites } from "./documents";
import { v3Certificate } from "./v3-certificate";
import { v3Http, v3HttpEndpoint, v3Software, v3Tls } from "./v3-host";
import { v3Jarm, v3Labels } from "./v3-protocols";

/**
 * Web properties (`hostname:port`), built from the two records that describe a site: the
 * website (v1 `websites`: what the name served on each port, its certificate and TLS) and the
 * HTTP service of the host the name resolves to (the response, software). A web property named
 * by an address is that host's HTTP service alone. `at_time` reads the host as it was then
 * (websites keep no history, so their own fields are the current ones).
 */

type Json = Record<string, unknown>;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** The host's HTTP service on `port`, if it has one. */
function httpService(host: Json | null | undefined, port: number): Json | undefined {
  const services = Array.isArray(host?.services) ? (host.services as Json[]) : [];
  return services.find((s) => s.port === port && s.http !== undefined);
}

/** What building a batch of web properties reads: hosts, websites and certificates, by key. */
interface Sources {
  hosts: ReadonlyMap<string, unknown>;
  websites: ReadonlyMap<string, { doc: unknown; ip: string | null }>;
  certificates: ReadonlyMap<string, unknown>;
}

function certificateOf(sources: Sources, fingerprint: string | undefined) {
  if (!fingerprint) return undefined;
  const doc = sources.certificates.get(fingerprint.toLowerCase());
  return doc === undefined ? undefined : v3Certificate(doc);
}

/** The website's TLS block (v1 `443.https.tls`) as the Platform's `Tls`. */
function websiteTls(tls: Json) {
  const leaf = str(obj(obj(tls.certificate).parsed).fingerprint_sha256);
  const chain = (Array.isArray(tls.chain) ? (tls.chain as Json[]) : [])
    .map((entry) => str(obj(entry.parsed).fingerprint_sha256))
    .filter((fp): fp is string => fp !== undefined);
  return {
    version_selected: str(tls.version)?.toLowerCase().replace(".", "_"),
    cipher_selected: str(obj(tls.cipher_suite).name),
    fingerprint_sha256: leaf,
    presented_chain: [...(leaf ? [leaf] : []), ...chain].map((fingerprint_sha256) => ({
      fingerprint_sha256,
    })),
  };
}

/** What the service behind a web property found on it: labels, JARM, risks and threats (SDK `Webproperty`). */
function findings(service: Json | undefined): Partial<V3Webproperty> {
  if (!service) return {};
  const out: Json = {};
  const labels = v3Labels(service.labels);
  if (labels.length > 0) out.labels = labels;
  const jarm = v3Jarm(service.jarm, service, undefined);
  if (jarm) out.jarm = jarm;
  for (const key of ["threats", "vulns", "exposures", "misconfigs"]) {
    if (Array.isArray(service[key])) out[key] = service[key];
  }
  return out;
}

function addressProperty(sources: Sources, ip: string, port: number): V3Webproperty | null {
  const service = httpService(obj(sources.hosts.get(ip)), port);
  if (!service) return null;
  const property: V3Webproperty = {
    hostname: ip,
    port,
    scan_time: str(service.observed_at),
    endpoints: [v3HttpEndpoint(service, ip, ip)],
    software: v3Software(service.software),
    ...findings(service),
  };
  if (service.tls !== undefined) property.tls = v3Tls(service.tls);
  const cert = certificateOf(sources, str(service.certificate));
  if (cert) property.cert = cert;
  return property;
}

/** The port's block of a website document (`{"https": {...}}`): its scheme and what it served. */
function servedOn(website: Json, port: number): { scheme: string; served: Json } | null {
  const onPort = obj(website[String(port)]);
  const [scheme] = Object.keys(onPort);
  return scheme === undefined ? null : { scheme, served: obj(onPort[scheme]) };
}

function namedProperty(sources: Sources, hostname: string, port: number): V3Webproperty | null {
  const row = sources.websites.get(hostname);
  if (!row) return null;
  const website = obj(row.doc);
  const onPort = servedOn(website, port);
  if (onPort === null) return null;
  const { scheme, served } = onPort;
  const get = obj(served.get);
  const service = row.ip ? httpService(obj(sources.hosts.get(row.ip)), port) : undefined;
  const defaultPort = (scheme === "https" && port === 443) || (scheme === "http" && port === 80);
  const http = {
    ...(service ? v3Http(service.http) : {}),
    uri: `${scheme}://${hostname}${defaultPort ? "" : `:${port}`}/`,
    status_code: num(get.status_code),
    html_title: str(get.title),
    body_hash_sha256: str(get.body_sha256),
    headers: Object.fromEntries(
      Object.entries(obj(get.headers)).map(([name, value]) => [name, { headers: [String(value)] }]),
    ),
  };
  const scanTime = str(service?.observed_at) ?? str(website.updated_at);
  const property: V3Webproperty = {
    hostname,
    port,
    scan_time: scanTime,
    endpoints: [
      {
        endpoint_type: "HTTP",
        path: "/",
        hostname,
        ip: row.ip ?? undefined,
        port,
        transport_protocol: "tcp",
        scan_time: scanTime,
        http,
      },
    ],
    software: v3Software(service?.software),
    ...findings(service),
  };
  const tls = obj(served.tls);
  if (Object.keys(tls).length > 0) {
    const websiteTlsBlock = websiteTls(tls);
    property.tls = websiteTlsBlock;
    const cert = certificateOf(sources, websiteTlsBlock.fingerprint_sha256);
    if (cert) property.cert = cert;
  }
  return property;
}

const isAddress = (hostname: string): boolean => ipAddressSchema.safeParse(hostname).success;

/**
 * The web properties `hostname:port` (hostnames lowercase), in the order asked, null for those
 * the dataset has none of. Reads in three rounds whatever the count: the websites named, then
 * the hosts (by address, and those the websites resolve to), then the certificates presented,
 * each a batch of statements binding at most 100 values.
 */
export async function readWebproperties(
  db: D1Database,
  ids: readonly { hostname: string; port: number }[],
  atMs?: number,
): Promise<(V3Webproperty | null)[]> {
  const named = ids.filter((id) => !isAddress(id.hostname));
  const websites = await readWebsites(
    db,
    named.map((id) => id.hostname),
  );
  const ips = [
    ...ids.filter((id) => isAddress(id.hostname)).map((id) => id.hostname),
    ...named.flatMap((id) => {
      const ip = websites.get(id.hostname)?.ip;
      return ip ? [ip] : [];
    }),
  ];
  const hosts = atMs === undefined ? await readHosts(db, ips) : await readHostsAt(db, ips, atMs);
  // The certificates the properties present: the address's service's, or the website's TLS leaf.
  const fingerprints = ids.flatMap((id) => {
    if (isAddress(id.hostname)) {
      const fp = str(httpService(obj(hosts.get(id.hostname)), id.port)?.certificate);
      return fp ? [fp] : [];
    }
    const website = websites.get(id.hostname);
    const onPort = website ? servedOn(obj(website.doc), id.port) : null;
    const fp = str(obj(obj(obj(onPort?.served.tls).certificate).parsed).fingerprint_sha256);
    return fp ? [fp] : [];
  });
  const certificates = await readCertificates(db, fingerprints);
  const sources: Sources = { hosts, websites, certificates };
  return ids.map((id) =>
    isAddress(id.hostname)
      ? addressProperty(sources, id.hostname, id.port)
      : namedProperty(sources, id.hostname, id.port),
  );
}

/** The web property `hostname:port` (hostname lowercase), or null when the dataset has none. */
export async function readWebproperty(
  db: D1Database,
  id: { hostname: string; port: number },
  atMs?: number,
): Promise<V3Webproperty | null> {
  const [property] = await readWebproperties(db, [id], atMs);
  return property ?? null;
}
