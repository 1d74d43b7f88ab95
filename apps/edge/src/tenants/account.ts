import type { Account } from "@scangate/core";
import type { TenantRow } from "../db/schema";
import type { EdgeServices } from "../services";
import { accountTimestamp } from "@scangate/core/http";
import { effectiveQuota, NEVER_RESETS_AT, type QuotaState } from "./periods";

/**
 * The tenant's account as GET /api/v1/account answers it; the dashboard shows the same, from
 * this same function. The quota is read fresh: the one in the auth cache may be seconds old.
 */
export async function tenantAccount(
  services: EdgeServices,
  tenant: TenantRow,
): Promise<{ account: Account; quota: QuotaState }> {
  const now = services.clock.now();
  const quota = (await services.quota.current(tenant.id)) ?? effectiveQuota(tenant, now);
  const account: Account = {
    login: tenant.name,
    email: tenant.email,
    first_login: accountTimestamp(tenant.createdAt),
    // With `.ffffff`, as the public service answers: the official `censys account` command cuts
    // the last seven characters off this value.
    last_login: accountTimestamp(tenant.lastSeenAt ?? now, true),
    quota: {
      used: quota.used,
      allowance: quota.allowance,
      resets_at: quota.resetsAt === null ? NEVER_RESETS_AT : accountTimestamp(quota.resetsAt),
    },
  };
  return { account, quota };
}
