import {
  ApiError,
  v3CreditUsageQuerySchema,
  v3CreditUsageReportSchema,
  v3InviteMemberInputSchema,
  v3OrganizationMembersQuerySchema,
  v3OrganizationMembersSchema,
  v3UpdateMemberRolesInputSchema,
  v3UserCreditsSchema,
  V3_INVITATIONS_MAX,
} from "@scangate/core";
import type { Context } from "hono";
import type { AppEnv } from "../../http/context";
import { v3Body, v3Query } from "../../http/v3-inputs";
import { jsonBody } from "../../routing";
import { organizationMember, type Member } from "../../services/v3-members";
import { nextPageToken, pageOf, pageRequest } from "../../services/v3-paging";
import { callerOrganization, memberParam, membersOf, memberUsage, organizationParam } from "./accounts";
import { platformRoute } from "./operation";

/**
 * Organization members (list, invite, change roles, remove) and a user's own credits and usage,
 * from the origin's accounts (services/v3-members.ts). Changing members takes the admin role;
 * an organization always keeps one admin (409 for the change that would leave none).
 */

function requireAdmin(c: Context<AppEnv>): void {
  if (!c.var.platform.roles.includes("admin"))
    throw new ApiError("forbidden", "Only an admin of the organization can change its members.");
}

/** The member the path names (404 when not a member now). */
function namedMember(c: Context<AppEnv>, members: readonly Member[]): Member {
  const userId = c.req.param("user_id") ?? "";
  const member = members.find((m) => m.account.user_id === userId);
  if (!member)
    throw new ApiError("not_found", `User ${JSON.stringify(userId)} is not a member of this organization.`);
  return member;
}

/** Refuses a change that leaves the organization without an admin. */
function keepAnAdmin(members: readonly Member[], changed: Member, roles: readonly string[] | null): void {
  const admins = members.filter((m) => m.roles.includes("admin"));
  const losesAdmin = changed.roles.includes("admin") && !(roles ?? []).includes("admin");
  if (losesAdmin && admins.length === 1)
    throw new ApiError("conflict", "The organization must keep at least one admin.");
}

export const listMembers = platformRoute(
  "accountManagementListOrganizationMembers",
  {
    request: { params: organizationParam, query: v3OrganizationMembersQuerySchema },
    result: v3OrganizationMembersSchema,
  },
  async (c) => {
    const organization = callerOrganization(c);
    const query = v3Query(c, v3OrganizationMembersQuerySchema);
    const { cursors, platform } = c.var.services;
    const page = await pageRequest(cursors, `members ${organization.organizationId}`, query);
    const members = await membersOf(c, organization);
    const shown = pageOf(members, page);
    const logins = await platform.loginTimes(shown.map((m) => m.account.api_id));
    const next = await nextPageToken(cursors, page, members.length);
    return {
      result: {
        members: shown.map((m) => organizationMember(m, logins)),
        pagination: { page_size: page.size, ...(next === "" ? {} : { next_page_token: next }) },
      },
    };
  },
);

export const inviteMember = platformRoute(
  "accountManagementInviteUserToOrganization",
  { request: { params: organizationParam, body: jsonBody(v3InviteMemberInputSchema) } },
  async (c) => {
    const organization = callerOrganization(c);
    const { email } = await v3Body(c, v3InviteMemberInputSchema);
    requireAdmin(c);
    const members = await membersOf(c, organization);
    if (members.some((m) => m.account.email.toLowerCase() === email.toLowerCase()))
      throw new ApiError("conflict", `${email} is a member of the organization already.`);
    const { platform, clock } = c.var.services;
    const invited = await platform.invite(
      organization.organizationId,
      email,
      c.var.platform.account.user_id,
      clock.now(),
    );
    if (!invited.ok)
      throw new ApiError(
        "conflict",
        invited.reason === "invited"
          ? `${email} is invited already.`
          : `The organization has ${V3_INVITATIONS_MAX} pending invitations, the most it keeps.`,
      );
    return {};
  },
);

export const updateMember = platformRoute(
  "accountManagementUpdateOrganizationMember",
  { request: { params: memberParam, body: jsonBody(v3UpdateMemberRolesInputSchema) } },
  async (c) => {
    const organization = callerOrganization(c);
    const { roles } = await v3Body(c, v3UpdateMemberRolesInputSchema);
    requireAdmin(c);
    const members = await membersOf(c, organization);
    const member = namedMember(c, members);
    keepAnAdmin(members, member, roles);
    const { platform, clock } = c.var.services;
    await platform.changeMember(
      organization.organizationId,
      member.account.user_id,
      { roles: [...new Set(roles ?? [])], removed: false },
      clock.now(),
    );
    return {};
  },
);

export const removeMember = platformRoute(
  "accountManagementRemoveOrganizationMember",
  { request: { params: memberParam } },
  async (c) => {
    const organization = callerOrganization(c);
    requireAdmin(c);
    const members = await membersOf(c, organization);
    const member = namedMember(c, members);
    keepAnAdmin(members, member, null);
    const { platform, clock } = c.var.services;
    await platform.changeMember(
      organization.organizationId,
      member.account.user_id,
      { roles: [], removed: true },
      clock.now(),
    );
    return {};
  },
);

/** The caller's own credits: those of the organization it spends from (no refresh date). */
export const userCredits = platformRoute(
  "accountManagementGetUserCredits",
  { result: v3UserCreditsSchema },
  async (c) => {
    const { credits, clock } = c.var.services;
    const balance = await credits.balance(c.var.platform.organization, clock.now());
    return { result: { balance: balance.balance } };
  },
);

/** The caller's own usage: what it spent of its organization's credits. */
export const userCreditUsage = platformRoute(
  "accountManagementGetUserCreditsUsage",
  { request: { query: v3CreditUsageQuerySchema }, result: v3CreditUsageReportSchema },
  async (c) => ({
    result: await memberUsage(c, c.var.platform.organization, c.var.platform.account.user_id),
  }),
);

export const v3MemberRoutes = [
  listMembers,
  inviteMember,
  updateMember,
  removeMember,
  userCredits,
  userCreditUsage,
];
