import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

export type EdgeDb = DrizzleD1Database<typeof schema>;

export function edgeDb(d1: D1Database): EdgeDb {
  return drizzle(d1, { schema });
}
