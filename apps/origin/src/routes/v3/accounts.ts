import {
  ApiError,
  v3CreditUsageQuerySchema,
  v3CreditUsageReportSchema,
  v3InputError,
  v3OrganizationCreditsSchema,
  v3OrganizationDetailsQuerySchema,
  v3OrganizationDetailsSchema,
  V3_CREDIT_USAGE_EARLIEST_DATE,
  V3_CREDIT_USAGE_MAX_DAYS,
  type V3CreditUsageQuery,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { notAMember, type PlatformOrganization } from "../../http/platform-auth";
import { v3Query } from "../../http/v3-inputs";
import { creditUsageReport, type UsageWindow } from "../../services/credit-usage";
import { currentMembers, type Member } from "../../services/v3-members";
import { platformRoute } from "./operation";

/**
 * Account management of the Platform API: the caller's organization, its credits and their
 * usage. The organization in the path must be the caller's (403 otherwise, as for
 * `organization_id` on any v3 route). Members, invitations and a user's own credits are
 * members.ts's.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;
export const organizationParam = z.object({ organization_id: z.string() });
export const memberParam = organizationParam.extend({ user_id: z.string() });
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

export function callerOrganization(c: Context<AppEnv>): PlatformOrganization {
  const asked = c.req.param("organization_id") ?? "";
  const { organization } = c.var.platform;
  if (asked !== organization.organizationId) throw notAMember(asked);
  return organization;
}

/** The organization's members now (its accounts as it changed them). */
export async function membersOf(c: Context<AppEnv>, organization: PlatformOrganization): Promise<Member[]> {
  const changes = await c.var.services.platform.memberChanges(organization.organizationId);
  return currentMembers(organization.members, changes);
}

/** The report window from the query: whole UTC days, start_date..end_date inclusive. */
export function usageWindow(query: V3CreditUsageQuery, nowMs: number): UsageWindow {
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const endDate = query.end_date ?? query.date ?? today;
  const startDate = query.start_date ?? query.date ?? `${endDate.slice(0, 8)}01`;
  for (const [name, value] of [
    ["start_date", startDate],
    ["end_date", endDate],
  ] as const) {
    if (value < V3_CREDIT_USAGE_EARLIEST_DATE)
      throw v3InputError(`query.${name}`, `must be on or after ${V3_CREDIT_USAGE_EARLIEST_DATE}`, value);
  }
  const startMs = Date.parse(`${startDate}T00:00:00Z`);
  const endMs = Date.parse(`${endDate}T00:00:00Z`) + DAY_MS;
  if (endMs <= startMs) throw v3InputError("query.end_date", "must not be before start_date", endDate);
  if (endMs - startMs > V3_CREDIT_USAGE_MAX_DAYS * DAY_MS + DAY_MS)
    throw v3InputError("query.end_date", `the range cannot exceed ${V3_CREDIT_USAGE_MAX_DAYS} days`, endDate);
  return { startMs, endMs, granularity: query.granularity };
}

/** One member's usage report (what they spent; grants are the organization's). */
export async function memberUsage(c: Context<AppEnv>, organization: PlatformOrganization, userId: string) {
  const query = v3Query(c, v3CreditUsageQuerySchema);
  const { credits, clock } = c.var.services;
  const window = usageWindow(query, clock.now());
  const rows = await credits.transactions(organization.organizationId, window.startMs, window.endMs);
  const mine = rows.filter((row) => row.userId === userId);
  return creditUsageReport(mine, window, { byConsumer: false });
}

/** GET /v3/accounts/organizations/{organization_id}: the organization (member counts on request). */
export const getOrganization = platformRoute(
  "accountManagementGetOrganizationDetails",
  {
    request: { params: organizationParam, query: v3OrganizationDetailsQuerySchema },
    result: v3OrganizationDetailsSchema,
  },
  async (c) => {
    const organization = callerOrganization(c);
    const { include_member_counts } = v3Query(c, v3OrganizationDetailsQuerySchema);
    const { credits, clock } = c.var.services;
    const { createdAt } = await credits.balance(organization, clock.now());
    const members = include_member_counts === "true" ? await membersOf(c, organization) : [];
    const withRole = (role: string) => members.filter((m) => m.roles.some((r) => r === role)).length;
    return {
      result: {
        uid: organization.organizationId,
        name: organization.name,
        created_at: iso(createdAt),
        preferences: { ai_opt_in: false, ai_training: false, mfa_required: false },
        ...(include_member_counts === "true"
          ? {
              member_counts: {
                total: members.length,
                by_role: { admin: withRole("admin"), api_access: withRole("api_access") },
              },
            }
          : {}),
      },
    };
  },
);

/** GET /v3/accounts/organizations/{organization_id}/credits: the balance and its one grant. */
export const getOrganizationCredits = platformRoute(
  "accountManagementGetOrganizationCredits",
  { request: { params: organizationParam }, result: v3OrganizationCreditsSchema },
  async (c) => {
    const organization = callerOrganization(c);
    const { credits, clock } = c.var.services;
    const balance = await credits.balance(organization, clock.now());
    return {
      result: {
        uid: organization.organizationId,
        balance: balance.balance,
        credit_expirations: [
          {
            balance: balance.balance,
            initial_balance: balance.initialBalance,
            created_at: iso(balance.createdAt),
            // Ours: a grant lasts a year, as Censys credit packs do.
            expires_at: iso(balance.createdAt + YEAR_MS),
          },
        ],
        auto_replenish_config: { enabled: false },
      },
    };
  },
);

/** GET /v3/accounts/organizations/{organization_id}/credits/usage: the organization's usage. */
export const getOrganizationCreditUsage = platformRoute(
  "accountManagementGetOrganizationCreditUsage",
  {
    request: { params: organizationParam, query: v3CreditUsageQuerySchema },
    result: v3CreditUsageReportSchema,
  },
  async (c) => {
    const organization = callerOrganization(c);
    const query = v3Query(c, v3CreditUsageQuerySchema);
    const { credits, clock } = c.var.services;
    const window = usageWindow(query, clock.now());
    await credits.balance(organization, clock.now());
    const rows = await credits.transactions(organization.organizationId, window.startMs, window.endMs);
    const report = creditUsageReport(rows, window, {
      byConsumer: query.include_consumer_breakdown === "true",
    });
    return { result: report };
  },
);

/**
 * GET /v3/accounts/organizations/{organization_id}/members/{user_id}/credits/usage: one member's
 * usage. Someone who is not a member now is a 404.
 */
export const getMemberCreditUsage = platformRoute(
  "accountManagementGetMemberCreditUsage",
  { request: { params: memberParam, query: v3CreditUsageQuerySchema }, result: v3CreditUsageReportSchema },
  async (c) => {
    const organization = callerOrganization(c);
    const userId = c.req.param("user_id") ?? "";
    if (!(await membersOf(c, organization)).some((member) => member.account.user_id === userId)) {
      throw new ApiError("not_found", `User ${JSON.stringify(userId)} is not a member of this organization.`);
    }
    return { result: await memberUsage(c, organization, userId) };
  },
);

export const v3AccountRoutes = [
  getOrganizationCreditUsage,
  getOrganizationCredits,
  getMemberCreditUsage,
  getOrganization,
];
