import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { accountSchema, v1RateLimitErrorSchema, v2RateLimitErrorSchema } from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { fixedClock } from "../src/services/clock";
import { basicAuth, configuredAccount, getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

/** A host of the seeded dataset, so views of it succeed (and are charged). */
let hostIp = "";
let VIEW = "";
let HOST_V2 = "";

beforeAll(async () => {
  await seedTestDataset();
  const host = await env.DB.prepare("select ip from hosts order by ip_num limit 1").first<{ ip: string }>();
  if (!host) throw new Error("the test dataset has no hosts");
  hostIp = host.ip;
  VIEW = `/api/v1/view/ipv4/${hostIp}`;
  HOST_V2 = `/api/v2/hosts/${hostIp}`;
});

let accountCounter = 0;

/** A fresh account with a small allowance, served by an app whose clock reads `at`. */
function accountAt(allowance: number) {
  const apiId = `quota-${++accountCounter}`;
  const account = {
    api_id: apiId,
    api_secret: "s3cret",
    login: apiId,
    email: `${apiId}@example.test`,
    allowance,
  };
  const testEnv = { ...env, ORIGIN_ACCOUNTS: JSON.stringify([account]) };
  const auth = basicAuth(apiId, "s3cret");
  return {
    account,
    async call(at: string, path: string): Promise<Response> {
      const app = createApp({ clock: fixedClock(at) });
      const ctx = createExecutionContext();
      const res = await app.fetch(
        new Request(`http://origin.test${path}`, { headers: { Authorization: auth } }),
        testEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    },
  };
}

describe("GET /api/v1/account and the quota it reports", () => {
  it("answers the configured account through the worker entry", async () => {
    const { res, body } = await getJson("/api/v1/account");
    expect(res.status).toBe(200);
    const account = accountSchema.parse(body);
    expect(account).toMatchObject({ login: configuredAccount().login, email: configuredAccount().email });
    expect(account.quota.allowance).toBe(configuredAccount().allowance);
  });

  it("shows login, email, allowance and a reset at the start of next month (UTC)", async () => {
    const caller = accountAt(10);
    const res = await caller.call("2024-05-20T10:11:12.345Z", "/api/v1/account");
    expect(res.status).toBe(200);
    const body = accountSchema.parse(await res.json());
    expect(body).toEqual({
      login: caller.account.login,
      email: caller.account.email,
      first_login: "2024-05-20 10:11:12",
      last_login: "2024-05-20 10:11:12.345000",
      quota: { used: 0, allowance: 10, resets_at: "2024-06-01 00:00:00" },
    });
  });

  it("keeps first_login and moves last_login on later requests", async () => {
    const caller = accountAt(10);
    await caller.call("2024-05-20T10:00:00Z", "/api/v1/account");
    await caller.call("2024-05-21T09:30:00Z", VIEW);
    const body = accountSchema.parse(
      await (await caller.call("2024-05-22T08:00:00Z", "/api/v1/account")).json(),
    );
    expect(body.first_login).toBe("2024-05-20 10:00:00");
    expect(body.last_login).toBe("2024-05-22 08:00:00.000000");
    expect(body.quota.used).toBe(1);
  });

  it("counts search, view, report, bulk and aggregate but not the account itself", async () => {
    const caller = accountAt(100);
    const at = "2024-05-20T10:00:00Z";
    await caller.call(at, "/api/v1/account");
    await caller.call(at, "/api/v1/account");
    await caller.call(at, VIEW);
    await caller.call(at, HOST_V2);
    const body = accountSchema.parse(await (await caller.call(at, "/api/v1/account")).json());
    expect(body.quota.used).toBe(2);
  });

  it("refuses requests past the allowance with the v1 quota body and Retry-After until the reset", async () => {
    const caller = accountAt(2);
    const at = "2024-05-31T23:59:00Z";
    expect((await caller.call(at, VIEW)).status).toBe(200);
    expect((await caller.call(at, VIEW)).status).toBe(200);
    const refused = await caller.call(at, VIEW);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("60");
    expect(refused.headers.get("RateLimit")).toBe('"quota";r=0;t=60');
    expect(refused.headers.get("RateLimit-Policy")).toMatch(/^"quota";q=2;w=\d+$/);
    const body = v1RateLimitErrorSchema.parse(await refused.json());
    expect(body).toMatchObject({ error_code: 429, error_type: "quota_exceeded" });
    expect(body.error).toBe("You have used your full quota for this billing period.");
  });

  it("refuses v2 requests past the allowance with the v2 quota body", async () => {
    const caller = accountAt(1);
    const at = "2024-05-20T10:00:00Z";
    expect((await caller.call(at, HOST_V2)).status).toBe(200);
    const refused = await caller.call(at, HOST_V2);
    expect(refused.status).toBe(429);
    expect(v2RateLimitErrorSchema.parse(await refused.json())).toMatchObject({
      code: 429,
      error_type: "quota_exceeded",
    });
  });

  it("still answers the account, with used equal to the allowance, once exhausted", async () => {
    const caller = accountAt(1);
    const at = "2024-05-20T10:00:00Z";
    await caller.call(at, VIEW);
    await caller.call(at, VIEW);
    const res = await caller.call(at, "/api/v1/account");
    expect(res.status).toBe(200);
    expect(accountSchema.parse(await res.json()).quota).toMatchObject({ used: 1, allowance: 1 });
  });

  it("starts a new count when the month turns", async () => {
    const caller = accountAt(1);
    await caller.call("2024-05-31T23:00:00Z", VIEW);
    expect((await caller.call("2024-05-31T23:30:00Z", VIEW)).status).toBe(429);
    expect((await caller.call("2024-06-01T00:00:01Z", VIEW)).status).toBe(200);
    const body = accountSchema.parse(
      await (await caller.call("2024-06-01T00:00:02Z", "/api/v1/account")).json(),
    );
    expect(body.quota).toEqual({ used: 1, allowance: 1, resets_at: "2024-07-01 00:00:00" });
  });

  it("never lets concurrent requests spend more than the allowance", async () => {
    const caller = accountAt(5);
    const at = "2024-05-20T10:00:00Z";
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () => caller.call(at, VIEW).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it("gives the unit back when the request fails", async () => {
    const caller = accountAt(1);
    const at = "2024-05-20T10:00:00Z";
    expect((await caller.call(at, "/api/v1/view/ipv4/10.0.0.99")).status).toBe(404);
    expect((await caller.call(at, VIEW)).status).toBe(200);
  });
});
