import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

/** Drizzle over the edge's D1, and the binding itself (`$client`) for statements prepared once. */
export type EdgeDb = DrizzleD1Database<typeof schema> & { $client: D1Database };

export function edgeDb(d1: D1Database): EdgeDb {
  return drizzle(d1, { schema });
}
