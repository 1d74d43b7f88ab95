import {
  ApiError,
  platformTokenIssueBodySchema,
  platformTokenRevokeResultSchema,
  platformTokenStatusSchema,
  platformTokenWithSecretSchema,
  tenantCreateBodySchema,
  tenantListSchema,
  tenantPatchBodySchema,
  tenantRotateBodySchema,
  tenantSchema,
  tenantWithSecretSchema,
} from "@scangate/core";
import { balanceOf, balancesOf } from "../../ledger/balances";
import { type AdminRoute, type ApiContext, defineAdminRoute } from "../../pipeline/define-route";
import { parseJsonBody } from "../../http/json-body";
import {
  ADMIN_ACTOR,
  createTenant,
  deleteTenant,
  issuePlatformToken,
  revokePlatformTokens,
  rotateSecret,
  updateTenant,
} from "../../tenants/actions";
import { tenantToWire } from "../../tenants/store";
import type { TenantRow } from "../../db/schema";
import { component } from "../../openapi/components";

/** `row`, or the 404 of a tenant that does not exist (or no longer does). */
function knownTenant<T>(row: T | null | undefined): T {
  if (!row) throw new ApiError("not_found", "no tenant with this id");
  return row;
}

async function existingTenant(c: ApiContext): Promise<TenantRow> {
  return knownTenant(await c.get("services").tenants.get(c.req.param("id") ?? ""));
}

/** The tenant as the admin API shows it, with its quota read from its ledger object. */
async function tenantAnswer(c: ApiContext, row: TenantRow): Promise<Response> {
  const services = c.get("services");
  return c.json(tenantToWire(row, await balanceOf(services, row), services.clock.now()));
}

// Tenants: create (the secret is shown once), list, show, change allowance/period/tier/disabled,
// rotate the secret (optionally keeping the old one for a grace period), delete. Every change
// is audited and drops the tenant from this isolate's auth cache at once (others within 5 s).
// `used` and `resets_at` are read from each tenant's ledger object.

export const TENANT_ROUTES: readonly AdminRoute[] = [
  defineAdminRoute({
    method: "POST",
    path: "/admin/tenants",
    summary: "Create a tenant (its secret is shown only here)",
    body: component("TenantCreateBody", tenantCreateBodySchema),
    ok: component("TenantWithSecret", tenantWithSecretSchema),
    created: true,
    handler: async (c) => {
      const body = await parseJsonBody(c, tenantCreateBodySchema);
      return c.json(await createTenant(c.get("services"), body, ADMIN_ACTOR), 201);
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/admin/tenants",
    summary: "List tenants",
    ok: component("TenantList", tenantListSchema),
    handler: async (c) => {
      const services = c.get("services");
      const rows = await services.tenants.list();
      const balances = await balancesOf(services, rows);
      const now = services.clock.now();
      return c.json({
        tenants: rows.flatMap((row) => {
          const quota = balances.get(row.id);
          return quota ? [tenantToWire(row, quota, now)] : [];
        }),
      });
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/admin/tenants/:id",
    summary: "Show a tenant",
    ok: component("Tenant", tenantSchema),
    handler: async (c) => tenantAnswer(c, await existingTenant(c)),
  }),

  defineAdminRoute({
    method: "PATCH",
    path: "/admin/tenants/:id",
    summary: "Change allowance, period, tier, disabled, name, email or used",
    body: component("TenantPatchBody", tenantPatchBodySchema),
    ok: component("Tenant", tenantSchema),
    handler: async (c) => {
      const body = await parseJsonBody(c, tenantPatchBodySchema);
      const after = await updateTenant(c.get("services"), await existingTenant(c), body, ADMIN_ACTOR);
      return tenantAnswer(c, knownTenant(after));
    },
  }),

  defineAdminRoute({
    method: "POST",
    path: "/admin/tenants/:id/rotate",
    summary: "Rotate the secret, optionally keeping the old one for a grace period",
    body: component("TenantRotateBody", tenantRotateBodySchema),
    ok: component("TenantWithSecret", tenantWithSecretSchema),
    handler: async (c) => {
      const body = await parseJsonBody(c, tenantRotateBodySchema, {});
      const tenant = await existingTenant(c);
      return c.json(
        knownTenant(await rotateSecret(c.get("services"), tenant, body.grace_seconds, ADMIN_ACTOR)),
      );
    },
  }),

  defineAdminRoute({
    method: "DELETE",
    path: "/admin/tenants/:id",
    summary: "Delete a tenant",
    ok: component("Tenant", tenantSchema),
    handler: async (c) =>
      c.json(knownTenant(await deleteTenant(c.get("services"), await existingTenant(c), ADMIN_ACTOR))),
  }),

  // A tenant's Platform (/v3) bearer token, beside its Basic credentials: issue (or rotate, the
  // old token kept for a grace period; the token is shown only in this answer), show its state,
  // revoke. Audited; this isolate forgets the tenant's tokens at once, others within 5 s.

  defineAdminRoute({
    method: "POST",
    path: "/admin/tenants/:id/platform-token",
    summary:
      "Issue the tenant's Platform token, or rotate it (the old one works for grace_seconds, default 3600); shown only here",
    body: component("PlatformTokenIssueBody", platformTokenIssueBodySchema),
    ok: component("PlatformTokenWithSecret", platformTokenWithSecretSchema),
    created: true,
    handler: async (c) => {
      const body = await parseJsonBody(c, platformTokenIssueBodySchema, {});
      const tenant = await existingTenant(c);
      return c.json(
        await issuePlatformToken(c.get("services"), tenant, body.grace_seconds, ADMIN_ACTOR),
        201,
      );
    },
  }),

  defineAdminRoute({
    method: "GET",
    path: "/admin/tenants/:id/platform-token",
    summary: "Show whether the tenant holds a Platform token (never the token)",
    ok: component("PlatformTokenStatus", platformTokenStatusSchema),
    handler: async (c) => {
      const tenant = await existingTenant(c);
      return c.json(await c.get("services").platformTokens.status(tenant.id));
    },
  }),

  defineAdminRoute({
    method: "DELETE",
    path: "/admin/tenants/:id/platform-token",
    summary: "Revoke the tenant's Platform tokens (the current one and any in a grace period)",
    ok: component("PlatformTokenRevokeResult", platformTokenRevokeResultSchema),
    handler: async (c) =>
      c.json(await revokePlatformTokens(c.get("services"), await existingTenant(c), ADMIN_ACTOR)),
  }),
];
