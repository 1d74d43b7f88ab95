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
    // One read of the row between them; each answer's quota is its ledger's, not D1's. The
    // last-seen write is background work, not on any request's path.
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    for (const response of responses)
      expect(Number(response.headers.get("X-Ledger-Calls"))).toBeGreaterThan(0);
  });

  it("does not count a tenant row read ahead of its expiry or the last-seen write: both run in the background", async () => {
    const edge = testEdge({ vars: { D1_STATEMENTS_HEADER: "true", AUTH_CACHE_TTL_MS: "5000" } });
    const tenant = await createTenant({ allowance: 10 }, edge.fetch);
    const account = () =>
      edge.fetch(
        buildRequest("GET", "/api/v1/account", {
          auth: tenantAuth(tenant),
          headers: { "X-D1-Statements": "1" },
        }),
      );
    const statements = async () => {
      const response = await account();
      expect(response.status).toBe(200);
      return Number(response.headers.get("X-D1-Statements") ?? Number.NaN);
    };
    // The row is read on the request's path once (its last-seen write goes to the background),
    // then answered from memory; each answer reads its quota from its ledger, not D1.
    expect(await statements()).toBe(1);
    const seen = await lastSeen(tenant.id);
    expect(seen).toBe(edge.clock.now());
    expect(await statements()).toBe(0);
    // Past 80% of its time in memory the row is read again, in the background: not counted.
    edge.clock.advance(4_500);
    expect(await statements()).toBe(0);
    // 5.5 s after the first read the row is still in memory: the background read renewed it.
    edge.clock.advance(1_000);
    expect(await statements()).toBe(0);
    // A minute on: the row has expired and is read on the path; the last-seen write is not counted.
    edge.clock.advance(60_000);
    expect(await statements()).toBe(1);
    expect(await lastSeen(tenant.id)).toBe(edge.clock.now());
  });
});

async function lastSeen(id: string): Promise<number | null> {
  const row = await env.DB.prepare("SELECT last_seen_at AS at FROM tenants WHERE id = ?").bind(id).first<{
    at: number | null;
  }>();
  return row?.at ?? null;
}
