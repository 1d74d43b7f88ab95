import { usageListSchema } from "@scangate/core";
import { describe, expect, it } from "vitest";
import { originFacts, seedOrigin } from "../support/origin-data";
import { admin, buildRequest, createTenant, tenantAuth } from "../support/requests";
import { testEdge } from "../support/test-edge";
import { ledgerUsed } from "../support/ledger";

/**
 * Many tenants at once: every charge, every upstream call and every usage rollup adds up
 * exactly, with 500 requests in flight together against the real origin.
 */
await seedOrigin();
const facts = await originFacts();

const ALLOWANCES = [20, 40, 60, 80, 100] as const;
const REQUESTS_PER_TENANT = 100;

async function usedOf(tenantId: string): Promise<number> {
  const row = { used: await ledgerUsed(tenantId) };
  return row?.used ?? -1;
}

async function usageTotals(edge: ReturnType<typeof testEdge>, tenantId: string) {
  const res = await admin("GET", `/admin/usage?tenant_id=${tenantId}`, undefined, edge.fetch);
  expect(res.status).toBe(200);
  const { usage } = usageListSchema.parse(await res.json());
  return usage.reduce(
    (sum, row) => ({
      requests: sum.requests + row.requests,
      errors: sum.errors + row.errors,
      quota_spent: sum.quota_spent + row.quota_spent,
      upstream_calls: sum.upstream_calls + row.upstream_calls,
    }),
    { requests: 0, errors: 0, quota_spent: 0, upstream_calls: 0 },
  );
}

describe("500 concurrent requests across five tenants", () => {
  it(
    "lets exactly each tenant's allowance through, calls the upstream once per charge, and loses no rollup",
    { timeout: 120_000 },
    async () => {
      const edge = testEdge();
      const tenants = await Promise.all(
        ALLOWANCES.map((allowance) => createTenant({ allowance }, edge.fetch)),
      );
      const query = `ip: ${facts.hosts[0]}`;

      // Interleave the tenants so their requests really compete.
      const calls = Array.from({ length: REQUESTS_PER_TENANT }, () => tenants).flat();
      const responses = await Promise.all(
        calls.map(async (tenant) => {
          const res = await edge.fetch(
            buildRequest("POST", "/api/v1/search/ipv4", { body: { query }, auth: tenantAuth(tenant) }),
          );
          await res.arrayBuffer();
          return { tenant: tenant.id, status: res.status };
        }),
      );
      expect(responses).toHaveLength(ALLOWANCES.length * REQUESTS_PER_TENANT);
      expect(responses.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);

      const totalAllowance = ALLOWANCES.reduce((a, b) => a + b, 0);
      expect(edge.upstream.requests).toHaveLength(totalAllowance);

      for (const [i, tenant] of tenants.entries()) {
        const allowance = ALLOWANCES[i]!;
        const mine = responses.filter((r) => r.tenant === tenant.id);
        expect(
          mine.filter((r) => r.status === 200),
          tenant.id,
        ).toHaveLength(allowance);
        expect(
          mine.filter((r) => r.status === 429),
          tenant.id,
        ).toHaveLength(REQUESTS_PER_TENANT - allowance);
        expect(await usedOf(tenant.id)).toBe(allowance);
        expect(await usageTotals(edge, tenant.id)).toEqual({
          requests: REQUESTS_PER_TENANT,
          errors: REQUESTS_PER_TENANT - allowance,
          quota_spent: allowance,
          upstream_calls: allowance,
        });
      }
    },
  );
});
