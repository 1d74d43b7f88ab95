import { describe, expect, it } from "vitest";
import {
  ACCOUNT_DELAY_STEPS_MS,
  clientAddress,
  SIGNIN_LIMITS,
  SignInThrottle,
  signInLimiters,
} from "../src/sessions/signin-throttle";
import { ManualClock } from "./support/clock";
import { adminAuth, createTenant, EDGE } from "./support/requests";
import { testEdge } from "./support/test-edge";

/**
 * The sign-in throttle on exact in-memory windows and a manual clock, with its delays recorded
 * instead of waited: first the throttle alone, then the whole app through testEdge. The real
 * bindings and real waits are exercised by dashboard.test.ts.
 */

function throttle() {
  const clock = new ManualClock();
  const pauses: number[] = [];
  const signIn = new SignInThrottle(signInLimiters({}, clock), (ms) => {
    pauses.push(ms);
    return Promise.resolve();
  });
  return { clock, pauses, signIn };
}

const allowed = { allowed: true };
const refused = { allowed: false, retryAfterSeconds: 60 };

describe("SignInThrottle", () => {
  it("refuses one account from one address past its limit, and nobody else", async () => {
    const { signIn } = throttle();
    for (let i = 0; i < SIGNIN_LIMITS.accountAddress.limit; i++)
      expect(await signIn.admitTenant("acct", "192.0.2.1")).toEqual(allowed);
    expect(await signIn.admitTenant("acct", "192.0.2.1")).toEqual(refused);
    expect(await signIn.admitTenant("ACCT", "192.0.2.1")).toEqual(refused);
    expect(await signIn.admitTenant("acct", "192.0.2.2")).toEqual(allowed);
    expect(await signIn.admitTenant("other", "192.0.2.1")).toEqual(allowed);
  });

  it("refuses one address past its limit whichever accounts it names", async () => {
    const { signIn } = throttle();
    for (let i = 0; i < SIGNIN_LIMITS.address.limit; i++)
      expect(await signIn.admitTenant(`acct-${i}`, "192.0.2.1")).toEqual(allowed);
    expect(await signIn.admitTenant("fresh", "192.0.2.1")).toEqual(refused);
    expect(await signIn.admitTenant("fresh", "192.0.2.2")).toEqual(allowed);
  });

  it("only slows one account down across addresses, step by step up to the cap, never refusing", async () => {
    const { pauses, signIn } = throttle();
    const perStep = SIGNIN_LIMITS.account.limit;
    const attempts = perStep * (ACCOUNT_DELAY_STEPS_MS.length + 2);
    for (let i = 0; i < attempts; i++)
      expect(await signIn.admitTenant("acct", `198.51.100.${i}`)).toEqual(allowed);
    const expected = Array.from({ length: attempts }, (_, i) =>
      i < perStep * ACCOUNT_DELAY_STEPS_MS.length
        ? ACCOUNT_DELAY_STEPS_MS[Math.floor(i / perStep)]
        : Math.max(...ACCOUNT_DELAY_STEPS_MS),
    );
    expect(pauses).toEqual(expected);
    expect(Math.max(...pauses)).toBeLessThanOrEqual(4_000);
  });

  it("forgets the delay after the window", async () => {
    const { clock, pauses, signIn } = throttle();
    for (let i = 0; i < 12; i++) await signIn.admitTenant("acct", `198.51.100.${i}`);
    expect(pauses.at(-1)).toBeGreaterThan(0);
    clock.advance(60_000);
    await signIn.admitTenant("acct", "198.51.100.200");
    expect(pauses.at(-1)).toBe(0);
  });

  it("adds nothing to the account's delay for an attempt a hard limit refused", async () => {
    const { pauses, signIn } = throttle();
    for (let i = 0; i < 30; i++) await signIn.admitTenant("acct", "192.0.2.1");
    // Five got through the (account, address) limit; the other 25 stopped before the account count.
    expect(pauses).toEqual([0, 0, 0, 0, 0]);
    await signIn.admitTenant("acct", "192.0.2.2");
    expect(pauses.at(-1)).toBe(ACCOUNT_DELAY_STEPS_MS[1]);
  });

  it("gives the admin console its own bucket: a tenant-limited address still reaches it", async () => {
    const { signIn } = throttle();
    for (let i = 0; i < 40; i++) await signIn.admitTenant(`acct-${i}`, "192.0.2.1");
    expect(await signIn.admitTenant("fresh", "192.0.2.1")).toEqual(refused);
    expect(await signIn.admitAdmin("192.0.2.1")).toEqual(allowed);
  });

  it("refuses one address past the admin console's own limit, and only that address", async () => {
    const { signIn } = throttle();
    for (let i = 0; i < SIGNIN_LIMITS.adminAddress.limit; i++)
      expect(await signIn.admitAdmin("192.0.2.1")).toEqual(allowed);
    expect(await signIn.admitAdmin("192.0.2.1")).toEqual(refused);
    expect(await signIn.admitAdmin("192.0.2.2")).toEqual(allowed);
    expect(await signIn.admitTenant("acct", "192.0.2.1")).toEqual(allowed);
  });

  it("never refuses a client without an address (it would share one bucket with every such client)", async () => {
    const { pauses, signIn } = throttle();
    for (let i = 0; i < 50; i++) expect(await signIn.admitTenant("acct", undefined)).toEqual(allowed);
    for (let i = 0; i < 50; i++) expect(await signIn.admitAdmin(undefined)).toEqual(allowed);
    expect(Math.max(...pauses)).toBe(Math.max(...ACCOUNT_DELAY_STEPS_MS));
  });
});

