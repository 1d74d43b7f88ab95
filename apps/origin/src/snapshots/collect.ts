import type { CertificateSource, HostHistorySource, SnapshotSources } from "./build";
import type { WebsiteSource } from "./definitions";

type Value = string | number | null;

/**
 * Gathers, from the rows the dataset generator emits (table name + row in the main database's
 * column names), what the snapshot tables are built from. The seed script feeds it beside the
 * main database's INSERTs, so the snapshots need no second read of the data.
 */
export class SnapshotSourceCollector {
  private readonly history: HostHistorySource[] = [];
  private readonly certificates: CertificateSource[] = [];
  private readonly websites = new Map<string, Omit<WebsiteSource, "protocols" | "tags">>();
  private readonly protocols = new Map<string, string[]>();
  private readonly tags = new Map<string, string[]>();

  add(table: string, row: Record<string, Value | undefined>): void {
    const text = (key: string) => (typeof row[key] === "string" ? row[key] : null);
    const number = (key: string) => (typeof row[key] === "number" ? row[key] : null);
    switch (table) {
      case "host_history":
        this.history.push({
          ip: String(row.ip),
          validFrom: Number(row.valid_from),
          validTo: number("valid_to"),
          doc: String(row.doc),
        });
        return;
      case "certificates":
        this.certificates.push({ addedAt: Number(row.added_at), doc: String(row.doc) });
        return;
      case "websites":
        this.websites.set(String(row.domain).toLowerCase(), {
          domain: String(row.domain),
          alexaRank: number("alexa_rank"),
          ip: text("ip"),
          httpStatusCode: number("http_status_code"),
          httpTitle: text("http_title"),
          httpServer: text("http_server"),
          certificate: text("certificate"),
          asn: number("asn"),
          countryCode: text("country_code"),
          updatedAt: Number(row.updated_at),
        });
        return;
      case "website_protocols":
        this.append(this.protocols, String(row.domain), String(row.protocol));
        return;
      case "website_tags":
        this.append(this.tags, String(row.domain), String(row.tag));
        return;
    }
  }

  /** The sources in the order the main database would list them (as publish.ts reads them). */
  sources(): SnapshotSources {
    const byKey =
      <T>(key: (item: T) => string) =>
      (a: T, b: T) =>
        key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
    const sha256 = (c: CertificateSource) =>
      String(
        (JSON.parse(c.doc) as { parsed?: { fingerprint_sha256?: string } }).parsed?.fingerprint_sha256 ?? "",
      );
    return {
      hostHistory: [...this.history].sort(
        byKey((h) => `${h.ip}\u0000${String(h.validFrom).padStart(16, "0")}`),
      ),
      certificates: [...this.certificates].sort(byKey(sha256)),
      websites: [...this.websites.entries()].sort(byKey(([domain]) => domain)).map(([domain, site]) => ({
        ...site,
        protocols: [...(this.protocols.get(domain) ?? [])].sort(),
        tags: [...(this.tags.get(domain) ?? [])].sort(),
      })),
    };
  }

  private append(map: Map<string, string[]>, domain: string, value: string): void {
    const key = domain.toLowerCase();
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }
}
