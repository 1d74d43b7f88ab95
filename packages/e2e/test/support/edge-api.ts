// The edge's API as the tests call it beside the browser: as a tenant (HTTP Basic, reading the
// Cache-Status header the client library does not expose) and as the admin.
import { createAdminClient, createClient } from "@scangate/client";
import type { TenantCreateBody, TenantWithSecret } from "@scangate/core";

export interface Credential {
  apiId: string;
  apiSecret: string;
}

export const credentialOf = (tenant: TenantWithSecret): Credential => ({
  apiId: tenant.api_id,
  apiSecret: tenant.api_secret,
});

export function basicAuth({ apiId, apiSecret }: Credential): string {
  return `Basic ${Buffer.from(`${apiId}:${apiSecret}`).toString("base64")}`;
}

export interface ApiAnswer {
  status: number;
  /** The edge answered from its document cache (`Cache-Status: scangate; hit`). */
  cacheHit: boolean;
  body: unknown;
}

export async function tenantGet(edgeUrl: string, credential: Credential, path: string): Promise<ApiAnswer> {
  const res = await fetch(new URL(path, edgeUrl), { headers: { authorization: basicAuth(credential) } });
  const cacheHit = /^scangate; hit\b/.test(res.headers.get("cache-status") ?? "");
  return { status: res.status, cacheHit, body: await res.json() };
}

export function accountOf(edgeUrl: string, credential: Credential) {
  return createClient({ baseUrl: edgeUrl, ...credential, retry: false }).account();
}

export function adminApi(edgeUrl: string, adminToken: string) {
  return createAdminClient({ baseUrl: edgeUrl, adminToken });
}

/** A tenant made through the JSON admin API (the console's own form is tested separately). */
export function createTenant(
  edgeUrl: string,
  adminToken: string,
  body: TenantCreateBody,
): Promise<TenantWithSecret> {
  return adminApi(edgeUrl, adminToken).tenants.create(body);
}
