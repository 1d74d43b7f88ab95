import { z } from "zod";
import { V1_INDEXES } from "./indexes";

/**
 * What the edge's document cache holds: the three v1 indexes, v2 `hosts`, and two paged v2
 * lists keyed by what they list: a host's names (by IP) and a certificate's hosts (by SHA-256).
 */
export const CACHE_INDEXES = [...V1_INDEXES, "hosts", "host_names", "certificate_hosts"] as const;
export const cacheIndexSchema = z.enum(CACHE_INDEXES);
export type CacheIndex = z.infer<typeof cacheIndexSchema>;
