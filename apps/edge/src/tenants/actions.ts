import {
  ApiError,
  type PlatformTokenRevokeResult,
  type Tenant,
  type PlatformTokenWithSecret,
  type TenantCreateBody,
  type TenantPatchBody,
  type TenantWithSecret,
} from "@scangate/core";
import { type EdgeConfig, unknownTierProblem } from "../config";
import type { TenantRow } from "../db/schema";
import { balanceOf, termsOf } from "../ledger/balances";
import type { EdgeServices } from "../services";
import { tenantToWire } from "./store";

// The tenant changes an admin makes, shared by the JSON admin API (routes/admin/tenants.ts) and
// the console's forms (routes/dashboard/admin-actions.tsx): one store write, the tenant's
// ledger told its new terms, the auth cache dropped at once, and one audit entry whose actor
// says where the change came from.

export type TenantActionDeps = Pick<
  EdgeServices,
  "tenants" | "platformTokens" | "audit" | "auth" | "clock" | "config" | "ledgers" | "quotas" | "platformJobs"
>;

export const ADMIN_ACTOR = "admin";
export const CONSOLE_ACTOR = "admin (console)";

/** A tenant is only ever put on a configured tier (one without a tier would have no burst limit). */
function assertConfiguredTier(config: EdgeConfig, tier: string | undefined): void {
  const problem = tier === undefined ? undefined : unknownTierProblem(config.rateTiers, tier);
  if (problem) throw new ApiError("bad_request", problem);
}

export async function createTenant(
  services: TenantActionDeps,
  body: TenantCreateBody,
  actor: string,
): Promise<TenantWithSecret> {
  const { tenants, audit, config, clock } = services;
  assertConfiguredTier(config, body.tier);
  const { row, secret } = await tenants.create({
    name: body.name,
    email: body.email ?? "",
    allowance: body.allowance ?? config.tenantDefaults.allowance,
    period: body.period ?? config.tenantDefaults.period,
    tier: body.tier ?? config.tenantDefaults.tier,
  });
  // A credential refused a moment ago in this isolate may be this one's: it works from now on.
  services.auth.invalidate(row.apiId);
  const wire = tenantToWire(row, await balanceOf(services, row), clock.now());
  await audit.record({ actor, action: "tenant.create", tenantId: row.id, before: null, after: wire });
  return { ...wire, api_secret: secret };
}

export async function updateTenant(
  services: TenantActionDeps,
  before: TenantRow,
  changes: TenantPatchBody,
  actor: string,
): Promise<TenantRow | null> {
  const { tenants, audit, auth, clock, config, ledgers, quotas } = services;
  assertConfiguredTier(config, changes.tier);
  const { used, job_max_pages, ...named } = changes;
  const rowChanges = job_max_pages === undefined ? named : { ...named, jobMaxPages: job_max_pages };
  const quotaBefore = await balanceOf(services, before);
  const after = await tenants.update(before.id, rowChanges);
  if (!after) return null;
  auth.invalidate(before.apiId);
  // The ledger takes the new allowance and period now (a request that read the old row cannot
  // undo them: its terms are older), and a corrected `used` if one was given.
  const reading = await ledgers(after.id).configure({
    terms: termsOf(after),
    now: clock.now(),
    ...(used === undefined ? {} : { used }),
  });
  quotas.forget(after.id);
  const now = clock.now();
  await audit.record({
    actor,
    action: "tenant.update",
    tenantId: after.id,
    before: tenantToWire(before, quotaBefore, now),
    after: tenantToWire(after, reading.quota, now),
  });
  return after;
}

export async function rotateSecret(
  services: TenantActionDeps,
  before: TenantRow,
  graceSeconds: number,
  actor: string,
): Promise<TenantWithSecret | null> {
  const { tenants, audit, auth, clock } = services;
  const rotated = await tenants.rotate(before.id, graceSeconds);
  if (!rotated) return null;
  auth.invalidate(before.apiId);
  const now = clock.now();
  const quota = await balanceOf(services, rotated.row);
  const wire = tenantToWire(rotated.row, quota, now);
  await audit.record({
    actor,
    action: "tenant.rotate",
    tenantId: before.id,
    before: tenantToWire(before, quota, now),
    after: { ...wire, grace_seconds: graceSeconds },
  });
  return { ...wire, api_secret: rotated.secret };
}

/**
 * Issues the tenant's Platform (/v3) token, or rotates it: the token it replaces keeps working
 * for `graceSeconds`. The token is in the answer only; the audit entry holds its id and times.
 */
export async function issuePlatformToken(
  services: TenantActionDeps,
  tenant: TenantRow,
  graceSeconds: number,
  actor: string,
): Promise<PlatformTokenWithSecret> {
  const { platformTokens, audit, auth } = services;
  const before = await platformTokens.status(tenant.id);
  const issued = await platformTokens.issue(tenant.id, graceSeconds);
  auth.invalidate(tenant.apiId);
  await audit.record({
    actor,
    action: issued.rotated ? "tenant.token.rotate" : "tenant.token.issue",
    tenantId: tenant.id,
    before: before.token_id === null && before.previous_token_expires_at === null ? null : before,
    after: issued.rotated ? { ...issued.status, grace_seconds: graceSeconds } : issued.status,
  });
  return { ...issued.status, token: issued.token };
}

/** Deletes the tenant: its jobs' files, its row, then its ledger (the tenant's balance goes with it). */
export async function deleteTenant(
  services: TenantActionDeps,
  before: TenantRow,
  actor: string,
): Promise<Tenant | null> {
  const { tenants, audit, auth, clock, ledgers, quotas } = services;
  const quota = await balanceOf(services, before);
  await services.platformJobs?.eraseFilesOf(before.id);
  const removed = await tenants.remove(before.id);
  if (!removed) return null;
  auth.invalidate(before.apiId);
  quotas.forget(before.id);
  await ledgers(before.id).erase();
  const wire = tenantToWire(removed, quota, clock.now());
  await audit.record({ actor, action: "tenant.delete", tenantId: before.id, before: wire, after: null });
  return wire;
}

/** Every Platform token of the tenant stops working (in this isolate at once, elsewhere within 5 s). */
export async function revokePlatformTokens(
  services: TenantActionDeps,
  tenant: TenantRow,
  actor: string,
): Promise<PlatformTokenRevokeResult> {
  const { platformTokens, audit, auth } = services;
  const before = await platformTokens.status(tenant.id);
  const revoked = await platformTokens.revoke(tenant.id);
  auth.invalidate(tenant.apiId);
  const result = { tenant_id: tenant.id, revoked };
  await audit.record({ actor, action: "tenant.token.revoke", tenantId: tenant.id, before, after: result });
  return result;
}
