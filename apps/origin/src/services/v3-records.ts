import { ipAddressSchema, isSha256Fingerprint, parseWebpropertyId, type V3AssetType } from "@scangate/core";

/**
 * What the Platform's organization records (collections, tags, assignments, comments, scans,
 * CensEye jobs) share: their prefixed ids, their timestamps on the wire, and the asset ids
 * they point at.
 */

export type RecordPrefix = "col" | "tag" | "tas" | "top" | "cmt" | "scn" | "cej";

/** A new id: the prefix and 32 random hex digits (`tag_9f0c...`). */
export function newRecordId(prefix: RecordPrefix): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}_${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** An instant on the wire: RFC 3339 in UTC with milliseconds, as the SDK parses into a Date. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * What an asset id names, and the id as it is kept: a host IP, a certificate SHA-256
 * fingerprint (lowercase), or a web property `hostname:port` (the name lowercased). Null for
 * text that is none of these.
 */
export function parseAssetId(id: string): { type: Exclude<V3AssetType, "unknown">; id: string } | null {
  const text = id.trim();
  if (ipAddressSchema.safeParse(text).success) return { type: "host", id: text };
  if (isSha256Fingerprint(text)) return { type: "certificate", id: text.toLowerCase() };
  const web = parseWebpropertyId(text);
  if (web && /^[A-Za-z0-9.*_-]+$|^\[[0-9a-fA-F:.]+\]$/.test(web.hostname))
    return { type: "web_property", id: `${web.hostname}:${web.port}` };
  return null;
}

/** Where the asset is read in this service's own Platform API (the SDK's `platform_ref`). */
export function platformRef(type: Exclude<V3AssetType, "unknown">, id: string): string {
  const kind = { host: "host", certificate: "certificate", web_property: "webproperty" }[type];
  return `/v3/global/asset/${kind}/${encodeURIComponent(id)}`;
}
