import { z } from "zod";

/** How a tenant's allowance refills; `never`: one-time credits that do not refill. */
export const TENANT_PERIODS = ["daily", "monthly", "never"] as const;
export const tenantPeriodSchema = z.enum(TENANT_PERIODS);
export type TenantPeriod = z.infer<typeof tenantPeriodSchema>;
