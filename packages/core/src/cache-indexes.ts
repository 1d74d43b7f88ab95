import { z } from "zod";
import { V1_INDEXES } from "./indexes";

/** What the edge's document cache holds: the three v1 indexes, and v2 `hosts`. */
export const CACHE_INDEXES = [...V1_INDEXES, "hosts"] as const;
export const cacheIndexSchema = z.enum(CACHE_INDEXES);
export type CacheIndex = z.infer<typeof cacheIndexSchema>;
