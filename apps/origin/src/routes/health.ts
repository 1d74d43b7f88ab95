import type { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** GET /health: liveness plus a check that the D1 schema is migrated (used by start scripts). */
export function registerHealth(app: Hono<AppEnv>): void {
  app.get("/health", async (c) => {
    const accountsSeen = await c.var.services.quota.accountsSeen();
    return c.json({ status: "ok", service: "origin", accounts_seen: accountsSeen });
  });
}
