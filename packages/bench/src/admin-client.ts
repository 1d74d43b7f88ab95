// The bench's calls outside the measured load: tenants through the edge's admin API, usage
// rollups, and the origin account's quota (what the origin itself counted as served).
import { accountSchema, type BulkBody, tenantWithSecretSchema, usageListSchema } from "@scangate/core";
import { BENCH_TIER } from "./cluster";

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

export interface BenchTenant {
  readonly id: string;
  readonly authorization: string;
}

/** A tenant on the bench's tier, with an allowance the run cannot spend, so neither shapes the figures. */
export async function createTenant(
  edgeUrl: string,
  adminToken: string,
  name: string,
  tier: string = BENCH_TIER,
): Promise<BenchTenant> {
  const response = await fetch(`${edgeUrl}/admin/tenants`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name, allowance: 1_000_000_000, period: "monthly", tier }),
  });
  const tenant = tenantWithSecretSchema.parse(await expectOk(response, "POST /admin/tenants"));
  return { id: tenant.id, authorization: basicAuth(tenant.api_id, tenant.api_secret) };
}

export interface TenantUsage {
  readonly requests: number;
  readonly cacheHits: number;
  readonly upstreamCalls: number;
  readonly errors: number;
}

/** What the edge's hourly usage rollups hold for a tenant, all operations together. */
export async function tenantUsage(
  edgeUrl: string,
  adminToken: string,
  tenantId: string,
): Promise<TenantUsage> {
  const response = await fetch(
    `${edgeUrl}/admin/usage?tenant_id=${encodeURIComponent(tenantId)}&limit=5000`,
    {
      headers: { authorization: `Bearer ${adminToken}` },
    },
  );
  const { usage } = usageListSchema.parse(await expectOk(response, "GET /admin/usage"));
  return usage.reduce(
    (sum, row) => ({
      requests: sum.requests + row.requests,
      cacheHits: sum.cacheHits + row.cache_hits,
      upstreamCalls: sum.upstreamCalls + row.upstream_calls,
      errors: sum.errors + row.errors,
    }),
    { requests: 0, cacheHits: 0, upstreamCalls: 0, errors: 0 },
  );
}

/** Requests the origin has charged the bench's origin account this period. */
export async function originQuotaUsed(originUrl: string, authorization: string): Promise<number> {
  const response = await fetch(`${originUrl}/api/v1/account`, { headers: { authorization } });
  return accountSchema.parse(await expectOk(response, "GET origin /api/v1/account")).quota.used;
}

export function bulkBody(fingerprints: readonly string[]): string {
  const body: BulkBody = { fingerprints: [...fingerprints] };
  return JSON.stringify(body);
}

/**
 * Purges a certificate from the edge's cache through the admin API: D1, and the memory tier of
 * the isolate that answers (the only one, in the bench and in `wrangler dev`).
 */
export async function purgeCertificate(
  edgeUrl: string,
  adminToken: string,
  fingerprint: string,
): Promise<void> {
  const response = await fetch(`${edgeUrl}/admin/cache/certificates/${fingerprint}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${adminToken}` },
  });
  await expectOk(response, "DELETE /admin/cache/certificates/:id");
}
