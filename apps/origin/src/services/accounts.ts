import { secretsEqual } from "@scangate/core/http";
import { z } from "zod";

/**
 * The origin's own accounts, from the ORIGIN_ACCOUNTS configuration (a JSON array). This is
 * operator configuration, not a wire shape, so its schema lives here.
 */
const originAccountSchema = z.object({
  api_id: z.string().min(1),
  api_secret: z.string().min(1),
  login: z.string().min(1),
  email: z.string(),
  // DESIGN: allowance is never 0 for a usable account.
  allowance: z.number().int().min(1),
  /**
   * Platform (v3) access, optional: the member's personal access token (the bearer token), its
   * organization (accounts may share one; credits are the organization's) and its user id.
   */
  personal_access_token: z.string().min(16).optional(),
  organization_id: z.string().min(1).optional(),
  user_id: z.string().min(1).optional(),
  organization_name: z.string().min(1).optional(),
  /** Credits granted to the organization when first seen (the first account naming it decides). */
  credits: z.number().int().min(0).optional(),
});
export type OriginAccount = z.infer<typeof originAccountSchema>;

const originAccountsSchema = z.array(originAccountSchema).superRefine((accounts, ctx) => {
  const seen = new Set<string>();
  for (const [i, account] of accounts.entries()) {
    if (seen.has(account.api_id))
      ctx.addIssue({ code: "custom", path: [i, "api_id"], message: "duplicate api_id" });
    seen.add(account.api_id);
    const platform = [account.personal_access_token, account.organization_id, account.user_id];
    if (platform.some((v) => v !== undefined) && platform.some((v) => v === undefined))
      ctx.addIssue({
        code: "custom",
        path: [i],
        message: "personal_access_token, organization_id and user_id go together",
      });
  }
  const tokens = accounts.flatMap((a) => (a.personal_access_token ? [a.personal_access_token] : []));
  if (new Set(tokens).size !== tokens.length)
    ctx.addIssue({ code: "custom", path: [], message: "duplicate personal_access_token" });
});

/** Parses ORIGIN_ACCOUNTS; a broken configuration is an operator error and throws. */
export function parseAccounts(json: string | undefined): OriginAccount[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json ?? "[]");
  } catch {
    throw new Error("ORIGIN_ACCOUNTS is not valid JSON");
  }
  const result = originAccountsSchema.safeParse(raw);
  if (!result.success) throw new Error(`ORIGIN_ACCOUNTS is invalid: ${z.prettifyError(result.error)}`);
  return result.data;
}

/**
 * The account whose id and secret both match, or null. Every account is compared, so the time
 * taken does not reveal which ids exist.
 */
export async function authenticateAccount(
  accounts: readonly OriginAccount[],
  apiId: string,
  secret: string,
): Promise<OriginAccount | null> {
  let found: OriginAccount | null = null;
  for (const account of accounts) {
    const [idMatches, secretMatches] = await Promise.all([
      secretsEqual(account.api_id, apiId),
      secretsEqual(account.api_secret, secret),
    ]);
    if (idMatches && secretMatches) found = account;
  }
  return found;
}

/** An account that may use the Platform (v3) API: its token, organization and user are set. */
export type PlatformAccount = OriginAccount & {
  personal_access_token: string;
  organization_id: string;
  user_id: string;
};

export function isPlatformAccount(account: OriginAccount): account is PlatformAccount {
  return (
    account.personal_access_token !== undefined &&
    account.organization_id !== undefined &&
    account.user_id !== undefined
  );
}

/** Credits an organization is granted when first seen (when its accounts name none). */
export const DEFAULT_ORGANIZATION_CREDITS = 10_000;

/**
 * The account whose personal access token matches, or null. Every token is compared, so the
 * time taken does not reveal which tokens exist.
 */
export async function authenticatePlatformAccount(
  accounts: readonly OriginAccount[],
  token: string,
): Promise<PlatformAccount | null> {
  let found: PlatformAccount | null = null;
  for (const account of accounts) {
    if (!isPlatformAccount(account)) continue;
    if (await secretsEqual(account.personal_access_token, token)) found = account;
  }
  return found;
}
