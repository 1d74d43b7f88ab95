import {
  V3_INVITATIONS_MAX,
  V3_MEMBER_ROLES,
  type V3MemberRole,
  type V3OrganizationMember,
} from "@scangate/core";
import type { PlatformAccount } from "./accounts";
import { rfc3339 } from "./v3-records";

/**
 * Members of an origin organization: the accounts ORIGIN_ACCOUNTS names with its id, as the
 * organization changed them (`v3_member_changes`: roles replaced, or removed). A member no
 * change names has both roles (`admin`, `api_access`). A removed member is no longer one: its
 * token is refused for the organization. Invitations are kept until the invited person has an
 * account (the origin sends no mail).
 */

export interface MemberChange {
  roles: V3MemberRole[];
  removed: boolean;
}

export const DEFAULT_ROLES: readonly V3MemberRole[] = V3_MEMBER_ROLES;

function rolesOf(text: string): V3MemberRole[] {
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed)
    ? parsed.filter((r): r is V3MemberRole => V3_MEMBER_ROLES.includes(r as V3MemberRole))
    : [];
}

/** The changes of one member, or null when the organization made none. */
export async function memberChange(
  db: D1Database,
  organizationId: string,
  userId: string,
): Promise<MemberChange | null> {
  const row = await db
    .prepare("SELECT roles, removed FROM v3_member_changes WHERE organization_id = ? AND user_id = ?")
    .bind(organizationId, userId)
    .first<{ roles: string; removed: number }>();
  return row ? { roles: rolesOf(row.roles), removed: row.removed === 1 } : null;
}

/** Every change the organization made, by user id. */
export async function memberChanges(
  db: D1Database,
  organizationId: string,
): Promise<Map<string, MemberChange>> {
  const { results } = await db
    .prepare("SELECT user_id, roles, removed FROM v3_member_changes WHERE organization_id = ?")
    .bind(organizationId)
    .all<{ user_id: string; roles: string; removed: number }>();
  return new Map(
    results.map((row) => [row.user_id, { roles: rolesOf(row.roles), removed: row.removed === 1 }]),
  );
}

/** Records a member's roles, or its removal. */
export async function changeMember(
  db: D1Database,
  organizationId: string,
  userId: string,
  change: MemberChange,
  now: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO v3_member_changes (organization_id, user_id, roles, removed, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET roles = excluded.roles, removed = excluded.removed, updated_at = excluded.updated_at`,
    )
    .bind(organizationId, userId, JSON.stringify(change.roles), change.removed ? 1 : 0, now)
    .run();
}

export type InviteResult = { ok: true } | { ok: false; reason: "invited" | "too_many" };

/** Records an invitation, unless the address is invited already or the organization has V3_INVITATIONS_MAX. */
export async function invite(
  db: D1Database,
  organizationId: string,
  email: string,
  invitedBy: string,
  now: number,
): Promise<InviteResult> {
  const key = email.toLowerCase();
  const inserted = await db
    .prepare(
      `INSERT INTO v3_invitations (organization_id, email_key, email, invited_by, created_at)
       SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM v3_invitations WHERE organization_id = ?) < ?
       ON CONFLICT DO NOTHING`,
    )
    .bind(organizationId, key, email, invitedBy, now, organizationId, V3_INVITATIONS_MAX)
    .run();
  if ((inserted.meta.changes ?? 0) > 0) return { ok: true };
  const existing = await db
    .prepare("SELECT 1 AS found FROM v3_invitations WHERE organization_id = ? AND email_key = ?")
    .bind(organizationId, key)
    .first();
  return { ok: false, reason: existing ? "invited" : "too_many" };
}

/** When each account last used the legacy API (its first and latest login), by API id. */
export async function loginTimes(
  db: D1Database,
  apiIds: readonly string[],
): Promise<Map<string, { first: string; last: string }>> {
  if (apiIds.length === 0) return new Map();
  const { results } = await db
    .prepare(
      `SELECT api_id, first_login, last_login FROM account_usage WHERE api_id IN (${apiIds.map(() => "?").join(", ")})`,
    )
    .bind(...apiIds)
    .all<{ api_id: string; first_login: string; last_login: string }>();
  return new Map(results.map((row) => [row.api_id, { first: row.first_login, last: row.last_login }]));
}

/** An account's `YYYY-MM-DD hh:mm:ss[.ffffff]` (UTC) as RFC 3339, or undefined. */
function loginTime(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const ms = Date.parse(`${text.replace(" ", "T")}Z`);
  return Number.isNaN(ms) ? undefined : rfc3339(ms);
}

export interface Member {
  account: PlatformAccount;
  roles: V3MemberRole[];
}

/** The organization's members now: its accounts not removed, with their roles. */
export function currentMembers(
  accounts: readonly PlatformAccount[],
  changes: ReadonlyMap<string, MemberChange>,
): Member[] {
  return accounts.flatMap((account) => {
    const change = changes.get(account.user_id);
    if (change?.removed) return [];
    return [{ account, roles: change ? change.roles : [...DEFAULT_ROLES] }];
  });
}

/** A member as the SDK's `OrganizationMember` (its login is its first name). */
export function organizationMember(
  member: Member,
  logins: ReadonlyMap<string, { first: string; last: string }>,
): V3OrganizationMember {
  const login = logins.get(member.account.api_id);
  const first = loginTime(login?.first);
  const last = loginTime(login?.last);
  return {
    uid: member.account.user_id,
    email: member.account.email,
    first_name: member.account.login,
    last_name: "",
    roles: member.roles,
    ...(first ? { created_at: first, first_login_time: first } : {}),
    ...(last ? { latest_login_time: last } : {}),
  };
}
