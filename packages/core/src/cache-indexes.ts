import { z } from "zod";
import { V1_INDEXES } from "./indexes";

/**
 * What the edge's document cache holds: the three v1 indexes, v2 `hosts`, and two paged v2
 * lists keyed by what they list: a host's names (by IP) and a certificate's hosts (by SHA-256).
 */
export const CACHE_INDEXES = [...V1_INDEXES, "hosts", "host_names", "certificate_hosts"] as const;
export const cacheIndexSchema = z.enum(CACHE_INDEXES);
export type CacheIndex = z.infer<typeof cacheIndexSchema>;

/**
 * The Platform API's (/v3) documents, kept apart from the legacy indexes (a v3 host asset is not
 * a v2 host document): hosts (every `at_time`), certificates, their PEM form, web properties.
 */
export const PLATFORM_CACHE_INDEXES = [
  "v3_host",
  "v3_certificate",
  "v3_certificate_pem",
  "v3_webproperty",
] as const;
export type PlatformCacheIndex = (typeof PLATFORM_CACHE_INDEXES)[number];

/** Every index whose documents an admin may purge (DELETE /admin/cache/:index/:id). */
export type PurgeableIndex = CacheIndex | PlatformCacheIndex;
