import { z } from "zod";

/** The answer of DELETE /admin/cache/:index/:id. */
export const cachePurgeResultSchema = z.object({ deleted: z.number().int().min(0) });
export type CachePurgeResult = z.infer<typeof cachePurgeResultSchema>;
