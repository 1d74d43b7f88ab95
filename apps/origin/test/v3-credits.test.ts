import { env } from "cloudflare:workers";
import {
  v3CreditUsageReportSchema,
  v3Envelope,
  v3OrganizationCreditsSchema,
  v3OrganizationDetailsSchema,
} from "@scangate/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app";
import { fixedClock } from "../src/services/clock";
import { CREDIT_COSTS } from "@scangate/core";
import { seedTestDataset } from "./seed-fixture";
import { certificateDocs, hostFacts } from "./support/dataset-facts";
import { balanceOf, expectProblem, v3Call, type V3CallOptions } from "./v3-requests";

beforeAll(() => seedTestDataset());

const NOW = "2026-11-20T12:00:00Z";

/**
 * A worker with one organization of its own (`organizationId`, two members, `credits` granted),
 * its clock at `now`, so each test starts from a known balance.
 */
function organization(organizationId: string, credits: number, now = NOW) {
  const member = (n: number) => ({
    api_id: `${organizationId}-api-${n}`,
    api_secret: "secret",
    login: `member${n}`,
    email: `member${n}@example.test`,
    allowance: 100,
    personal_access_token: `${organizationId}-token-${n}-xxxxxxxx`,
    organization_id: organizationId,
    user_id: `${organizationId}-user-${n}`,
    organization_name: "Test Org",
    credits,
  });
  const members = [member(1), member(2)];
  const app = createApp({ clock: fixedClock(now) });
  const harness = { ...env, ORIGIN_ACCOUNTS: JSON.stringify(members) };
  const as = (n: 1 | 2, extra: V3CallOptions = {}): V3CallOptions => ({
    token: members[n - 1]!.personal_access_token,
    fetcher: async (request) => app.fetch(request, harness),
    ...extra,
  });
  return {
    members,
    call: (method: string, path: string, n: 1 | 2 = 1, extra: V3CallOptions = {}) =>
      v3Call(method, path, as(n, extra)),
    async json(method: string, path: string, n: 1 | 2 = 1, extra: V3CallOptions = {}) {
      const res = await v3Call(method, path, as(n, extra));
      return { res, body: await res.clone().json<unknown>() };
    },
    ledger: async () =>
      (
        await env.DB.prepare(
          "select user_id, operation, amount from credit_transactions where organization_id = ? order by id",
        )
          .bind(organizationId)
          .all<{ user_id: string | null; operation: string; amount: number }>()
      ).results,
  };
}

describe("credits charged", () => {
  it("charges a lookup its cost from the table, and nothing for a 404 or a 400", async () => {
    const org = organization("org-charge", 100);
    const [host] = await hostFacts();
    expect((await org.call("GET", `/v3/global/asset/host/${host!.ip}`)).status).toBe(200);
    expect(await balanceOf("org-charge")).toBe(100 - CREDIT_COSTS.v3_host.credits);
    expect((await org.call("GET", "/v3/global/asset/host/192.0.2.1")).status).toBe(404);
    expect((await org.call("GET", "/v3/global/asset/host/nope")).status).toBe(400);
    expect(await balanceOf("org-charge")).toBe(99);
    expect(await org.ledger()).toEqual([
      { user_id: null, operation: "grant", amount: 100 },
      { user_id: "org-charge-user-1", operation: "v3_host", amount: -1 },
    ]);
  });

  it("charges a bulk call one credit per asset found, unknown ids free", async () => {
    const org = organization("org-bulk", 100);
    const certs = await certificateDocs();
    const ids = [certs[0]!.sha256, certs[1]!.sha256, "0".repeat(64), certs[2]!.sha256];
    expect(
      (await org.call("POST", "/v3/global/asset/certificate", 1, { body: { certificate_ids: ids } })).status,
    ).toBe(200);
    expect(await balanceOf("org-bulk")).toBe(97);
    const none = await org.call("POST", "/v3/global/asset/host", 2, { body: { host_ids: ["192.0.2.1"] } });
    expect(none.status).toBe(200);
    expect(await balanceOf("org-bulk")).toBe(97);
  });

  it("charges nothing for reading the account", async () => {
    const org = organization("org-free", 5);
    for (const path of [
      "/v3/accounts/organizations/org-free",
      "/v3/accounts/organizations/org-free/credits",
      "/v3/accounts/organizations/org-free/credits/usage?granularity=daily",
      "/v3/accounts/organizations/org-free/members/org-free-user-1/credits/usage?granularity=monthly",
    ]) {
      expect((await org.call("GET", path)).status).toBe(200);
    }
    expect(await balanceOf("org-free")).toBe(5);
  });

  it("refuses a call the balance cannot pay with the Platform's 422, withholding the answer", async () => {
    const org = organization("org-poor", 2);
    const certs = await certificateDocs();
    const three = { certificate_ids: certs.slice(0, 3).map((c) => c.sha256) };
    const res = await org.call("POST", "/v3/global/asset/certificate", 1, { body: three });
    const problem = await expectProblem(res, 422);
    expect(problem).toMatchObject({
      title: "Unprocessable Entity",
      errors: [{ message: "insufficient balance" }],
    });
    expect(await balanceOf("org-poor")).toBe(2);
    const [host] = await hostFacts();
    expect((await org.call("GET", `/v3/global/asset/host/${host!.ip}`)).status).toBe(200);
    expect((await org.call("GET", `/v3/global/asset/host/${host!.ip}`, 2)).status).toBe(200);
    await expectProblem(await org.call("GET", `/v3/global/asset/host/${host!.ip}`), 422);
    expect(await balanceOf("org-poor")).toBe(0);
    expect((await org.ledger()).filter((row) => row.amount < 0)).toHaveLength(2);
  });

  it("is exact under concurrency: of 12 calls against 5 credits, exactly 5 are answered", async () => {
    const org = organization("org-race", 5);
    const [host] = await hostFacts();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        org.call("GET", `/v3/global/asset/host/${host!.ip}`, i % 2 === 0 ? 1 : 2),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
    expect(await balanceOf("org-race")).toBe(0);
    expect((await org.ledger()).filter((row) => row.amount < 0)).toHaveLength(5);
  });
});

