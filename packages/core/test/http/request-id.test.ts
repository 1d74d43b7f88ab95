import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { REQUEST_ID_HEADER, requestIdOf, requestIds } from "../../src/http";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function app() {
  const hono = new Hono<{ Variables: { requestId: string } }>();
  hono.use(requestIds());
  // A route that returns a Response of its own, one that answers through the context, and one that throws.
  hono.get("/raw", () => new Response("{}", { headers: { "content-type": "application/json" } }));
  hono.get("/json", (c) => c.json({ id: c.get("requestId") }));
  hono.get("/throws", () => {
    throw new Error("boom");
  });
  hono.onError((_error, c) => c.json({ error: "internal" }, 500));
  return hono;
}

describe("request ids", () => {
  it("puts a new id on every answer: a route's own Response, a context answer, an error, a 404", async () => {
    for (const path of ["/raw", "/json", "/throws", "/nowhere"]) {
      const response = await app().request(path);
      expect(response.headers.get(REQUEST_ID_HEADER), path).toMatch(UUID);
    }
    const json = await app().request("/json");
    expect(((await json.json()) as { id: string }).id).toBe(json.headers.get(REQUEST_ID_HEADER));
  });

  it("gives each request its own id", async () => {
    const ids = await Promise.all(
      Array.from({ length: 5 }, async () => (await app().request("/raw")).headers.get(REQUEST_ID_HEADER)),
    );
    expect(new Set(ids).size).toBe(5);
  });

  it("keeps the caller's id when it is a plausible one, and replaces one that is not", async () => {
    const sent = async (id: string) =>
      (await app().request("/raw", { headers: { [REQUEST_ID_HEADER]: id } })).headers.get(REQUEST_ID_HEADER);
    expect(await sent("trace-42_a=")).toBe("trace-42_a=");
    expect(await sent("has space")).toMatch(UUID);
    expect(await sent("x".repeat(256))).toMatch(UUID);
    expect(await sent("x".repeat(255))).toBe("x".repeat(255));
    expect(requestIdOf(undefined)).toMatch(UUID);
    expect(requestIdOf("")).toMatch(UUID);
  });
});
