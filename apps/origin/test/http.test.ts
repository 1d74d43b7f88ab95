import { env } from "cloudflare:workers";
import { createExecutionContext } from "cloudflare:test";
import { MAX_REQUEST_BODY_BYTES, v1ErrorSchema, v2ErrorSchema } from "@scangate/core";
import { HTTPException } from "hono/http-exception";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { call, defaultAuth, getJson } from "./support/requests";
import { seedTestDataset } from "./seed-fixture";

let hostIp = "";

beforeAll(async () => {
  await seedTestDataset();
  const host = await env.DB.prepare("select ip from hosts order by ip_num limit 1").first<{ ip: string }>();
  if (!host) throw new Error("the test dataset has no hosts");
  hostIp = host.ip;
});

describe("HTTP behaviour shared by every route", () => {
  it("answers an unknown v1 route with the v1 404 body", async () => {
    const { res, body } = await getJson("/api/v1/nothing/here");
    expect(res.status).toBe(404);
    expect(body).toEqual({ error_code: 404, error: "page not found" });
  });

  it("answers an unknown v2 route with the v2 404 body", async () => {
    const { res, body } = await getJson("/api/v2/certificates/abc/def");
    expect(res.status).toBe(404);
    expect(v2ErrorSchema.parse(body)).toMatchObject({ code: 404, status: "Not Found" });
  });

  it("answers paths outside /api with JSON too, without asking for credentials", async () => {
    const res = await call("GET", "/index.html", { auth: null });
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(v2ErrorSchema.parse(await res.json()).code).toBe(404);
  });

  it("answers a wrong method on a v2 route with 405, the v2 body and Allow", async () => {
    const res = await call("POST", "/api/v2/hosts/search", { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD");
    expect(v2ErrorSchema.parse(await res.json())).toMatchObject({ code: 405, status: "Method Not Allowed" });
  });

  it("answers a wrong method on a v1 route with 405 in the v1 shape", async () => {
    const res = await call("GET", "/api/v1/search/ipv4");
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    expect(v1ErrorSchema.parse(await res.json())).toEqual({ error_code: 405, error: "method not allowed" });
  });

  it.each([
    ["malformed JSON", '{"query": ', "request body is not valid JSON"],
    ["an empty body", "", "request body is required (a JSON object)"],
    ["a JSON string", '"ip: 1.1.1.1"', "expected object"],
  ])("answers %s with a v1 400", async (_what, raw, message) => {
    const res = await call("POST", "/api/v1/search/ipv4", { body: raw });
    expect(res.status).toBe(400);
    expect(v1ErrorSchema.parse(await res.json()).error).toContain(message);
  });

  it("refuses a body over the size limit with 413 in the v1 shape", async () => {
    const huge = JSON.stringify({ query: "a".repeat(MAX_REQUEST_BODY_BYTES + 10) });
    const res = await call("POST", "/api/v1/search/ipv4", { body: huge });
    expect(res.status).toBe(413);
    expect(v1ErrorSchema.parse(await res.json()).error_code).toBe(413);
  });

  it("tags every answer with a request id and forbids caching of API answers", async () => {
    const ok = await call("GET", "/api/v1/account");
    const missing = await call("GET", "/api/v1/view/ipv4/10.9.9.9");
    for (const res of [ok, missing]) {
      expect(res.headers.get("X-Request-Id")).toMatch(/.+/);
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("tolerates a doubled or trailing slash, as a base URL ending in / produces", async () => {
    expect((await call("GET", `/api//v2/hosts/${hostIp}`)).status).toBe(200);
    expect((await call("GET", "/api/v1/account/")).status).toBe(200);
  });

  it("answers HEAD on a GET route without a body", async () => {
    const res = await call("HEAD", "/api/v1/account");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("answers a 403 from Hono's middleware with 403 forbidden, in the path's body shape", async () => {
    const app = createApp();
    // Hono's own middleware (csrf, ip-restriction) refuse with HTTPException(403).
    const refuse = () => {
      throw new HTTPException(403);
    };
    app.get("/api/v1/refused", refuse);
    app.get("/api/v2/refused", refuse);
    const get = (path: string) =>
      app.fetch(
        new Request(`http://origin.test${path}`, { headers: { Authorization: defaultAuth() } }),
        env,
        createExecutionContext(),
      );
    const v1 = await get("/api/v1/refused");
    expect(v1.status).toBe(403);
    expect(await v1.json()).toEqual({ error_code: 403, error: "access to this resource is not allowed" });
    const v2 = await get("/api/v2/refused");
    expect(v2.status).toBe(403);
    expect(v2ErrorSchema.parse(await v2.json())).toMatchObject({ code: 403, status: "Forbidden" });
  });

  it("answers a broken ORIGIN_ACCOUNTS configuration with the generic JSON 500", async () => {
    const app = createApp();
    const res = await app.fetch(
      new Request("http://origin.test/api/v1/account", { headers: { Authorization: defaultAuth() } }),
      { ...env, ORIGIN_ACCOUNTS: "[{" },
      createExecutionContext(),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error_code: 500, error: "unknown error occurred" });
  });
});
