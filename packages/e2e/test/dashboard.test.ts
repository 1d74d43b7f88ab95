// The tenant dashboard and the admin console in a real browser (Debian's Chromium), against
// the running edge: sign-in, the figures against the account API, the console's forms, tenant
// isolation, sign-out, security headers, phone-width layout, and screenshots of each page.
import type { TenantWithSecret } from "@scangate/core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject, it } from "vitest";
import {
  countFigure,
  DESKTOP,
  figure,
  launchChromium,
  openContext,
  PHONE,
  screenshot,
  scrollWidth,
  sessionCookie,
  signInAdmin,
  submit,
  submitTenantSignIn,
  textOf,
} from "./support/browser";
import {
  accountOf,
  adminApi,
  type Credential,
  createTenant,
  credentialOf,
  tenantGet,
} from "./support/edge-api";
import { chromium, describeWith } from "./support/system-deps";

const edgeUrl = () => inject("EDGE_URL");
const adminToken = () => inject("ADMIN_TOKEN");

let browser: Browser;
/** Problems (CSP violations, script errors, failed requests) of every page a test opened. */
const problems: string[] = [];
const contexts: BrowserContext[] = [];

async function open(viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openContext(browser, edgeUrl(), problems, viewport);
  contexts.push(opened.context);
  return opened;
}

async function signedInTenant(credential: Credential): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await open();
  expect(await submitTenantSignIn(opened.page, credential.apiId, credential.apiSecret)).toBe(303);
  expect(new URL(opened.page.url()).pathname).toBe("/dashboard");
  return opened;
}

async function signedInAdmin(): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await open();
  expect(await signInAdmin(opened.page, adminToken())).toBe(303);
  expect(new URL(opened.page.url()).pathname).toBe("/admin");
  return opened;
}

/** The figures of the dashboard's quota card, in the account API's terms. */
async function quotaOnPage(page: Page) {
  return {
    used: Number(await figure(page, "quota-used")),
    allowance: Number(await figure(page, "quota-allowance")),
    resets_at: await figure(page, "quota-resets-at"),
  };
}

