import type { Account } from "@scangate/core";
import { accountTimestamp } from "@scangate/core/http";
import type { TenantRow } from "../db/schema";
import { NEVER_RESETS_AT, type QuotaState } from "./periods";

/**
 * The tenant's account as GET /api/v1/account answers it, with its quota as its ledger reads
 * now; the dashboard shows the same, from this same function.
 */
export function tenantAccount(tenant: TenantRow, quota: QuotaState, now: number): Account {
  return {
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
}
