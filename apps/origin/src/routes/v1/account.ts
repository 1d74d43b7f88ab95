import { createRoute } from "@hono/zod-openapi";
import { accountSchema, type Account } from "@scangate/core";
import { accountTimestamp as formatAccountTimestamp } from "@scangate/core/http";
import { defineRoute, jsonResponse, V1_ERRORS } from "../../routing";
import { quotaPeriod } from "../../services/quota";

/** GET /api/v1/account: the calling account and its quota in the current period. */
export const account = defineRoute(
  createRoute({
    method: "get",
    path: "/api/v1/account",
    responses: { 200: jsonResponse(accountSchema, "The calling account and its quota"), ...V1_ERRORS },
  }),
  // Free, so a caller can always see why they are refused; still metered for the login times.
  { operation: "account", cost: 0 },
  (c) => {
    const { account, usage } = c.var;
    const body: Account = {
      login: account.login,
      email: account.email,
      first_login: formatAccountTimestamp(usage.firstLogin),
      last_login: formatAccountTimestamp(usage.lastLogin, true),
      quota: {
        used: usage.used,
        allowance: account.allowance,
        resets_at: formatAccountTimestamp(quotaPeriod(new Date(c.var.services.clock.now())).resetsAt),
      },
    };
    return c.json(body);
  },
);

export const accountRoutes = [account];
