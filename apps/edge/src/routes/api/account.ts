import { defineRoute } from "../../pipeline/define-route";
import { tenantAccount } from "../../tenants/account";
import { accountSchema } from "@scangate/core";
import { component } from "../../openapi/components";
import { ALWAYS_FREE } from "../../pipeline/price";

/**
 * GET /api/v1/account answered by the edge: the tenant's own login, email, first and last
 * login and quota, never the upstream account's.
 */
export const accountRoute = defineRoute({
  method: "GET",
  path: "/api/v1/account",
  operation: "account",
  price: ALWAYS_FREE,
  // Its own small bucket: a tenant at its burst limit can still see why it is refused.
  burst: "account_reads",
  summary: "The tenant's own account and quota",
  ok: component("Account", accountSchema),
  handler: async (c) => {
    const requestAccount = c.get("account");
    return c.json(
      tenantAccount(
        requestAccount.tenant,
        (await requestAccount.read()).quota,
        c.get("services").clock.now(),
      ),
    );
  },
});
