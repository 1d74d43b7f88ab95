import { createRoute } from "@hono/zod-openapi";
import {
  ApiError,
  v3CreditUsageQuerySchema,
  v3CreditUsageReportSchema,
  v3Envelope,
  v3OrganizationCreditsSchema,
  v3OrganizationDetailsQuerySchema,
  v3OrganizationDetailsSchema,
  V3_CREDIT_USAGE_EARLIEST_DATE,
  V3_CREDIT_USAGE_MAX_DAYS,
  V3_MEDIA_TYPES,
  wrapV3,
  type V3CreditUsageQuery,
} from "@scangate/core";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../http/context";
import { withCredits } from "../../http/credits";
import { notAMember, type PlatformOrganization } from "../../http/platform-auth";
import { v3Json, v3Query } from "../../http/v3-inputs";
import { defineRoute } from "../../routing";
import { creditUsageReport, type UsageWindow } from "../../services/credit-usage";
import { V3_ERRORS, v3Response } from "./responses";

/**
 * Account management of the Platform API: the caller's organization, its credits and their
 * usage. The organization in the path must be the caller's (403 otherwise, as for
 * `organization_id` on any v3 route).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const YEAR_MS = 365 * DAY_MS;
const organizationParam = z.object({ organization_id: z.string() });
const memberParam = organizationParam.extend({ user_id: z.string() });
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function callerOrganization(c: Context<AppEnv>): PlatformOrganization {
  const asked = c.req.param("organization_id") ?? "";
  const { organization } = c.var.platform;
  if (asked !== organization.organizationId) throw notAMember(asked);
  return organization;
}

function badDate(location: string, message: string, value: unknown): ApiError {
  return new ApiError("bad_request", `${location}: ${message}`, { errors: [{ location, message, value }] });
}

/** The report window from the query: whole UTC days, start_date..end_date inclusive. */
function usageWindow(query: V3CreditUsageQuery, nowMs: number): UsageWindow {
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const endDate = query.end_date ?? query.date ?? today;
  const startDate = query.start_date ?? query.date ?? `${endDate.slice(0, 8)}01`;
  for (const [name, value] of [
    ["start_date", startDate],
    ["end_date", endDate],
  ] as const) {
    if (value < V3_CREDIT_USAGE_EARLIEST_DATE)
      throw badDate(`query.${name}`, `must be on or after ${V3_CREDIT_USAGE_EARLIEST_DATE}`, value);
  }
  const startMs = Date.parse(`${startDate}T00:00:00Z`);
  const endMs = Date.parse(`${endDate}T00:00:00Z`) + DAY_MS;
  if (endMs <= startMs) throw badDate("query.end_date", "must not be before start_date", endDate);
  if (endMs - startMs > V3_CREDIT_USAGE_MAX_DAYS * DAY_MS + DAY_MS)
    throw badDate("query.end_date", `the range cannot exceed ${V3_CREDIT_USAGE_MAX_DAYS} days`, endDate);
  return { startMs, endMs, granularity: query.granularity };
}

