import {
  type CreditOperation,
  ipAddressSchema,
  parseWebpropertyId,
  type PlatformCacheIndex,
  v3CertificateIdSchema,
  V3_MEDIA_TYPES,
} from "@scangate/core";

// The Platform assets the edge caches, and how each one's ids become cache keys. A key is what
// the upstream treats as one asset (the origin's reading, apps/origin/src/routes/v3): a SHA-256
// fingerprint in any case is one certificate; `Example.com:443` is `example.com:443`; a host
// address is looked up as spelled, so a host's key is its address as sent.

export interface AssetKind {
  /** The cache index of the asset (the PEM form of a certificate has its own). */
  readonly index: PlatformCacheIndex;
  /** The cost table entries of one lookup and of a bulk lookup. */
  readonly operation: CreditOperation;
  readonly bulkOperation: CreditOperation;
  /** The bulk body's list of ids. */
  readonly idsField: "host_ids" | "certificate_ids" | "webproperty_ids";
  /** Whether lookups take `at_time`. */
  readonly atTime: boolean;
  /** The media type the upstream answers a success with. */
  readonly mediaType: string;
  /** What the asset is called in a "not found" problem. */
  readonly noun: string;
  /** The cache key of an id, or null when the upstream refuses it (its own 400 answers). */
  key(id: string): string | null;
  /** The key of an answered asset's resource, matched against the keys asked. */
  resourceKey(resource: Record<string, unknown>): string | null;
}

/** An IPv6 address in full lower-case form (eight groups without leading zeros), IPv4 as is. */
export function comparableAddress(address: string): string {
  if (!address.includes(":")) return address;
  const lower = address.toLowerCase();
  const [head = "", tail] = lower.split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  const expand = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes(".")) return [group.replace(/^0+(?=.)/, "")];
      // An embedded IPv4 tail is two groups.
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  const left = expand(groupsOf(head));
  if (tail === undefined) return left.join(":");
  const right = expand(groupsOf(tail));
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => "0");
  return [...left, ...zeros, ...right].join(":");
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

export const HOST: AssetKind = {
  index: "v3_host",
  operation: "v3_host",
  bulkOperation: "v3_hosts",
  idsField: "host_ids",
  atTime: true,
  mediaType: V3_MEDIA_TYPES.host,
  noun: "Host",
  key: (id) => (ipAddressSchema.safeParse(id).success ? id : null),
  resourceKey: (resource) => {
    const ip = text(resource.ip);
    return ip === null ? null : comparableAddress(ip);
  },
};

export const CERTIFICATE: AssetKind = {
  index: "v3_certificate",
  operation: "v3_certificate",
  bulkOperation: "v3_certificates",
  idsField: "certificate_ids",
  atTime: false,
  mediaType: V3_MEDIA_TYPES.certificate,
  noun: "Certificate",
  key: (id) => (v3CertificateIdSchema.safeParse(id).success ? id.toLowerCase() : null),
  resourceKey: (resource) => text(resource.fingerprint_sha256)?.toLowerCase() ?? null,
};

/** A certificate's PEM form (GET .../certificate/{id}/raw): its own rows, never a bulk's. */
export const CERTIFICATE_PEM: AssetKind = {
  ...CERTIFICATE,
  index: "v3_certificate_pem",
  operation: "v3_certificate_raw",
  bulkOperation: "v3_certificates_raw",
  mediaType: V3_MEDIA_TYPES.pem,
};

export const WEBPROPERTY: AssetKind = {
  index: "v3_webproperty",
  operation: "v3_webproperty",
  bulkOperation: "v3_webproperties",
  idsField: "webproperty_ids",
  atTime: true,
  mediaType: V3_MEDIA_TYPES.webproperty,
  noun: "Web property",
  key: (id) => {
    const parsed = parseWebpropertyId(id);
    return parsed ? `${parsed.hostname}:${parsed.port}` : null;
  },
  resourceKey: (resource) => {
    const hostname = text(resource.hostname);
    return hostname === null || typeof resource.port !== "number"
      ? null
      : `${hostname.toLowerCase()}:${resource.port}`;
  },
};
