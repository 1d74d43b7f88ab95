import { accountSchema, type TenantWithSecret } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SIGNIN_LIMITS } from "../src/sessions/signin-throttle";
import { PROTOTYPE_NAMES } from "./support/prototype-names";
import { withinOneRateWindow } from "./support/rate-window";
import {
  admin,
  adminAuth,
  basicAuth,
  buildRequest,
  createTenant,
  EDGE,
  tenantAuth,
  workerFetch,
} from "./support/requests";

/**
 * The dashboard and console over HTTP, through the real worker entry (the browser tests in
 * packages/e2e drive the same pages in Chromium): sign-in outcomes, the session cookie, CSRF and
 * same-origin checks, throttling, and that one kind of session never opens the other's pages.
 * Each test signs in from its own client address, so the per-address throttle is its own.
 */

let addressCounter = 0;
const freshAddress = () => `198.51.100.${++addressCounter}`;

function form(
  path: string,
  fields: Record<string, string>,
  // `address: null` sends no CF-Connecting-IP: a client whose address nobody reports.
  options: { cookie?: string; address: string | null; origin?: string },
) {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: options.origin ?? EDGE,
    "sec-fetch-site": options.origin && options.origin !== EDGE ? "cross-site" : "same-origin",
  };
  if (options.address !== null) headers["cf-connecting-ip"] = options.address;
  if (options.cookie) headers.cookie = options.cookie;
  const body = new URLSearchParams(fields).toString();
  return workerFetch(new Request(`${EDGE}${path}`, { method: "POST", headers, body, redirect: "manual" }));
}

