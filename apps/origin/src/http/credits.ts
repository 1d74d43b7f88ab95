import { ApiError } from "@scangate/core";
import type { Context, Handler } from "hono";
import { creditsFor, type CreditOperation } from "@scangate/core";
import type { AppEnv } from "./context";

/**
 * A v3 handler charged its credits (core v3/credit-costs.ts) once it has answered: a failed
 * answer costs nothing, and a per-asset route is charged for the assets it answered with
 * (`creditAssets`). The charge is one conditional update; when the balance is too small the
 * answer is withheld and the caller gets the Platform's 422 `insufficient balance`.
 */
export function withCredits<P extends string>(
  operation: CreditOperation,
  handler: (c: Context<AppEnv, P>) => Promise<Response>,
): Handler<AppEnv, P> {
  return async function chargedHandler(c) {
    const response = await handler(c);
    if (response.status >= 400) return response;
    const { credits, clock } = c.var.services;
    const { account, organization } = c.var.platform;
    const amount = creditsFor(operation, c.get("creditAssets") ?? 0);
    const charge = await credits.charge(organization, account.user_id, operation, amount, clock.now());
    if (!charge.ok) throw new ApiError("quota_exceeded");
    return response;
  };
}