describe("clientAddress", () => {
  const request = (headers: Record<string, string>, cf?: Record<string, unknown>) =>
    new Request(EDGE, { headers, ...(cf ? { cf } : {}) });

  it("reads CF-Connecting-IP, then the peer address workerd reports, else none", () => {
    expect(clientAddress(request({ "cf-connecting-ip": "192.0.2.7" }))).toBe("192.0.2.7");
    expect(clientAddress(request({}, { clientIp: "203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientAddress(request({ "cf-connecting-ip": " 2001:DB8::1 " }))).toBe("2001:db8::1");
    expect(clientAddress(request({}))).toBeUndefined();
    expect(clientAddress(request({ "cf-connecting-ip": "  " }))).toBeUndefined();
  });

  it("keeps an oversized value as a bounded key of its own", () => {
    const key = clientAddress(request({ "cf-connecting-ip": "a".repeat(5000) }));
    expect(key).toBeDefined();
    expect(key!.length).toBeLessThan(100);
  });
});

describe("dashboard sign-in through the app", () => {
  function edgeWithThrottle() {
    const clock = new ManualClock(Date.UTC(2026, 10, 10, 12, 0, 0));
    const pauses: number[] = [];
    const edge = testEdge({
      clock,
      overrides: {
        signInLimiters: signInLimiters({}, clock),
        pause: (ms) => {
          pauses.push(ms);
          return Promise.resolve();
        },
      },
    });
    const post = (path: string, fields: Record<string, string>, address: string | null) => {
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        origin: EDGE,
        "sec-fetch-site": "same-origin",
      };
      if (address !== null) headers["cf-connecting-ip"] = address;
      const body = new URLSearchParams(fields).toString();
      return edge.fetch(new Request(`${EDGE}${path}`, { method: "POST", headers, body, redirect: "manual" }));
    };
    return { edge, pauses, post };
  }

  it("accepts the owner's right secret from an unthrottled address after a stranger's flood of wrong posts", async () => {
    const { edge, pauses, post } = edgeWithThrottle();
    const tenant = await createTenant({}, edge.fetch);
    const statuses = new Map<number, number>();
    // A stranger with a few addresses of its own, posting far past every limit.
    for (let i = 0; i < 200; i++) {
      const res = await post(
        "/dashboard/login",
        { api_id: tenant.api_id, secret: `wrong-${i}` },
        `203.0.113.${i % 4}`,
      );
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    expect(statuses.get(429)).toBeGreaterThan(0);
    const owner = await post(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      "192.0.2.50",
    );
    expect(owner.status).toBe(303);
    expect(owner.headers.get("location")).toBe("/dashboard");
    expect(pauses.at(-1)).toBeLessThanOrEqual(Math.max(...ACCOUNT_DELAY_STEPS_MS));
    // And without any address at all.
    const unknown = await post(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      null,
    );
    expect(unknown.status).toBe(303);
  });

  it("accepts the admin token from an unthrottled address after tenants' and strangers' floods", async () => {
    const { post } = edgeWithThrottle();
    for (let i = 0; i < 100; i++) {
      await post("/dashboard/login", { api_id: crypto.randomUUID(), secret: "x" }, "203.0.113.1");
      await post("/admin/login", { token: `wrong-${i}` }, `203.0.113.${i % 3}`);
      await post("/admin/login", { token: `wrong-${i}` }, null);
    }
    const token = adminAuth().replace(/^Bearer /, "");
    expect((await post("/admin/login", { token }, "192.0.2.60")).status).toBe(303);
    expect((await post("/admin/login", { token }, null)).status).toBe(303);
    // The flooding addresses themselves are refused, with Retry-After.
    const flooded = await post("/admin/login", { token }, "203.0.113.1");
    expect(flooded.status).toBe(429);
    expect(Number(flooded.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("counts an attempt before looking at the credentials: a throttled address learns nothing of its guess", async () => {
    const { edge, post } = edgeWithThrottle();
    const tenant = await createTenant({}, edge.fetch);
    for (let i = 0; i < SIGNIN_LIMITS.accountAddress.limit; i++)
      await post("/dashboard/login", { api_id: tenant.api_id, secret: "wrong" }, "192.0.2.70");
    const wrong = await post("/dashboard/login", { api_id: tenant.api_id, secret: "wrong" }, "192.0.2.70");
    const right = await post(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      "192.0.2.70",
    );
    expect([wrong.status, right.status]).toEqual([429, 429]);
    expect(right.headers.getSetCookie()).toEqual([]);
  });
});
