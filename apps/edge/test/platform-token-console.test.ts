import { auditListSchema } from "@scangate/core";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashSecret } from "../src/auth/secrets";
import { admin, adminAuth, createTenant, EDGE, workerFetch } from "./support/requests";

// The admin console's Platform token card over HTTP (same origin, admin session, CSRF), through
// the real worker entry: issue shows the token once, rotate keeps the old one for the chosen
// grace, revoke stops both; every action audited as the console.

let addressCounter = 0;
const freshAddress = () => `198.51.100.${200 + ++addressCounter}`;

function post(path: string, fields: Record<string, string>, cookie?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    origin: EDGE,
    "sec-fetch-site": "same-origin",
    "cf-connecting-ip": freshAddress(),
  };
  if (cookie) headers.cookie = cookie;
  const body = new URLSearchParams(fields).toString();
  return workerFetch(new Request(`${EDGE}${path}`, { method: "POST", headers, body, redirect: "manual" }));
}

function page(path: string, cookie: string) {
  return workerFetch(new Request(`${EDGE}${path}`, { headers: { cookie }, redirect: "manual" }));
}

async function adminSession(): Promise<{ cookie: string; csrf: string }> {
  const res = await post("/admin/login", { token: adminAuth().replace(/^Bearer /, "") });
  expect(res.status).toBe(303);
  const line = res.headers.getSetCookie().find((c) => c.startsWith("sg_admin="));
  const cookie = line?.split(";")[0];
  if (!cookie) throw new Error("no admin session cookie");
  const html = await (await page("/admin", cookie)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error("the page has no CSRF field");
  return { cookie, csrf };
}

const tokenOf = (html: string) => /data-figure="new-platform-token">([^<]+)</.exec(html)?.[1];

async function tokenRows(tenantId: string) {
  const { results } = await env.DB.prepare(
    "select * from platform_tokens where tenant_id = ? order by created_at",
  )
    .bind(tenantId)
    .all<{ token_hash: string; expires_at: number | null }>();
  return results;
}

describe("admin console: Platform token", () => {
  it("shows none, issues a token once, rotates it with a grace period, and revokes it", async () => {
    const { cookie, csrf } = await adminSession();
    const tenant = await createTenant({ name: "console-token" });
    const base = `/admin/console/tenants/${tenant.id}`;

    const before = await (await page(base, cookie)).text();
    expect(before).toContain("Platform API token");
    expect(before).toMatch(/data-figure="platform-token-state">none</);
    expect(before).toContain("Issue token");
    expect(before).not.toContain('data-action="revoke-platform-token"');

    const issued = await post(`${base}/platform-token`, { csrf, confirm: "yes" }, cookie);
    expect(issued.status).toBe(201);
    const first = tokenOf(await issued.text());
    expect(first).toMatch(/^sgt_[A-Za-z0-9_-]{43}$/);
    expect((await tokenRows(tenant.id)).map((r) => r.token_hash)).toEqual([await hashSecret(first ?? "")]);

    // The tenant page never shows it again.
    const after = await (await page(base, cookie)).text();
    expect(after).not.toContain(first);
    expect(after).toMatch(/data-figure="platform-token-state">issued /);
    expect(after).toContain("Rotate token");

    const rotated = await post(
      `${base}/platform-token`,
      { csrf, confirm: "yes", grace_seconds: "86400" },
      cookie,
    );
    expect(rotated.status).toBe(201);
    const html = await rotated.text();
    const second = tokenOf(html);
    expect(second).toMatch(/^sgt_/);
    expect(second).not.toBe(first);
    expect(html).toContain("The old token keeps working until");
    const rows = await tokenRows(tenant.id);
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.expires_at !== null)).toHaveLength(1);

    const revoked = await post(`${base}/platform-token/revoke`, { csrf, confirm: "yes" }, cookie);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get("location")).toBe(`${base}?done=token_revoked`);
    expect(await tokenRows(tenant.id)).toHaveLength(0);
    expect(await (await page(`${base}?done=token_revoked`, cookie)).text()).toContain(
      "Platform token revoked",
    );

    const audit = auditListSchema.parse(
      await (await admin("GET", `/admin/audit?tenant_id=${tenant.id}`)).json(),
    );
    const actions = audit.entries.filter((e) => e.action.startsWith("tenant.token.")).reverse();
    expect(actions.map((e) => [e.action, e.actor])).toEqual([
      ["tenant.token.issue", "admin (console)"],
      ["tenant.token.rotate", "admin (console)"],
      ["tenant.token.revoke", "admin (console)"],
    ]);
  });

  it("refuses an unconfirmed issue or revoke, and a bad grace period, with 400 and changes nothing", async () => {
    const { cookie, csrf } = await adminSession();
    const tenant = await createTenant();
    const base = `/admin/console/tenants/${tenant.id}`;
    const unconfirmed = await post(`${base}/platform-token`, { csrf }, cookie);
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain("No token issued: tick the box to confirm.");
    const badGrace = await post(
      `${base}/platform-token`,
      { csrf, confirm: "yes", grace_seconds: "-5" },
      cookie,
    );
    expect(badGrace.status).toBe(400);
    expect(await badGrace.text()).toContain("No token issued: grace_seconds");
    expect(await tokenRows(tenant.id)).toHaveLength(0);

    await post(`${base}/platform-token`, { csrf, confirm: "yes" }, cookie);
    const notRevoked = await post(`${base}/platform-token/revoke`, { csrf }, cookie);
    expect(notRevoked.status).toBe(400);
    expect(await tokenRows(tenant.id)).toHaveLength(1);
  });

  it("refuses a form without the session's CSRF token or without a session", async () => {
    const { cookie } = await adminSession();
    const tenant = await createTenant();
    const base = `/admin/console/tenants/${tenant.id}`;
    const forged = await post(`${base}/platform-token`, { csrf: "forged", confirm: "yes" }, cookie);
    expect(forged.status).toBe(403);
    const anonymous = await post(`${base}/platform-token`, { confirm: "yes" });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toMatch(/\/admin\/login/);
    expect(await tokenRows(tenant.id)).toHaveLength(0);
  });

  it("answers 404 for an unknown tenant", async () => {
    const { cookie, csrf } = await adminSession();
    const res = await post(
      "/admin/console/tenants/tnt_00000000000000000000000000000000/platform-token",
      { csrf, confirm: "yes" },
      cookie,
    );
    expect(res.status).toBe(404);
  });
});
