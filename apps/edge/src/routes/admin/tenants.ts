import { ApiError, tenantCreateBodySchema, tenantPatchBodySchema, tenantRotateBodySchema } from "@scangate/core";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { parseJsonBody } from "../../http/json-body";
import { tenantToWire } from "../../tenants/store";

const ADMIN_ACTOR = "admin";

function checkTier(c: Context<AppEnv>, tier: string | undefined): void {
  const tiers = c.get("services").config.rateTiers;
  if (tier !== undefined && !(tier in tiers)) {
    throw new ApiError("bad_request", `tier: unknown tier "${tier}" (one of ${Object.keys(tiers).join(", ")})`);
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
    const { tenants, audit, config, clock } = c.get("services");
    const { row, secret } = await tenants.create({
      name: body.name,
      email: body.email ?? "",
      allowance: body.allowance ?? config.tenantDefaults.allowance,
      period: body.period ?? config.tenantDefaults.period,
      tier: body.tier ?? config.tenantDefaults.tier,
    });
    const wire = tenantToWire(row, clock.now());
    await audit.record({ actor: ADMIN_ACTOR, action: "tenant.create", tenantId: row.id, before: null, after: wire });
    return c.json({ ...wire, api_secret: secret }, 201);
  });

  app.get("/admin/tenants", async (c) => {
    const { tenants, clock } = c.get("services");
    const now = clock.now();
    return c.json({ tenants: (await tenants.list()).map((row) => tenantToWire(row, now)) });
  });

  app.get("/admin/tenants/:id", async (c) => c.json(tenantToWire(await existingTenant(c), c.get("services").clock.now())));

  app.patch("/admin/tenants/:id", async (c) => {
    const body = await parseJsonBody(c, tenantPatchBodySchema);
    checkTier(c, body.tier);
    const { tenants, audit, auth, clock } = c.get("services");
    const before = await existingTenant(c);
    const after = await tenants.update(before.id, body);
    if (!after) throw new ApiError("not_found", "no tenant with this id");
    auth.invalidate(before.apiId);
    const now = clock.now();
    const wire = tenantToWire(after, now);
    await audit.record({
      actor: ADMIN_ACTOR,
      action: "tenant.update",
      tenantId: after.id,
      before: tenantToWire(before, now),
      after: wire,
    });
    return c.json(wire);
  });

  app.post("/admin/tenants/:id/rotate", async (c) => {
    const body = await parseJsonBody(c, tenantRotateBodySchema, {});
    const { tenants, audit, auth, clock } = c.get("services");
    const before = await existingTenant(c);
    const rotated = await tenants.rotate(before.id, body.grace_seconds);
    if (!rotated) throw new ApiError("not_found", "no tenant with this id");
    auth.invalidate(before.apiId);
    const now = clock.now();
    const wire = tenantToWire(rotated.row, now);
    await audit.record({
      actor: ADMIN_ACTOR,
      action: "tenant.rotate",
      tenantId: before.id,
      before: tenantToWire(before, now),
      after: { ...wire, grace_seconds: body.grace_seconds },
    });
    return c.json({ ...wire, api_secret: rotated.secret });
  });

  app.delete("/admin/tenants/:id", async (c) => {
    const { tenants, audit, auth, clock } = c.get("services");
    const before = await existingTenant(c);
    const removed = await tenants.remove(before.id);
    if (!removed) throw new ApiError("not_found", "no tenant with this id");
    auth.invalidate(before.apiId);
    const wire = tenantToWire(removed, clock.now());
    await audit.record({ actor: ADMIN_ACTOR, action: "tenant.delete", tenantId: before.id, before: wire, after: null });
    return c.json(wire);
  });
}
