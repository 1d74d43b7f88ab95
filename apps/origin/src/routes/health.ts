import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { defineRoute, jsonResponse } from "../routing";

/** Not part of the Censys interface: the start scripts' readiness probe. */
const healthSchema = z.object({
  status: z.literal("ok"),
  service: z.literal("origin"),
  accounts_seen: z.number().int().min(0),
});

/** GET /health: liveness plus a check that the D1 schema is migrated (used by start scripts). */
export const health = defineRoute(
  createRoute({
    method: "get",
    path: "/health",
    responses: { 200: jsonResponse(healthSchema, "The origin is up and its database migrated") },
  }),
  { operation: "health", cost: null },
  async (c) => {
    const accountsSeen = await c.var.services.quota.accountsSeen();
    return c.json({ status: "ok", service: "origin", accounts_seen: accountsSeen });
  },
);

export const healthRoutes = [health];