describe("credits reported", () => {
  it("reports the organization's details, with member counts on request", async () => {
    const org = organization("org-details", 10);
    const { res, body } = await org.json(
      "GET",
      "/v3/accounts/organizations/org-details?include_member_counts=true",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    const { result } = v3Envelope(v3OrganizationDetailsSchema).parse(body);
    expect(result).toMatchObject({ uid: "org-details", name: "Test Org", member_counts: { total: 2 } });
    const plain = await org.json("GET", "/v3/accounts/organizations/org-details");
    expect(v3Envelope(v3OrganizationDetailsSchema).parse(plain.body).result.member_counts).toBeUndefined();
  });

  it("reports the balance and the grant it came from", async () => {
    const org = organization("org-balance", 50);
    const [host] = await hostFacts();
    await org.call("GET", `/v3/global/asset/host/${host!.ip}`);
    const { body } = await org.json("GET", "/v3/accounts/organizations/org-balance/credits");
    const { result } = v3Envelope(v3OrganizationCreditsSchema).parse(body);
    expect(result).toMatchObject({
      uid: "org-balance",
      balance: 49,
      credit_expirations: [{ balance: 49, initial_balance: 50, created_at: NOW }],
      auto_replenish_config: { enabled: false },
    });
  });

  it("reports usage by day, by member and by consumer, from the ledger", async () => {
    const org = organization("org-usage", 100);
    const hosts = await hostFacts();
    await org.call("GET", `/v3/global/asset/host/${hosts[0]!.ip}`, 1);
    await org.call("POST", "/v3/global/asset/host", 2, { body: { host_ids: [hosts[1]!.ip, hosts[2]!.ip] } });
    const { body } = await org.json(
      "GET",
      "/v3/accounts/organizations/org-usage/credits/usage?granularity=daily&start_date=2026-11-19&end_date=2026-11-21&include_consumer_breakdown=true",
    );
    const report = v3Envelope(v3CreditUsageReportSchema).parse(body).result;
    expect(report).toMatchObject({
      start_time: "2026-11-19T00:00:00Z",
      end_time: "2026-11-21T23:59:59Z",
      granularity: "daily",
      total_added: 100,
      total_consumed: 3,
      transaction_count: 3,
      credits_consumed_by_source: { api: 3, ui: 0 },
      credits_consumed_by_consumer: { "org-usage-user-1": 1, "org-usage-user-2": 2 },
    });
    expect(report.periods.map((p) => [p.start_date, p.credits_consumed])).toEqual([
      ["2026-11-19T00:00:00Z", 0],
      ["2026-11-20T00:00:00Z", 3],
      ["2026-11-21T00:00:00Z", 0],
    ]);
    const member = await org.json(
      "GET",
      "/v3/accounts/organizations/org-usage/members/org-usage-user-2/credits/usage?granularity=monthly",
    );
    const mine = v3Envelope(v3CreditUsageReportSchema).parse(member.body).result;
    expect(mine).toMatchObject({ total_consumed: 2, total_added: 0, transaction_count: 1 });
    expect(mine.periods).toHaveLength(1);
    expect(mine.periods[0]!.start_date).toBe("2026-11-01T00:00:00Z");
  });

  it("answers 404 for a user who is not a member", async () => {
    const org = organization("org-members", 10);
    const res = await org.call(
      "GET",
      "/v3/accounts/organizations/org-members/members/stranger/credits/usage?granularity=daily",
    );
    expect((await expectProblem(res, 404)).detail).toContain("stranger");
  });

  it("refuses report parameters it cannot use with a 400 naming them", async () => {
    const org = organization("org-params", 10);
    const base = "/v3/accounts/organizations/org-params/credits/usage";
    const cases: [string, string][] = [
      ["?granularity=hourly", "query.granularity"],
      ["?granularity=daily&start_date=2026-02-30", "query.start_date"],
      ["?granularity=daily&start_date=2024-12-31&end_date=2025-01-02", "query.start_date"],
      ["?granularity=daily&start_date=2026-11-10&end_date=2026-11-01", "query.end_date"],
      ["?granularity=daily&start_date=2025-01-01&end_date=2026-11-01", "query.end_date"],
      ["?granularity=daily&include_consumer_breakdown=maybe", "query.include_consumer_breakdown"],
    ];
    for (const [query, location] of cases) {
      const problem = await expectProblem(await org.call("GET", `${base}${query}`), 400);
      expect(problem.errors?.[0]?.location, query).toBe(location);
    }
  });

  it("reports by day when granularity is left out, as the SDK lets a caller do", async () => {
    const org = organization("org-default-granularity", 10);
    const res = await org.call("GET", "/v3/accounts/organizations/org-default-granularity/credits/usage");
    expect(res.status).toBe(200);
    const body: { result: { granularity: string } } = await res.json();
    expect(body.result.granularity).toBe("daily");
  });
});