describeWith(chromium(), "dashboard and admin console in Chromium", () => {
  let alpha: TenantWithSecret;
  let bravo: TenantWithSecret;
  /** Alpha signed in to its dashboard, for every test that needs a tenant's session. */
  let alphaSession: { context: BrowserContext; page: Page };
  /** Bravo's session cookie as it was just before bravo signed out. */
  let signedOutCookie: string | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    [alpha, bravo] = await Promise.all([
      createTenant(edgeUrl(), adminToken(), {
        name: "alpha-team",
        email: "alpha@example.test",
        allowance: 400,
        tier: "high",
      }),
      createTenant(edgeUrl(), adminToken(), {
        name: "bravo-team",
        allowance: 300,
        period: "daily",
        tier: "high",
      }),
    ]);
    alphaSession = await signedInTenant(credentialOf(alpha));
  });

  afterEach(() => {
    expect(problems.splice(0), "CSP violations, script errors or failed requests on the pages").toEqual([]);
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  it("a signed-in tenant sees its usage and cache hits, and the quota GET /api/v1/account reports", async () => {
    const credential = credentialOf(alpha);
    const search = await tenantGet(
      edgeUrl(),
      credential,
      "/api/v2/hosts/search?q=services.port%3A%2022&per_page=3",
    );
    expect(search.status).toBe(200);
    const ips = (search.body as { result: { hits: { ip: string }[] } }).result.hits.map((hit) => hit.ip);
    expect(ips.length).toBe(3);
    // Each host twice: the second read of each is answered from the edge's cache.
    const views = [];
    for (const ip of [...ips, ...ips])
      views.push(await tenantGet(edgeUrl(), credential, `/api/v2/hosts/${ip}`));
    expect(views.map((view) => view.status)).toEqual(Array(6).fill(200));
    const unknownHost = await tenantGet(edgeUrl(), credential, "/api/v2/hosts/10.255.255.254");
    expect(unknownHost.status).toBe(404);
    const requests = 1 + views.length + 1;
    const cacheHits = [search, ...views, unknownHost].filter((answer) => answer.cacheHit).length;
    expect(cacheHits).toBeGreaterThanOrEqual(3);

    const { page } = alphaSession;
    await page.goto("/dashboard");
    expect(await figure(page, "tenant-name")).toBe("alpha-team");
    expect(await figure(page, "api-id")).toBe(alpha.api_id);
    // Usage is written about a second after the requests: reload until it is there.
    const requestsShown = async () => {
      await page.reload();
      return countFigure(page, "requests");
    };
    await expect.poll(requestsShown, { timeout: 15_000, interval: 500 }).toBe(requests);
    expect(await countFigure(page, "cache-hits")).toBe(cacheHits);
    expect(await countFigure(page, "errors")).toBe(1);
    expect(await page.locator('[data-table="recent-errors"] td code').allInnerTexts()).toEqual(["host_view"]);

    // The same moment: no request of alpha's between the two account reads and the page.
    const before = await accountOf(edgeUrl(), credential);
    await page.reload();
    const shown = await quotaOnPage(page);
    const after = await accountOf(edgeUrl(), credential);
    expect(after.quota).toEqual(before.quota);
    expect(shown).toEqual(before.quota);
    expect(shown.used).toBeGreaterThan(0);
    expect(shown.allowance).toBe(400);
  });

  it("wrong credentials get a clear message and no session cookie", async () => {
    const { context, page } = await open();
    expect(await submitTenantSignIn(page, bravo.api_id, `${bravo.api_secret}x`)).toBe(401);
    expect(await textOf(page, "[role=alert]")).toBe("The API ID or secret is not correct.");
    expect(await page.inputValue("#api_id")).toBe(bravo.api_id);
    expect(await page.inputValue("#secret")).toBe("");
    expect(await sessionCookie(context, "sg_tenant")).toBeUndefined();
    await page.goto("/dashboard");
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
  });

  it("an admin creates a tenant with the console's form, sees its secret once, and the tenant signs in", async () => {
    const { page } = await signedInAdmin();
    await page.fill("#create-name", "console-made");
    await page.fill("#create-email", "console@example.test");
    await page.fill("#create-allowance", "750");
    await page.selectOption("#create-period", "daily");
    await page.selectOption("#create-tier", "high");
    expect(await submit(page, "text=Create tenant")).toBe(201);
    expect(await textOf(page, "h1")).toBe("Tenant console-made created");
    expect(await textOf(page, ".banner-warn strong")).toBe("Copy the secret now");
    const created = { apiId: await figure(page, "new-api-id"), apiSecret: await figure(page, "new-secret") };
    expect(created.apiSecret).toMatch(/^sgs_/);

    const { tenants } = await adminApi(edgeUrl(), adminToken()).tenants.list();
    expect(tenants.find((tenant) => tenant.api_id === created.apiId)).toMatchObject({
      name: "console-made",
      email: "console@example.test",
      allowance: 750,
      period: "daily",
      tier: "high",
      disabled: false,
    });
    // Shown once: the tenant's own page does not show the secret again.
    await page.click("text=Open console-made");
    await page.waitForURL((url) => url.pathname.startsWith("/admin/console/tenants/"));
    expect(await textOf(page, "h1")).toBe("console-made");
    expect(await page.content()).not.toContain(created.apiSecret);

    const tenantView = await signedInTenant(created);
    expect(await figure(tenantView.page, "tenant-name")).toBe("console-made");
    expect(await quotaOnPage(tenantView.page)).toEqual((await accountOf(edgeUrl(), created)).quota);
    expect(await countFigure(tenantView.page, "quota-allowance")).toBe(750);
  });

  it("an admin changes the allowance, rotates the secret and disables a tenant; each page says so and the tenant feels it", async () => {
    const delta = await createTenant(edgeUrl(), adminToken(), {
      name: "delta-team",
      allowance: 100,
      tier: "high",
    });
    const tenantView = await signedInTenant(credentialOf(delta));
    const { page } = await signedInAdmin();
    await page.goto(`/admin/console/tenants/${delta.id}`);

    await page.fill("#quota-allowance", "1234");
    expect(await submit(page, "text=Save changes")).toBe(303);
    expect(await textOf(page, ".banner-ok")).toBe("Allowance, period and tier saved.");
    expect(await countFigure(page, "quota-allowance")).toBe(1234);
    expect((await accountOf(edgeUrl(), credentialOf(delta))).quota.allowance).toBe(1234);
    await tenantView.page.reload();
    expect(await countFigure(tenantView.page, "quota-allowance")).toBe(1234);

    await page.selectOption("#grace", "0");
    await page.locator('form[action$="/rotate"] input[name=confirm]').check();
    expect(await submit(page, "text=Rotate secret")).toBe(200);
    expect(await textOf(page, "h1")).toBe("New secret for delta-team");
    const rotated = { apiId: await figure(page, "new-api-id"), apiSecret: await figure(page, "new-secret") };
    expect(rotated.apiId).toBe(delta.api_id);
    expect(rotated.apiSecret).not.toBe(delta.api_secret);
    // v1 refuses every bad credential with 403 (as Censys does); only a disabled tenant's says why.
    const oldSecret = await tenantGet(edgeUrl(), credentialOf(delta), "/api/v1/account");
    expect(oldSecret.status).toBe(403);
    expect(JSON.stringify(oldSecret.body)).not.toMatch(/disabled/);
    expect((await tenantGet(edgeUrl(), rotated, "/api/v1/account")).status).toBe(200);
    // The dashboard session opened with the old secret has ended.
    await tenantView.page.reload();
    expect(new URL(tenantView.page.url()).pathname).toBe("/dashboard/login");
    expect(await textOf(tenantView.page, "[role=status]")).toBe(
      "Your session has ended. Sign in again to continue.",
    );

    await page.click("text=Open delta-team");
    await page.waitForURL((url) => url.pathname === `/admin/console/tenants/${delta.id}`);
    await page.locator('form[action$="/disable"] input[name=confirm]').check();
    expect(await submit(page, "text=Disable tenant")).toBe(303);
    expect(await textOf(page, ".banner-ok")).toMatch(/^Tenant disabled\./);
    expect(await textOf(page, ".page-head .pill-off")).toBe("Disabled");
    expect((await adminApi(edgeUrl(), adminToken()).tenants.get(delta.id)).disabled).toBe(true);
    const disabled = await tenantGet(edgeUrl(), rotated, "/api/v1/account");
    expect(disabled.status).toBe(403);
    expect(JSON.stringify(disabled.body)).toMatch(/disabled/);

    const refused = await open();
    expect(await submitTenantSignIn(refused.page, rotated.apiId, rotated.apiSecret)).toBe(403);
    expect(await textOf(refused.page, "[role=alert]")).toBe(
      "This API ID is disabled. Ask the endpoint's administrator.",
    );
    expect(await sessionCookie(refused.context, "sg_tenant")).toBeUndefined();
  });

  it("an admin issues a Platform token with the console's button, it opens /v3 for the tenant, and revoking stops it", async () => {
    const echo = await createTenant(edgeUrl(), adminToken(), { name: "echo-team", tier: "high" });
    const v3 = async (token: string) => {
      const res = await fetch(new URL("/v3/global/asset/host/192.0.2.1", edgeUrl()), {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
    };
    const { page } = await signedInAdmin();
    await page.goto(`/admin/console/tenants/${echo.id}`);
    expect(await figure(page, "platform-token-state")).toBe("none");

    await page.locator('form[action$="/platform-token"] input[name=confirm]').check();
    expect(await submit(page, "text=Issue token")).toBe(201);
    expect(await textOf(page, "h1")).toBe("Platform token for echo-team");
    const token = await figure(page, "new-platform-token");
    expect(token).toMatch(/^sgt_/);
    // Past the edge's bearer check (what the upstream's /v3 answers is not this test's business).
    const accepted = await v3(token);
    expect(accepted.body).not.toMatch(/bearer token is not valid/i);
    expect(accepted.status).not.toBe(401);

    await page.click("text=Back to echo-team");
    await page.waitForURL((url) => url.pathname === `/admin/console/tenants/${echo.id}`);
    expect(await figure(page, "platform-token-state")).toMatch(/^issued /);
    expect(await page.content()).not.toContain(token);
    await page.locator('form[action$="/platform-token/revoke"] input[name=confirm]').check();
    expect(await submit(page, "text=Revoke token")).toBe(303);
    expect(await textOf(page, ".banner-ok")).toMatch(/^Platform token revoked\./);
    const refused = await v3(token);
    expect(refused.status).toBe(401);
    expect(refused.type).toBe("application/problem+json");
  });

  it("a tenant's /v3 call shows as credits spent on its dashboard and in the console, beside the organization's balance", async () => {
    const foxtrot = await createTenant(edgeUrl(), adminToken(), { name: "foxtrot-team", tier: "high" });
    const issued = await fetch(new URL(`/admin/tenants/${foxtrot.id}/platform-token`, edgeUrl()), {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(issued.status).toBe(201);
    const { token } = (await issued.json()) as { token: string };
    const search = await tenantGet(
      edgeUrl(),
      credentialOf(foxtrot),
      "/api/v2/hosts/search?q=services.port%3A%2022&per_page=1",
    );
    const [ip] = (search.body as { result: { hits: { ip: string }[] } }).result.hits.map((hit) => hit.ip);
    const host = await fetch(new URL(`/v3/global/asset/host/${ip}`, edgeUrl()), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(host.status).toBe(200);

    const { page } = await signedInTenant(credentialOf(foxtrot));
    // Usage is written about a second after the request: reload until it is there.
    const spentShown = async () => {
      await page.reload();
      return countFigure(page, "credits-spent");
    };
    await expect.poll(spentShown, { timeout: 15_000, interval: 500 }).toBe(1);
    expect(await figure(page, "platform-token")).toBe("yes");
    // The organization's balance, read from the origin's credits endpoint: a count, not "unavailable".
    expect(await figure(page, "team-balance")).toMatch(/^\d+$/);

    const admin = await signedInAdmin();
    await admin.page.goto("/admin");
    expect(await figure(admin.page, "organization-balance")).toMatch(/^\d+$/);
    const cell = admin.page.locator(`[data-tenant="${foxtrot.id}"] [data-credits-spent]`);
    expect(await cell.getAttribute("data-credits-spent")).toBe("1");
  });

  it("a tenant sees only its own data and its session cookie opens no admin page", async () => {
    const { context, page } = alphaSession;
    await page.goto("/dashboard");
    const html = await page.content();
    expect(html).toContain(alpha.api_id);
    for (const other of [bravo.name, bravo.api_id, bravo.id]) expect(html).not.toContain(other);
    await page.goto(`/dashboard?tenant=${bravo.id}`);
    expect(await figure(page, "api-id")).toBe(alpha.api_id);
    const byPath = await page.goto(`/dashboard/${bravo.id}`);
    expect(byPath?.status()).toBe(404);

    // The browser never sends the tenant cookie to /admin (its path is /dashboard) ...
    await page.goto("/admin");
    expect(new URL(page.url()).pathname).toBe("/admin/login");
    // ... and sent there by hand, under either name, it opens nothing.
    const cookie = await sessionCookie(context, "sg_tenant");
    expect(cookie?.value).toBeTruthy();
    const forged = { Cookie: `sg_tenant=${cookie?.value}; sg_admin=${cookie?.value}` };
    for (const path of ["/admin", `/admin/console/tenants/${bravo.id}`]) {
      const res = await context.request.get(path, { headers: forged, maxRedirects: 0 });
      expect(res.status(), path).toBe(303);
      expect(res.headers().location, path).toBe("/admin/login?notice=ended");
    }
    const api = await context.request.get("/admin/tenants", { headers: forged, maxRedirects: 0 });
    expect(api.status()).toBe(401);
  });

  it("signing out ends the session in the browser", async () => {
    const { context, page } = await signedInTenant(credentialOf(bravo));
    signedOutCookie = (await sessionCookie(context, "sg_tenant"))?.value;
    expect(signedOutCookie).toBeTruthy();
    expect(await submit(page, "text=Sign out")).toBe(303);
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
    expect(await textOf(page, "[role=status]")).toBe("You have signed out.");
    expect(await sessionCookie(context, "sg_tenant")).toBeUndefined();
    await page.goto("/dashboard");
    expect(new URL(page.url()).pathname).toBe("/dashboard/login");
  });

  // Sign-out records the session as ended on the server, so a copy of the cookie taken before
  // it (a shared machine, a stolen cookie) opens nothing either.
  it("a session cookie copied before signing out no longer opens the dashboard", async () => {
    const replayed = await fetch(new URL("/dashboard", edgeUrl()), {
      headers: { Cookie: `sg_tenant=${signedOutCookie}` },
      redirect: "manual",
    });
    expect(replayed.status).toBe(303);
  });

  it("every page sends the security headers, and session cookies are HttpOnly and SameSite=Strict", async () => {
    const admin = await signedInAdmin();
    const anonymous = await open();
    const pages: [Page, string][] = [
      [alphaSession.page, "/dashboard"],
      [admin.page, "/admin"],
      [admin.page, `/admin/console/tenants/${alpha.id}`],
      [anonymous.page, "/dashboard/login"],
      [anonymous.page, "/admin/login"],
    ];
    for (const [page, path] of pages) {
      const res = await page.goto(path);
      expect(new URL(page.url()).pathname).toBe(path);
      const headers = res?.headers() ?? {};
      const csp = headers["content-security-policy"] ?? "";
      for (const directive of [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
      ]) {
        expect(csp, `${path}: ${directive}`).toContain(directive);
      }
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("same-origin");
      expect(headers["cache-control"], path).toBe("no-store");
    }
    for (const [context, name, path] of [
      [alphaSession.context, "sg_tenant", "/dashboard"],
      [admin.context, "sg_admin", "/admin"],
    ] as const) {
      expect(await sessionCookie(context, name)).toMatchObject({ httpOnly: true, sameSite: "Strict", path });
    }
  });

  it("each page fits a phone screen without sideways scrolling; screenshots at both widths", async () => {
    const admin = await signedInAdmin();
    const signIn = await open();
    const shots: [Page, string, string][] = [
      [signIn.page, "/dashboard/login", "sign-in"],
      [alphaSession.page, "/dashboard", "tenant-dashboard"],
      [admin.page, "/admin", "admin-console"],
      [admin.page, `/admin/console/tenants/${alpha.id}`, "admin-tenant"],
    ];
    for (const [page, path, name] of shots) {
      for (const [viewport, suffix] of [
        [DESKTOP, "desktop"],
        [PHONE, "phone"],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(path);
        expect(new URL(page.url()).pathname, name).toBe(path);
        if (viewport === PHONE)
          expect(await scrollWidth(page), `${name} at ${PHONE.width} px`).toBeLessThanOrEqual(PHONE.width);
        if (name === "admin-console") {
          // The tenant table's last column is in view, or the table scrolls inside its own frame.
          const table = await tenantTableFit(page);
          expect(
            table.lastColumnVisible || table.scrollsInItsFrame,
            `tenant table at ${viewport.width} px`,
          ).toBe(true);
          expect(await scrollWidth(page), `${name} at ${viewport.width} px`).toBeLessThanOrEqual(
            viewport.width,
          );
        }
        await screenshot(page, `${name}-${suffix}`);
      }
    }
  });
});

/** Whether the admin console's tenant table shows its last column, or scrolls to it in its frame. */
function tenantTableFit(page: Page): Promise<{ lastColumnVisible: boolean; scrollsInItsFrame: boolean }> {
  return page.evaluate(() => {
    const table = document.querySelector('table[data-table="tenants"]');
    const frame = table?.closest(".table-scroll");
    const last = table?.querySelector("thead th:last-child");
    if (!table || !frame || !last) throw new Error("no tenant table on the page");
    const right = Math.min(frame.getBoundingClientRect().right, document.documentElement.clientWidth);
    return {
      lastColumnVisible: last.getBoundingClientRect().right <= right + 1,
      scrollsInItsFrame:
        frame.scrollWidth > frame.clientWidth && getComputedStyle(frame).overflowX === "auto",
    };
  });
}
