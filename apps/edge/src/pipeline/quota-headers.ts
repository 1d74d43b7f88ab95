import type { TenantPeriod } from "@scangate/core";
import { periodSeconds, type QuotaState, secondsUntilReset } from "../tenants/periods";

export const QUOTA_POLICY_NAME = "quota";

/**
 * IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) for a tenant's quota:
 * `RateLimit-Policy: "quota";q=<allowance>;w=<period s>` and
 * `RateLimit: "quota";r=<remaining>;t=<s until reset>`. One-time credits have no window.
 */
export function quotaHeaders(quota: QuotaState, period: TenantPeriod, now: number): Record<string, string> {
  const window = periodSeconds(period, quota.resetsAt);
  const reset = secondsUntilReset(quota, now);
  const remaining = Math.max(0, quota.allowance - quota.used);
  return {
    "RateLimit-Policy": `"${QUOTA_POLICY_NAME}";q=${quota.allowance}${window === null ? "" : `;w=${window}`}`,
    RateLimit: `"${QUOTA_POLICY_NAME}";r=${remaining}${reset === null ? "" : `;t=${reset}`}`,
  };
}
