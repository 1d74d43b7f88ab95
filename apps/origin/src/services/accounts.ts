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
});
export type OriginAccount = z.infer<typeof originAccountSchema>;

const originAccountsSchema = z.array(originAccountSchema).superRefine((accounts, ctx) => {
  const seen = new Set<string>();
  for (const [i, account] of accounts.entries()) {
    if (seen.has(account.api_id))
      ctx.addIssue({ code: "custom", path: [i, "api_id"], message: "duplicate api_id" });
    seen.add(account.api_id);
  }
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
