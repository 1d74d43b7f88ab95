import { z } from "zod";

/** Cursor tokens of a v2 page: "" at either end (the hosts search's convention). */
export const pageLinksSchema = z.object({ prev: z.string(), next: z.string() });
export type PageLinks = z.infer<typeof pageLinksSchema>;