/** GET /v3/accounts/organizations/{organization_id}: the organization (member counts on request). */
export const getOrganization = defineRoute(
  createRoute({
    method: "get",
    path: "/v3/accounts/organizations/{organization_id}",
    request: { params: organizationParam, query: v3OrganizationDetailsQuerySchema },
    responses: {
      200: v3Response(v3Envelope(v3OrganizationDetailsSchema), V3_MEDIA_TYPES.json, "The organization"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_organization", cost: null },
  withCredits("v3_organization", async (c) => {
    const organization = callerOrganization(c);
    const { include_member_counts } = v3Query(c, v3OrganizationDetailsQuerySchema);
    const { credits, clock } = c.var.services;
    const { createdAt } = await credits.balance(organization, clock.now());
    const members = organization.members.length;
    return v3Json(
      c,
      wrapV3({
        uid: organization.organizationId,
        name: organization.name,
        created_at: iso(createdAt),
        preferences: { ai_opt_in: false, ai_training: false, mfa_required: false },
        // Every member of an origin organization is an admin with API access.
        ...(include_member_counts === "true"
          ? { member_counts: { total: members, by_role: { admin: members, api_access: members } } }
          : {}),
      }),
      V3_MEDIA_TYPES.json,
    );
  }),
);

/** GET /v3/accounts/organizations/{organization_id}/credits: the balance and its one grant. */
export const getOrganizationCredits = defineRoute(
  createRoute({
    method: "get",
    path: "/v3/accounts/organizations/{organization_id}/credits",
    request: { params: organizationParam },
    responses: {
      200: v3Response(v3Envelope(v3OrganizationCreditsSchema), V3_MEDIA_TYPES.json, "The credits"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_organization_credits", cost: null },
  withCredits("v3_organization_credits", async (c) => {
    const organization = callerOrganization(c);
    const { credits, clock } = c.var.services;
    const balance = await credits.balance(organization, clock.now());
    return v3Json(
      c,
      wrapV3({
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
      }),
      V3_MEDIA_TYPES.json,
    );
  }),
);

/** GET /v3/accounts/organizations/{organization_id}/credits/usage: the organization's usage. */
export const getOrganizationCreditUsage = defineRoute(
  createRoute({
    method: "get",
    path: "/v3/accounts/organizations/{organization_id}/credits/usage",
    request: { params: organizationParam, query: v3CreditUsageQuerySchema },
    responses: {
      200: v3Response(v3Envelope(v3CreditUsageReportSchema), V3_MEDIA_TYPES.json, "The usage report"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_organization_credit_usage", cost: null },
  withCredits("v3_organization_credit_usage", async (c) => {
    const organization = callerOrganization(c);
    const query = v3Query(c, v3CreditUsageQuerySchema);
    const { credits, clock } = c.var.services;
    const window = usageWindow(query, clock.now());
    await credits.balance(organization, clock.now());
    const rows = await credits.transactions(organization.organizationId, window.startMs, window.endMs);
    const report = creditUsageReport(rows, window, {
      byConsumer: query.include_consumer_breakdown === "true",
    });
    return v3Json(c, wrapV3(report), V3_MEDIA_TYPES.json);
  }),
);

/**
 * GET /v3/accounts/organizations/{organization_id}/members/{user_id}/credits/usage: one member's
 * usage (what they spent; grants are the organization's). An unknown member is a 404.
 */
export const getMemberCreditUsage = defineRoute(
  createRoute({
    method: "get",
    path: "/v3/accounts/organizations/{organization_id}/members/{user_id}/credits/usage",
    request: { params: memberParam, query: v3CreditUsageQuerySchema },
    responses: {
      200: v3Response(v3Envelope(v3CreditUsageReportSchema), V3_MEDIA_TYPES.json, "The usage report"),
      ...V3_ERRORS,
    },
  }),
  { operation: "v3_member_credit_usage", cost: null },
  withCredits("v3_member_credit_usage", async (c) => {
    const organization = callerOrganization(c);
    const userId = c.req.param("user_id");
    if (!organization.members.some((member) => member.user_id === userId)) {
      throw new ApiError("not_found", `User ${JSON.stringify(userId)} is not a member of this organization.`);
    }
    const query = v3Query(c, v3CreditUsageQuerySchema);
    const { credits, clock } = c.var.services;
    const window = usageWindow(query, clock.now());
    const rows = await credits.transactions(organization.organizationId, window.startMs, window.endMs);
    const mine = rows.filter((row) => row.userId === userId);
    return v3Json(c, wrapV3(creditUsageReport(mine, window, { byConsumer: false })), V3_MEDIA_TYPES.json);
  }),
);

export const v3AccountRoutes = [
  getOrganizationCreditUsage,
  getOrganizationCredits,
  getMemberCreditUsage,
  getOrganization,
];
