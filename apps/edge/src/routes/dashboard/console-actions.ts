import type { TenantCreateBody, TenantPatchBody, TenantWithSecret } from "@scangate/core";
import type { TenantRow } from "../../db/schema";
import type { EdgeServices } from "../../services";
import { tenantToWire } from "../../tenants/store";

// What the console's forms do, through the same store, auth-cache and audit-log calls as the
// JSON admin API (routes/admin/tenants.ts), so a change made here is the same change, takes
// effect as fast, and lands in the same audit log; the actor says it came from the console.

export const CONSOLE_ACTOR = "admin (console)";

export async function createTenant(services: EdgeServices, body: TenantCreateBody): Promise<TenantWithSecret> {
  const { tenants, audit, config, clock } = services;
  const { row, secret } = await tenants.create({
    name: body.name,
    email: body.email ?? "",
    allowance: body.allowance ?? config.tenantDefaults.allowance,
    period: body.period ?? config.tenantDefaults.period,
    tier: body.tier ?? config.tenantDefaults.tier,
  });
  const wire = tenantToWire(row, clock.now());
  await audit.record({ actor: CONSOLE_ACTOR, action: "tenant.create", tenantId: row.id, before: null, after: wire });
  return { ...wire, api_secret: secret };
}

export async function updateTenant(services: EdgeServices, before: TenantRow, changes: TenantPatchBody): Promise<TenantRow | null> {
  const { tenants, audit, auth, clock } = services;
  const after = await tenants.update(before.id, changes);
  if (!after) return null;
  auth.invalidate(before.apiId);
  const now = clock.now();
  await audit.record({
    actor: CONSOLE_ACTOR,
    action: "tenant.update",
    tenantId: after.id,
    before: tenantToWire(before, now),
    after: tenantToWire(after, now),
  });
  return after;
}

export async function rotateSecret(services: EdgeServices, before: TenantRow, graceSeconds: number): Promise<TenantWithSecret | null> {
  const { tenants, audit, auth, clock } = services;
  const rotated = await tenants.rotate(before.id, graceSeconds);
  if (!rotated) return null;
  auth.invalidate(before.apiId);
  const now = clock.now();
  const wire = tenantToWire(rotated.row, now);
  await audit.record({
    actor: CONSOLE_ACTOR,
    action: "tenant.rotate",
    tenantId: before.id,
    before: tenantToWire(before, now),
    after: { ...wire, grace_seconds: graceSeconds },
  });
  return { ...wire, api_secret: rotated.secret };
}
