import {
  legacyCertificate,
  legacyHost,
  legacyWebsite,
  type V3SearchQueryHit,
  type WebsiteDocument,
} from "@scangate/core";
import { seriesRow, type SnapshotSeries, type WebsiteSource } from "../series";
import type { SourceRow } from "../source";
import type { PlatformDefinitions } from "./series";

/**
 * Platform search hits as the series' rows: each hit's document reshaped into the legacy one
 * the series reads (`legacyHost`, `legacyCertificate`, `legacyWebsite` of packages/core), then
 * read by the series' own fields, exactly as the origin reads its stored documents.
 */

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The names of each certificate a host's services present, by fingerprint (lowercase). */
function certificateNames(host: Obj): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const service of list(host.services)) {
    const cert = obj(obj(service).cert);
    const fingerprint = str(cert.fingerprint_sha256);
    if (fingerprint && Array.isArray(cert.names))
      names.set(
        fingerprint.toLowerCase(),
        cert.names.filter((n): n is string => typeof n === "string"),
      );
  }
  return names;
}

/** The ipv4 row of a host hit. */
export function hostRow(definitions: PlatformDefinitions, host: unknown): SourceRow {
  const names = certificateNames(obj(host));
  return seriesRow(definitions.ipv4, {
    doc: legacyHost(host),
    certificateNames: (sha256) => names.get(sha256.toLowerCase()),
  });
}

/** The certificates row of a certificate hit; tags are judged at `now`. */
export function certificateRow(
  definitions: PlatformDefinitions,
  certificate: unknown,
  now: number,
): SourceRow {
  return seriesRow(definitions.certificates, {
    doc: legacyCertificate(certificate, undefined, { now }),
  });
}

/** The first HTTPS property of a site (the lowest port): the site's main service. */
function mainService(properties: readonly Obj[]): Obj | undefined {
  return [...properties]
    .filter((p) => p.tls !== undefined)
    .sort((a, b) => Number(a.port) - Number(b.port))[0];
}

function serverHeader(http: Obj): string | null {
  for (const [name, entry] of Object.entries(obj(http.headers))) {
    if (name.toLowerCase() === "server") return str(list(obj(entry).headers)[0]);
  }
  return null;
}

/** The websites row of one name's web properties. */
export function websiteRow(
  definitions: PlatformDefinitions,
  hostname: string,
  properties: readonly unknown[],
): SourceRow {
  const doc: WebsiteDocument = legacyWebsite(hostname, properties);
  const main = mainService(properties.map(obj));
  const http = obj(
    list(main?.endpoints)
      .map(obj)
      .find((e) => e.http !== undefined)?.http,
  );
  const site: WebsiteSource = {
    domain: doc.domain,
    alexaRank: null,
    ip: str(doc.ip),
    httpStatusCode: typeof http.status_code === "number" ? http.status_code : null,
    // A page without a title: the series' NULL, where the v1 document shows "".
    httpTitle: str(http.html_title) || null,
    httpServer: serverHeader(http),
    certificate: str(obj(main?.cert).fingerprint_sha256) ?? str(obj(main?.tls).fingerprint_sha256),
    asn: null,
    countryCode: null,
    updatedAt: Number.NaN,
    protocols: doc.protocols ?? [],
    tags: Array.isArray(doc.tags) ? (doc.tags as string[]) : [],
    doc: JSON.stringify(doc),
  };
  return seriesRow(definitions.websites, { site, doc: doc });
}

/**
 * The rows of a page of hits. Websites are grouped by name first: `pending` collects a name's
 * properties across pages, and its row comes out once every page is read (`flushWebsites`).
 */
export function hitRows(
  series: SnapshotSeries,
  definitions: PlatformDefinitions,
  hits: readonly V3SearchQueryHit[],
  now: number,
  pending: Map<string, unknown[]>,
): SourceRow[] {
  const rows: SourceRow[] = [];
  for (const hit of hits) {
    if (series === "ipv4" && hit.host_v1) rows.push(hostRow(definitions, hit.host_v1.resource));
    else if (series === "certificates" && hit.certificate_v1)
      rows.push(certificateRow(definitions, hit.certificate_v1.resource, now));
    else if (series === "websites" && hit.webproperty_v1) {
      const property = hit.webproperty_v1.resource;
      const name = property.hostname?.toLowerCase();
      if (name) pending.set(name, [...(pending.get(name) ?? []), property]);
    }
  }
  return rows;
}

export function flushWebsites(
  definitions: PlatformDefinitions,
  pending: Map<string, unknown[]>,
): SourceRow[] {
  return [...pending].map(([hostname, properties]) => websiteRow(definitions, hostname, properties));
}
