import {
  ApiError,
  tenantCreateBodySchema,
  tenantPatchBodySchema,
  tenantRotateBodySchema,
} from "@scangate/core";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { parseJsonBody } from "../../http/json-body";
import { ADMIN_ACTOR, createTenant, rotateSecret, updateTenant } from "../../tenants/actions";
import { tenantToWire } from "../../tenants/store";

function checkTier(c: Context<AppEnv>, tier: string | undefined): void {
  const tiers = c.get("services").config.rateTiers;
  if (tier !== undefined && !(tier in tiers)) {
    throw new ApiError(
      "bad_request",
      `tier: unknown tier "${tier}" (one of ${Object.keys(tiers).join(", ")})`,
    );
  }
}

async function existingTenant(c: Context<AppEnv>) {
  const row = await c.get("services").tenants.get(c.req.param("id") ?? "");
  if (!row) throw new ApiError("not_found", "no tenant with this id");
  return row;
}

/**
 * Tenants: create (the secret is shown once), list, show, change allowance/period/tier/disabled,
 * rotate the secret (optionally keeping the old one for a grace period), delete. Every change
 * is audited and drops the tenant from this isolate's auth cache at once (others within 5 s).
 */
export function registerTenantAdminRoutes(app: Hono<AppEnv>): void {
  app.post("/admin/tenants", async (c) => {
    const body = await parseJsonBody(c, tenantCreateBodySchema);
    checkTier(c, body.tier);
    return c.json(await createTenant(c.get("services"), body, ADMIN_ACTOR), 201);
  });

  app.get("/admin/tenants", async (c) => {
    const { tenants, clock } = c.get("services");
    const now = clock.now();
    return c.json({ tenants: (await tenants.list()).map((row) => tenantToWire(row, now)) });
  });

  app.get("/admin/tenants/:id", async (c) =>
    c.json(tenantToWire(await existingTenant(c), c.get("services").clock.now())),
  );

  app.patch("/admin/tenants/:id", async (c) => {
    const body = await parseJsonBody(c, tenantPatchBodySchema);
    checkTier(c, body.tier);
    const services = c.get("services");
    const after = await updateTenant(services, await existingTenant(c), body, ADMIN_ACTOR);
    if (!after) throw new ApiError("not_found", "no tenant with this id");
    return c.json(tenantToWire(after, services.clock.now()));
  });

  app.post("/admin/tenants/:id/rotate", async (c) => {
    const body = await parseJsonBody(c, tenantRotateBodySchema, {});
    const rotated = await rotateSecret(
      c.get("services"),
      await existingTenant(c),
      body.grace_seconds,
      ADMIN_ACTOR,
    );
    if (!rotated) throw new ApiError("not_found", "no tenant with this id");
    return c.json(rotated);
  });

  app.delete("/admin/tenants/:id", async (c) => {
    const { tenants, audit, auth, clock } = c.get("services");
    const before = await existingTenant(c);
    const removed = await tenants.remove(before.id);
    if (!removed) throw new ApiError("not_found", "no tenant with this id");
    auth.invalidate(before.apiId);
    const wire = tenantToWire(removed, clock.now());
    await audit.record({
      actor: ADMIN_ACTOR,
      action: "tenant.delete",
      tenantId: before.id,
      before: wire,
      after: null,
    });
    return c.json(wire);
  });
}
