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

/** `Authorization: Basic base64(id:secret)` → the pair, or null when absent or malformed. */
export function parseBasicAuthorization(
  header: string | undefined,
): { apiId: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(atob(match[1]), (ch) => ch.charCodeAt(0)),
    );
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return { apiId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

const encoder = new TextEncoder();

/** Compares two strings in time independent of where they differ (digests have equal length). */
async function timingSafeEqualStrings(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(da, db);
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
      timingSafeEqualStrings(account.api_id, apiId),
      timingSafeEqualStrings(account.api_secret, secret),
    ]);
    if (idMatches && secretMatches) found = account;
  }
  return found;
}
