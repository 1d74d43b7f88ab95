import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("origin worker", () => {
  it("answers health with its D1 schema migrated", async () => {
    await env.DB.prepare(
      "insert into account_usage (api_id, used, period_start, first_login, last_login) values ('a', 0, 'x', 'x', 'x')",
    ).run();
    const res = await exports.default.fetch("http://origin/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", service: "origin", accounts_seen: 1 });
  });
});