function page(path: string, cookie?: string) {
  return workerFetch(
    new Request(`${EDGE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" }),
  );
}

/** The `name=value` part of the response's Set-Cookie for `name`, or null. */
function cookieFrom(res: Response, name: string): string | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line ? line.split(";")[0]! : null;
}

function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("the page has no CSRF field");
  return match[1]!;
}

async function signIn(tenant: TenantWithSecret, address: string | null = freshAddress()): Promise<string> {
  const res = await form(
    "/dashboard/login",
    { api_id: tenant.api_id, secret: tenant.api_secret },
    { address },
  );
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/dashboard");
  const cookie = cookieFrom(res, "sg_tenant");
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

async function adminSignIn(address: string | null = freshAddress()): Promise<string> {
  const token = adminAuth().replace(/^Bearer /, "");
  const res = await form("/admin/login", { token }, { address });
  expect(res.status).toBe(303);
  const cookie = cookieFrom(res, "sg_admin");
  if (!cookie) throw new Error("no admin session cookie");
  return cookie;
}

const tenantCount = async () =>
  (await env.DB.prepare("select count(*) as n from tenants").first<{ n: number }>())?.n;

describe("tenant sign-in", () => {
  it("sets a signed, HttpOnly, SameSite=Strict cookie with an expiry, scoped to /dashboard", async () => {
    const tenant = await createTenant();
    const res = await form(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      { address: freshAddress() },
    );
    expect(res.status).toBe(303);
    const line = res.headers.getSetCookie().find((c) => c.startsWith("sg_tenant="));
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/dashboard/i);
    expect(line).toMatch(/Max-Age=\d+|Expires=/i);
  });

  it("shows the tenant's own quota figures, equal to its account API", async () => {
    const tenant = await createTenant({ allowance: 321 });
    const cookie = await signIn(tenant);
    const account = accountSchema.parse(
      await (await workerFetch(buildRequest("GET", "/api/v1/account", { auth: tenantAuth(tenant) }))).json(),
    );
    const res = await page("/dashboard", cookie);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(tenant.name);
    expect(html).toContain(String(account.quota.allowance));
    expect(html).toContain(tenant.api_id);
  });

  for (const [what, fields, status, message] of [
    ["an empty form", { api_id: "", secret: "" }, 400, "Enter your API ID and secret."],
    ["a wrong secret", { api_id: "", secret: "not-the-secret" }, 401, "The API ID or secret is not correct."],
    [
      "an unknown API ID",
      { api_id: "00000000-0000-4000-8000-000000000000", secret: "x" },
      401,
      "The API ID or secret is not correct.",
    ],
    [
      "an overlong API ID",
      { api_id: "x".repeat(500), secret: "x" },
      401,
      "The API ID or secret is not correct.",
    ],
  ] as const) {
    it(`answers ${what} with ${status}, a clear message and no cookie`, async () => {
      const tenant = await createTenant();
      const body = {
        ...fields,
        api_id: fields.api_id === "" && fields.secret !== "" ? tenant.api_id : fields.api_id,
      };
      const res = await form("/dashboard/login", body, { address: freshAddress() });
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(message);
      expect(cookieFrom(res, "sg_tenant")).toBeNull();
    });
  }

  it("refuses a disabled tenant with 403 and no cookie", async () => {
    const tenant = await createTenant();
    expect((await admin("PATCH", `/admin/tenants/${tenant.id}`, { disabled: true })).status).toBe(200);
    const res = await form(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      { address: freshAddress() },
    );
    expect(res.status).toBe(403);
    expect(cookieFrom(res, "sg_tenant")).toBeNull();
  });

  it("refuses a sign-in form posted from another site, before looking at the credentials", async () => {
    const tenant = await createTenant();
    const res = await form(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      { address: freshAddress(), origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(cookieFrom(res, "sg_tenant")).toBeNull();
  });

  it("refuses the sixth attempt on one API ID from one address within a minute with 429 and Retry-After", async () => {
    // The binding's sign-in buckets start afresh each minute: every attempt must fall in one
    // (waiting up to 10 s for the next minute, hence the test's longer timeout).
    await withinOneRateWindow(SIGNIN_LIMITS.account.periodSeconds, 10_000);
    const tenant = await createTenant();
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await form("/dashboard/login", { api_id: tenant.api_id, secret: "wrong" }, { address });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(await res.text()).toContain("Too many sign-in attempts from this address.");
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // That address waits even with the right secret: the limit counts attempts, not failures.
    const right = await form(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      { address },
    );
    expect(right.status).toBe(429);
    expect(cookieFrom(right, "sg_tenant")).toBeNull();
  }, 30_000);

  it("never locks the owner out: after a stranger's wrong posts from other addresses, the right secret signs in", async () => {
    // The binding's sign-in buckets start afresh each minute: every attempt must fall in one
    // (waiting up to 10 s for the next minute, hence the test's longer timeout).
    await withinOneRateWindow(SIGNIN_LIMITS.account.periodSeconds, 10_000);
    const tenant = await createTenant();
    const stranger = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await form(
        "/dashboard/login",
        { api_id: tenant.api_id, secret: "wrong" },
        { address: i < 5 ? stranger : freshAddress() },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401]);
    // Past five attempts a minute the account is slowed down (sessions/signin-throttle.ts), never shut.
    const started = Date.now();
    await signIn(tenant);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  }, 30_000);

  it("refuses an address past 20 attempts a minute, whichever API ids it names", async () => {
    // The binding's sign-in buckets start afresh each minute: every attempt must fall in one
    // (waiting up to 10 s for the next minute, hence the test's longer timeout).
    await withinOneRateWindow(SIGNIN_LIMITS.account.periodSeconds, 10_000);
    const address = freshAddress();
    for (let i = 0; i < 20; i++) {
      const res = await form("/dashboard/login", { api_id: crypto.randomUUID(), secret: "x" }, { address });
      expect(res.status).toBe(401);
    }
    const tenant = await createTenant();
    const res = await form(
      "/dashboard/login",
      { api_id: tenant.api_id, secret: tenant.api_secret },
      { address },
    );
    expect(res.status).toBe(429);
    // Another address is not affected.
    await signIn(tenant);
  }, 30_000);

  it("keeps the admin console's bucket apart: an address past the tenant limit still signs in to the console", async () => {
    // The binding's sign-in buckets start afresh each minute: every attempt must fall in one
    // (waiting up to 10 s for the next minute, hence the test's longer timeout).
    await withinOneRateWindow(SIGNIN_LIMITS.account.periodSeconds, 10_000);
    const address = freshAddress();
    for (let i = 0; i < 21; i++)
      await form("/dashboard/login", { api_id: crypto.randomUUID(), secret: "x" }, { address });
    const tenant = await createTenant();
    expect(
      (await form("/dashboard/login", { api_id: tenant.api_id, secret: tenant.api_secret }, { address }))
        .status,
    ).toBe(429);
    await adminSignIn(address);
  }, 30_000);

  // 38 sign-ins, each checking a secret's hash: 1.6 s on a quiet machine, over 5 s on a loaded one.
  it("gives a client without an address no shared bucket: others' failures lock out neither a tenant nor the console", async () => {
    for (let i = 0; i < 30; i++) {
      const res = await form(
        "/dashboard/login",
        { api_id: crypto.randomUUID(), secret: "x" },
        { address: null },
      );
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 6; i++) {
      const res = await form("/admin/login", { token: "not-the-token" }, { address: null });
      expect(res.status).toBe(401);
    }
    await signIn(await createTenant(), null);
    await adminSignIn(null);
  }, 30_000);

  it("refuses a form that is not url-encoded with 415", async () => {
    const res = await workerFetch(
      new Request(`${EDGE}/dashboard/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "cf-connecting-ip": freshAddress() },
        body: "{}",
      }),
    );
    expect(res.status).toBe(415);
  });
});

