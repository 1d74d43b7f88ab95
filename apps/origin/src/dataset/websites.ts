import { isoSeconds } from "./clock";
import type { GeneratedHost } from "./hosts/host";
import type { Prng } from "./prng";
import type { TableRow } from "./rows";

/**
 * Websites: one per domain a host serves with a certificate issued for it (the first such host
 * in generation order is the site's address), with that host's web services on it.
 */

export interface WebsiteSource {
  domain: string;
  host: GeneratedHost;
}

export class WebsiteCollector {
  private readonly byDomain = new Map<string, WebsiteSource>();

  /** Records the domains this host serves (call once per host, in generation order). */
  observe(host: GeneratedHost, domainOfCertificate: (sha256: string) => string | undefined): void {
    for (const { spec } of host.current) {
      if (spec.kind !== "HTTPS" || !spec.certificate) continue;
      const domain = domainOfCertificate(spec.certificate);
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

function websiteRows(source: WebsiteSource, rank: number, rowid: number): TableRow[] {
  const { domain, host } = source;
  const web = host.current.filter(({ spec }) => spec.kind === "HTTPS" || spec.kind === "HTTP");
  const https = web.find(({ spec }) => spec.kind === "HTTPS");
  const protocols = web.map(({ spec }) => spec.v1Protocol).sort();
  const ports = [...new Set(web.map(({ spec }) => spec.port))].sort((a, b) => a - b);
  const l = host.network.location;
  const doc: Record<string, unknown> = {
    domain,
    alexa_rank: rank,
    ip: host.ip,
    protocols,
    ports,
    tags: [...new Set(web.map(({ spec }) => spec.v1Protocol.split("/")[1] ?? ""))].sort(),
    location: { continent: l.continent, country: l.country, country_code: l.countryCode, city: l.city },
    autonomous_system: { asn: host.network.asn, name: host.network.name, routed_prefix: host.network.prefix },
    updated_at: isoSeconds(host.lastUpdatedAt),
  };
  for (const { spec } of web) {
    const [port = "", protocol = ""] = spec.v1Protocol.split("/");
    doc[port] = { [protocol]: spec.v1 };
  }
  const main = https?.spec;
  const rows: TableRow[] = [
    [
      "websites",
      {
        rowid,
        domain,
        alexa_rank: rank,
        ip: host.ip,
        ip_num: host.ipNum,
        http_status_code: main?.httpStatus ?? null,
        http_title: main?.httpTitle ?? null,
        http_server: main?.httpServer ?? null,
        certificate: main?.certificate ?? null,
        asn: host.network.asn,
        country_code: l.countryCode,
        updated_at: host.lastUpdatedAt,
        doc: JSON.stringify(doc),
      },
    ],
  ];
  for (const protocol of new Set(protocols)) rows.push(["website_protocols", { domain, protocol }]);
  for (const tag of doc.tags as string[]) rows.push(["website_tags", { domain, tag }]);
  const body = [domain, main?.httpTitle ?? "", main?.httpServer ?? "", host.network.name, l.country].join(
    " ",
  );
  rows.push(["websites_fts", { rowid, body }]);
  return rows;
}
