import { z } from "zod";
import { rfc3339Schema } from "../formats";
import { v3PagingQuerySchema } from "./queries";

/**
 * Organization members, invitations and a user's own credits, following the SDK's
 * `OrganizationMembersList`, `InviteMemberInputBody`, `UpdateMemberRoleInputBody` and
 * `UserCredits`.
 */

/** SDK `Roles`. */
export const V3_MEMBER_ROLES = ["admin", "api_access"] as const;
export type V3MemberRole = (typeof V3_MEMBER_ROLES)[number];

/** SDK `OrganizationMember`: `roles` is required and nullable. */
export const v3OrganizationMemberSchema = z
  .object({
    uid: z.string(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    roles: z.array(z.string()).nullable(),
    created_at: rfc3339Schema.optional(),
    first_login_time: rfc3339Schema.optional(),
    latest_login_time: rfc3339Schema.optional(),
  })
  .loose();
export type V3OrganizationMember = z.infer<typeof v3OrganizationMemberSchema>;

/** SDK `OrganizationMembersList` with its `PaginationInfo`. */
export const v3OrganizationMembersSchema = z
  .object({
    members: z.array(v3OrganizationMemberSchema).nullable(),
    pagination: z.object({ page_size: z.number().int(), next_page_token: z.string().optional() }).loose(),
  })
  .loose();

export const v3OrganizationMembersQuerySchema = v3PagingQuerySchema;

/** An e-mail address as people type them: one `@`, a dotted domain, no spaces. */
const email = z
  .string()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "expected an e-mail address");

/** SDK `InviteMemberInputBody`. */
export const v3InviteMemberInputSchema = z.object({ email }).loose();

/** SDK `UpdateMemberRoleInputBody`: the member's roles replaced by these (empty: none). */
export const v3UpdateMemberRolesInputSchema = z
  .object({
    roles: z
      .array(z.enum(V3_MEMBER_ROLES))
      .max(V3_MEMBER_ROLES.length * 2)
      .nullable(),
  })
  .loose();

/** SDK `UserCredits`. */
export const v3UserCreditsSchema = z
  .object({ balance: z.number().int(), resets_at: rfc3339Schema.optional() })
  .loose();
