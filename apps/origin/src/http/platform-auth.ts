import { ApiError, type V3MemberRole } from "@scangate/core";
import type { MiddlewareHandler } from "hono";
import {
  authenticatePlatformAccount,
  DEFAULT_ORGANIZATION_CREDITS,
  isPlatformAccount,
  type OriginAccount,
  type PlatformAccount,
} from "../services/accounts";
import type { CreditAccount } from "../services/credits";
import { DEFAULT_ROLES } from "../services/v3-members";
import type { AppEnv } from "./context";

/**
 * Auth of the Platform (v3) API: `Authorization: Bearer <personal access token>` against the
 * origin's accounts, then the organization the request acts for: `organization_id` (query) or
 * `X-Organization-ID` (header), as the SDKs send it, defaulting to the member's own. A missing
 * or unknown token is a 401; an organization the member does not belong to (or was removed
 * from) a 403.
 */

/** An organization as the accounts configure it (the members are the accounts naming it). */
export interface PlatformOrganization extends CreditAccount {
  name: string;
  members: readonly PlatformAccount[];
}

export interface PlatformCaller {
  account: PlatformAccount;
  organization: PlatformOrganization;
  /** The member's roles in the organization (both, unless the organization changed them). */
  roles: readonly V3MemberRole[];
}

/** The bearer token of `Authorization`, or null (the scheme is case-insensitive, RFC 9110). */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export function platformOrganization(
  accounts: readonly OriginAccount[],
  organizationId: string,
): PlatformOrganization {
  const members = accounts.filter(isPlatformAccount).filter((a) => a.organization_id === organizationId);
  const named = members.find((m) => m.organization_name !== undefined)?.organization_name;
  const credits = members.find((m) => m.credits !== undefined)?.credits;
  return {
    organizationId,
    name: named ?? `${members[0]?.login ?? organizationId}'s organization`,
    initialCredits: credits ?? DEFAULT_ORGANIZATION_CREDITS,
    members,
  };
}

/** A 403 for an organization the caller is not a member of (the id is the caller's own input). */
export function notAMember(organizationId: string): ApiError {
  return new ApiError(
    "forbidden",
    `You are not a member of organization ${JSON.stringify(organizationId)}.`,
    {
      errors: [
        { location: "organization_id", message: "not a member of this organization", value: organizationId },
      ],
    },
  );
}

export function requirePlatformAccount(): MiddlewareHandler<AppEnv> {
  return async function requirePlatformAccount(c, next) {
    const token = bearerToken(c.req.header("Authorization"));
    if (token === null) {
      throw new ApiError(
        "unauthorized",
        "Missing credentials: send Authorization: Bearer <personal access token>.",
      );
    }
    const { accounts } = c.var.services;
    const account = await authenticatePlatformAccount(accounts, token);
    if (!account) throw new ApiError("unauthorized", "The personal access token is not valid.");
    for (const asked of [c.req.query("organization_id"), c.req.header("X-Organization-ID")]) {
      if (asked !== undefined && asked !== account.organization_id) throw notAMember(asked);
    }
    // A member the organization removed is no longer one of it.
    const change = await c.var.services.platform.memberChange(account.organization_id, account.user_id);
    if (change?.removed) throw notAMember(account.organization_id);
    c.set("platform", {
      account,
      organization: platformOrganization(accounts, account.organization_id),
      roles: change ? change.roles : DEFAULT_ROLES,
    });
    await next();
  };
}