describe("tenant sessions", () => {
  it("sends a request without a session to the sign-in page", async () => {
    const res = await page("/dashboard");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/login");
  });

  it("treats a tampered cookie as an ended session", async () => {
    const tenant = await createTenant();
    const cookie = await signIn(tenant);
    const tampered = cookie.slice(0, -4) + (cookie.endsWith("AAAA") ? "BBBB" : "AAAA");
    const res = await page("/dashboard", tampered);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/login?notice=ended");
  });

  it("ends the session when the secret is rotated or the tenant disabled", async () => {
    const rotated = await createTenant();
    const rotatedCookie = await signIn(rotated);
    expect((await admin("POST", `/admin/tenants/${rotated.id}/rotate`, {})).status).toBe(200);
    expect((await page("/dashboard", rotatedCookie)).status).toBe(303);

    const disabled = await createTenant();
    const disabledCookie = await signIn(disabled);
    expect((await admin("PATCH", `/admin/tenants/${disabled.id}`, { disabled: true })).status).toBe(200);
    expect((await page("/dashboard", disabledCookie)).status).toBe(303);
  });

  it("signs out only with the session's CSRF token, and the old cookie then opens nothing", async () => {
    const tenant = await createTenant();
    const cookie = await signIn(tenant);
    const html = await (await page("/dashboard", cookie)).text();

    const forged = await form("/dashboard/logout", { csrf: "forged" }, { cookie, address: freshAddress() });
    expect(forged.status).toBe(403);
    expect((await page("/dashboard", cookie)).status).toBe(200);

    const out = await form("/dashboard/logout", { csrf: csrfOf(html) }, { cookie, address: freshAddress() });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/dashboard/login?notice=signed_out");
    expect(out.headers.getSetCookie().some((c) => /^sg_tenant=;|Max-Age=0/i.test(c))).toBe(true);
    // A copy of the cookie kept from before sign-out is refused by the server, not only forgotten.
    const replayed = await page("/dashboard", cookie);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get("location")).toBe("/dashboard/login?notice=ended");
  });

  it("ends the admin session on sign-out, for copies of its cookie too", async () => {
    const cookie = await adminSignIn();
    const csrf = csrfOf(await (await page("/admin", cookie)).text());
    const out = await form("/admin/logout", { csrf }, { cookie, address: freshAddress() });
    expect(out.status).toBe(303);
    const replayed = await page("/admin", cookie);
    expect(replayed.status).toBe(303);
    expect(replayed.headers.get("location")).toMatch(/^\/admin\/login/);
  });

  it("never opens the admin console with a tenant's cookie, even renamed", async () => {
    const tenant = await createTenant();
    const cookie = await signIn(tenant);
    const renamed = cookie.replace(/^sg_tenant=/, "sg_admin=");
    for (const path of ["/admin", "/admin/console/tenants/" + tenant.id]) {
      const res = await page(path, renamed);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toMatch(/^\/admin\/login/);
    }
    // Nor the JSON admin API, with any tenant credential.
    expect(
      (await workerFetch(buildRequest("GET", "/admin/tenants", { auth: tenantAuth(tenant) }))).status,
    ).toBe(401);
    expect(
      (await workerFetch(buildRequest("GET", "/admin/tenants", { auth: basicAuth("admin", "x") }))).status,
    ).toBe(401);
  });

  it("carries the security headers on every page", async () => {
    const res = await page("/dashboard/login");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});

describe("admin console", () => {
  it("refuses a wrong admin token with 401 and no cookie", async () => {
    const res = await form("/admin/login", { token: "not-the-token" }, { address: freshAddress() });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain("That admin token is not correct.");
    expect(cookieFrom(res, "sg_admin")).toBeNull();
  });

  it("creates a tenant from the form, showing the secret once, and the tenant can sign in", async () => {
    const cookie = await adminSignIn();
    const csrf = csrfOf(await (await page("/admin", cookie)).text());
    const name = `console-${crypto.randomUUID().slice(0, 8)}`;
    const res = await form(
      "/admin/console/tenants",
      { csrf, name, email: "", allowance: "75" },
      { cookie, address: freshAddress() },
    );
    expect(res.status).toBe(201);
    const html = await res.text();
    const row = await env.DB.prepare("select id, api_id, allowance from tenants where name = ?")
      .bind(name)
      .first<{
        id: string;
        api_id: string;
        allowance: number;
      }>();
    if (!row) throw new Error("the console created no tenant");
    expect(row.allowance).toBe(75);
    expect(html).toContain(row.api_id);
    // The secret is on the page once; whichever long token it shows must sign the tenant in.
    const candidates = [...new Set([...html.matchAll(/[A-Za-z0-9_-]{40,}/g)].map((m) => m[0]))];
    let signedIn = false;
    for (const secret of candidates) {
      const attempt = await form(
        "/dashboard/login",
        { api_id: row.api_id, secret },
        { address: freshAddress() },
      );
      if (attempt.status === 303) signedIn = true;
    }
    expect(signedIn).toBe(true);
    // The audit log says it came from the console.
    const audit = await env.DB.prepare(
      "select actor from audit_log where tenant_id = ? and action = 'tenant.create'",
    )
      .bind(row.id)
      .first<{ actor: string }>();
    expect(audit?.actor).toBe("admin (console)");
  });

  it("changes nothing for a console form without the session's CSRF token", async () => {
    const cookie = await adminSignIn();
    const before = await tenantCount();
    const res = await form(
      "/admin/console/tenants",
      { csrf: "forged", name: "csrf-victim" },
      { cookie, address: freshAddress() },
    );
    expect(res.status).toBe(403);
    expect(await tenantCount()).toBe(before);
  });

  it("answers a console form with invalid values with 400 on the page, creating nothing", async () => {
    const cookie = await adminSignIn();
    const csrf = csrfOf(await (await page("/admin", cookie)).text());
    const before = await tenantCount();
    const res = await form(
      "/admin/console/tenants",
      { csrf, name: "", allowance: "-5" },
      { cookie, address: freshAddress() },
    );
    expect(res.status).toBe(400);
    expect(await tenantCount()).toBe(before);
  });

  it.each(PROTOTYPE_NAMES)(
    "refuses the inherited name %s as a tier on the page, creating nothing",
    async (tier) => {
      const cookie = await adminSignIn();
      const csrf = csrfOf(await (await page("/admin", cookie)).text());
      const before = await tenantCount();
      const res = await form(
        "/admin/console/tenants",
        { csrf, name: `proto-${crypto.randomUUID().slice(0, 8)}`, tier },
        { cookie, address: freshAddress() },
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("tier");
      expect(await tenantCount()).toBe(before);
    },
  );

  it("does not let the admin session open a tenant's dashboard", async () => {
    const cookie = await adminSignIn();
    const res = await page("/dashboard", cookie.replace(/^sg_admin=/, "sg_tenant="));
    expect(res.status).toBe(303);
  });
});
