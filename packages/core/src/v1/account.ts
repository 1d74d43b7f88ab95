import { z } from "zod";
import { accountLastLoginSchema, accountTimestampSchema } from "../formats";

// GET /api/v1/account.

export const accountQuotaSchema = z.object({
  used: z.number().int().min(0),
  allowance: z.number().int().min(0),
  resets_at: accountTimestampSchema,
});
export type AccountQuota = z.infer<typeof accountQuotaSchema>;

export const accountSchema = z.object({
  login: z.string(),
  email: z.string(),
  first_login: accountTimestampSchema,
  last_login: accountLastLoginSchema,
  quota: accountQuotaSchema,
});
export type Account = z.infer<typeof accountSchema>;
