// The bench's calls outside the measured load: tenants through the edge's admin API, usage
// rollups, and the origin account's quota (what the origin itself counted as served).
import {
  accountSchema,
  type BulkBody,
  platformTokenWithSecretSchema,
  tenantWithSecretSchema,
  usageListSchema,
} from "@scangate/core";
import { BENCH_TIER } from "./cluster";

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** How long a call outside the load waits for its answer (fetch's own bound is 5 minutes). */
const CALL_TIMEOUT_MS = 60_000;

/**
 * `fetch` for a request that may be sent twice (a read, or a purge): asked once more when the
 * connection failed without an answer. Right after a load that stopped with requests in flight,
 * the edge's workerd was seen resetting the next request on a kept-alive connection (read
 * ECONNRESET), and answering the same request again at once. Each try waits CALL_TIMEOUT_MS at
 * most, so an edge that stopped answering fails the scenario instead of holding up the run.
 */
async function fetchAgainOnReset(url: string, init: RequestInit = {}): Promise<Response> {
  const attempt = () => fetch(url, { ...init, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  try {
    return await attempt();
  } catch {
    return attempt();
  }
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

/** Issues the tenant's Platform (/v3) bearer token and gives its `Authorization` value. */
export async function platformAuthorization(
  edgeUrl: string,
  adminToken: string,
  tenantId: string,
): Promise<string> {
  const response = await fetch(`${edgeUrl}/admin/tenants/${tenantId}/platform-token`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: "{}",
  });
  const issued = platformTokenWithSecretSchema.parse(
    await expectOk(response, "POST /admin/tenants/:id/platform-token"),
  );
  return `Bearer ${issued.token}`;
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
  const response = await fetchAgainOnReset(
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
  const response = await fetchAgainOnReset(`${originUrl}/api/v1/account`, { headers: { authorization } });
  return accountSchema.parse(await expectOk(response, "GET origin /api/v1/account")).quota.used;
}

export function bulkBody(fingerprints: readonly string[]): string {
  const body: BulkBody = { fingerprints: [...fingerprints] };
  return JSON.stringify(body);
}

/** The body of a /v3 bulk certificate lookup (the SDK's `certificate_ids`). */
export function v3BulkBody(ids: readonly string[]): string {
  return JSON.stringify({ certificate_ids: ids });
}

/**
 * Purges a document from the edge's cache through the admin API: D1, and the memory tier of the
 * isolate that answers (the only one, in the bench and in `wrangler dev`). `index` is a legacy
 * index or a Platform one (`v3_certificate`).
 */
export async function purgeCached(
  edgeUrl: string,
  adminToken: string,
  index: string,
  id: string,
): Promise<void> {
  const response = await fetchAgainOnReset(`${edgeUrl}/admin/cache/${index}/${id}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${adminToken}` },
  });
  await expectOk(response, `DELETE /admin/cache/${index}/:id`);
}

/** Purges a certificate's legacy view document (purgeCached). */
export function purgeCertificate(edgeUrl: string, adminToken: string, fingerprint: string): Promise<void> {
  return purgeCached(edgeUrl, adminToken, "certificates", fingerprint);
}
