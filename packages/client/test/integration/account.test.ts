import { describe, expect, it } from "vitest";
import { createTenant, edgeClient, originClient } from "./support/stack";

describe("client.account", () => {
  it("returns the tenant's login and quota through the edge", async () => {
    const tenant = await createTenant({ allowance: 500, email: "ann@example.com" });
    const account = await edgeClient(tenant).account();
    expect(account.quota.allowance).toBe(500);
    expect(account.email).toBe("ann@example.com");
    expect(account.quota.used).toBeGreaterThanOrEqual(0);
  });

  it("returns the origin account when pointed straight at the origin", async () => {
    const account = await originClient().account();
    expect(account.quota.allowance).toBeGreaterThan(0);
  });
});
