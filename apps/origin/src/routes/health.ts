import type { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** GET /health: liveness plus a check that the D1 schema is migrated (used by start scripts). */
export function registerHealth(app: Hono<AppEnv>): void {
  app.get("/health", async (c) => {
    const row = await c.env.DB.prepare("select count(*) as n from account_usage").first<{ n: number }>();
    return c.json({ status: "ok", service: "origin", accounts_seen: row?.n ?? 0 });
  });
}
