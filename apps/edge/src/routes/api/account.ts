import { defineApiRoute } from "../../api/define-route";
import { tenantAccount } from "../../tenants/account";
import { accountSchema } from "@scangate/core";
import { component } from "../../openapi/components";

/**
 * GET /api/v1/account answered by the edge: the tenant's own login, email, first and last
 * login and quota, never the upstream account's.
 */
export const accountRoute = defineApiRoute({
  method: "GET",
  path: "/api/v1/account",
  operation: "account",
  version: "v1",
  cost: 0,
  // Its own small bucket: a tenant at its burst limit can still see why it is refused.
  burst: "account_reads",
  summary: "The tenant's own account and quota",
  ok: component("Account", accountSchema),
  handler: async (c) => {
    const { account, quota } = await tenantAccount(c.get("services"), c.get("tenant"));
    c.set("quota", quota);
    return c.json(account);
  },
});
