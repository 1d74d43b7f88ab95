import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { meteredD1, runMetered, StatementMeter } from "../src/db/statement-meter";
import { edgeDb } from "../src/db/client";
import { tenants } from "../src/db/schema";
import { buildRequest, createTenant, tenantAuth } from "./support/requests";
import { testEdge } from "./support/test-edge";

describe("the D1 statement meter", () => {
  it("counts each statement a request runs, batches by their statements", async () => {
    const d1 = meteredD1(env.DB);
    const meter = new StatementMeter();
    await runMetered(meter, async () => {
      await d1.prepare("select 1").first();
      await d1.batch([d1.prepare("select 1"), d1.prepare("select ?").bind(2)]);
      await edgeDb(d1).select().from(tenants).limit(1);
    });
    expect(meter.statements).toBe(4);
    // Outside a metered request nothing is counted, and nothing fails.
    await d1.prepare("select 1").first();
    expect(meter.statements).toBe(4);
  });

  it("counts a statement prepared once in every request that runs it, each time it runs", async () => {
    const d1 = meteredD1(env.DB);
    const byId = edgeDb(d1)
      .select()
      .from(tenants)
      .where(eq(tenants.id, sql.placeholder("id")))
      .prepare();
    const prepared = d1.prepare("select ? as n");
    const [first, second] = [new StatementMeter(), new StatementMeter()];
    await runMetered(first, async () => {
      await byId.get({ id: "none" });
      await byId.all({ id: "none" });
      expect(await prepared.bind(7).first("n")).toBe(7);
    });
    await runMetered(second, () => byId.get({ id: "none" }));
    expect([first.statements, second.statements]).toEqual([3, 1]);
  });
});

describe("statements of a tenant's first requests", () => {
  it("concurrent first requests of a tenant share one read of its row and one last-seen write", async () => {
    const edge = testEdge({ vars: { D1_STATEMENTS_HEADER: "true" } });
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        edge.fetch(
          buildRequest("GET", "/api/v1/account", {
            auth: tenantAuth(tenant),
            headers: { "X-D1-Statements": "1" },
          }),
        ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    const counts = responses.map((r) => Number(r.headers.get("X-D1-Statements") ?? Number.NaN));
    // One read of the row and one last-seen write between them, then each answer's own quota read.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(2 + 8);
  });
});
