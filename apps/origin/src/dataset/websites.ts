import { WEBSITE_FINDINGS } from "@scangate/core";
import { isoSeconds } from "./clock";
import { v1Protocol, v1ProtocolName, v1ServiceObject } from "./hosts/v1-document";
import type { Prng } from "./prng";
import type { IndexedHost, TableRow } from "./rows";

/**
 * Websites: one per domain a host serves with a certificate issued for it (the first such host
 * in generation order is the site's address), with that host's web services on it.
 */

export interface WebsiteSource {
  domain: string;
  host: IndexedHost;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const servicesOf = (host: IndexedHost): Json[] =>
  (Array.isArray(host.document.services) ? host.document.services : []).map(obj);

export class WebsiteCollector {
  private readonly byDomain = new Map<string, WebsiteSource>();

  /** Records the domains this host serves (call once per host, in generation order). */
  observe(host: IndexedHost, domainOfCertificate: (sha256: string) => string | undefined): void {
    for (const service of servicesOf(host)) {
      if (service.http === undefined || typeof service.certificate !== "string") continue;
      const domain = domainOfCertificate(service.certificate);
      if (domain && !this.byDomain.has(domain)) this.byDomain.set(domain, { domain, host });
    }
  }

  get size(): number {
    return this.byDomain.size;
  }

  /** Rows of every website; popularity ranks are a seeded permutation of 1..N. */
  rows(rng: Prng): TableRow[] {
    const sources = [...this.byDomain.values()];
    const ranks = rng.sample(
      sources.map((_, i) => i + 1),
      sources.length,
    );
    const out: TableRow[] = [];
    sources.forEach((source, i) => out.push(...websiteRows(source, ranks[i] ?? i + 1, i + 1)));
    return out;
  }
}

export function websiteRows(source: WebsiteSource, rank: number, rowid: number): TableRow[] {
  const { domain, host } = source;
  const web = servicesOf(host).filter((service) => service.http !== undefined);
  const https = web.find((service) => service.tls !== undefined);
  const protocols = web.map(v1Protocol).sort();
  const ports = [...new Set(web.map((service) => Number(service.port)))].sort((a, b) => a - b);
  const l = obj(host.document.location);
  const as = obj(host.document.autonomous_system);
  // What its web services found, as core's translation from the Platform lists it.
  const findings = WEBSITE_FINDINGS.flatMap((key) => {
    const found = web.flatMap((service): unknown[] => {
      const value: unknown = service[key];
      return Array.isArray(value) ? (value as unknown[]) : [];
    });
    return found.length > 0 ? [[key, found] as const] : [];
  });
  const doc: Record<string, unknown> = {
    domain,
    alexa_rank: rank,
    ip: host.ip,
    protocols,
    ports,
    tags: [...new Set(web.map(v1ProtocolName))].sort(),
    location: { continent: l.continent, country: l.country, country_code: l.country_code, city: l.city },
    autonomous_system: { asn: as.asn, name: as.name, routed_prefix: as.bgp_prefix },
    ...Object.fromEntries(findings),
    updated_at: isoSeconds(host.lastUpdatedAt),
  };
  for (const service of web)
    doc[String(service.port)] = { [v1ProtocolName(service)]: v1ServiceObject(service) };
  const response = obj(obj(https?.http).response);
  const title = typeof response.html_title === "string" ? response.html_title : null;
  const server = obj(response.headers).Server;
  const serverHeader = Array.isArray(server) ? String(server[0]) : null;
  const rows: TableRow[] = [
    [
      "websites",
      {
        rowid,
        domain,
        alexa_rank: rank,
        ip: host.ip,
        ip_num: host.ipNum,
        http_status_code: typeof response.status_code === "number" ? response.status_code : null,
        http_title: title,
        http_server: serverHeader,
        certificate: typeof https?.certificate === "string" ? https.certificate : null,
        asn: typeof as.asn === "number" ? as.asn : null,
        country_code: typeof l.country_code === "string" ? l.country_code : null,
        updated_at: host.lastUpdatedAt,
        doc: JSON.stringify(doc),
      },
    ],
  ];
  for (const protocol of new Set(protocols)) rows.push(["website_protocols", { domain, protocol }]);
  for (const tag of doc.tags as string[]) rows.push(["website_tags", { domain, tag }]);
  const body = [
    domain,
    title ?? "",
    serverHeader ?? "",
    typeof as.name === "string" ? as.name : "",
    typeof l.country === "string" ? l.country : "",
  ].join(" ");
  rows.push(["websites_fts", { rowid, body }]);
  return rows;
}
