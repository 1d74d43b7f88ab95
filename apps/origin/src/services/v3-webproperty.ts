import { ipAddressSchema, type V3Webproperty } from "@scangate/core";
import { readCertificates, readHost, readHostAt } from "./documents";
import { v3Certificate } from "./v3-certificate";
import { v3Http, v3HttpEndpoint, v3Software, v3Tls } from "./v3-host";

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

async function hostDocument(db: D1Database, ip: string, atMs: number | undefined): Promise<Json | null> {
  const doc = atMs === undefined ? await readHost(db, ip) : await readHostAt(db, ip, atMs);
  return doc === null ? null : obj(doc);
}

/** The host's HTTP service on `port`, if it has one. */
function httpService(host: Json | null, port: number): Json | undefined {
  const services = Array.isArray(host?.services) ? (host.services as Json[]) : [];
  return services.find((s) => s.port === port && s.http !== undefined);
}

async function certificateOf(db: D1Database, fingerprint: string | undefined) {
  if (!fingerprint) return undefined;
  const found = await readCertificates(db, [fingerprint]);
  const doc = found.get(fingerprint.toLowerCase());
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

async function addressProperty(
  db: D1Database,
  ip: string,
  port: number,
  atMs: number | undefined,
): Promise<V3Webproperty | null> {
  const service = httpService(await hostDocument(db, ip, atMs), port);
  if (!service) return null;
  const property: V3Webproperty = {
    hostname: ip,
    port,
    scan_time: str(service.observed_at),
    endpoints: [v3HttpEndpoint(service, ip, ip)],
    software: v3Software(service.software),
  };
  if (service.tls !== undefined) property.tls = v3Tls(service.tls);
  const cert = await certificateOf(db, str(service.certificate));
  if (cert) property.cert = cert;
  return property;
}

async function namedProperty(
  db: D1Database,
  hostname: string,
  port: number,
  atMs: number | undefined,
): Promise<V3Webproperty | null> {
  const row = await db
    .prepare("select doc, ip from websites where domain = ?")
    .bind(hostname)
    .first<{ doc: string; ip: string | null }>();
  if (!row) return null;
  const website = obj(JSON.parse(row.doc));
  const onPort = obj(website[String(port)]);
  const [scheme] = Object.keys(onPort);
  if (scheme === undefined) return null;
  const served = obj(onPort[scheme]);
  const get = obj(served.get);
  const service = row.ip ? httpService(await hostDocument(db, row.ip, atMs), port) : undefined;
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
  };
  const tls = obj(served.tls);
  if (Object.keys(tls).length > 0) {
    const websiteTlsBlock = websiteTls(tls);
    property.tls = websiteTlsBlock;
    const cert = await certificateOf(db, websiteTlsBlock.fingerprint_sha256);
    if (cert) property.cert = cert;
  }
  return property;
}

/** The web property `hostname:port` (hostname lowercase), or null when the dataset has none. */
export function readWebproperty(
  db: D1Database,
  id: { hostname: string; port: number },
  atMs?: number,
): Promise<V3Webproperty | null> {
  return ipAddressSchema.safeParse(id.hostname).success
    ? addressProperty(db, id.hostname, id.port, atMs)
    : namedProperty(db, id.hostname, id.port, atMs);
}
