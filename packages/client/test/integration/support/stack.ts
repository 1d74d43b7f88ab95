import { env, exports } from "cloudflare:workers";
import type { TenantCreateBody, TenantWithSecret } from "@scangate/core";
import {
  createAdminClient,
  createClient,
  createPlatformClient,
  type ClientOptions,
  type FetchLike,
  type PlatformClientOptions,
} from "../../../src/index";
import { publishSnapshots } from "../../../../../apps/origin/src/snapshots/publish";
import { seedSmallDataset } from "../../../../../apps/origin/test/support/small-dataset";

// The real stack under test: the edge worker's own entry (`exports.default`) with the real
// origin worker behind its service binding. Nothing of our API is mocked.

export const EDGE_URL = "http://edge.test";
/** Matches ADMIN_TOKEN in vitest.workers.config.ts. */
export const ADMIN_TOKEN = "client-tests-admin-token-0123456789abcdef";

/** Requests to the edge worker, as a deployed client's fetch would send them. */
export const edgeFetch: FetchLike = (input, init) => exports.default.fetch(input, init);

/** Waits no time: the retry and poll delays are asserted through onRetry/onProgress instead. */
export const noWait = (_ms: number, signal?: AbortSignal): Promise<void> => {
  signal?.throwIfAborted();
  return Promise.resolve();
};

let seeded: Promise<void> | undefined;
/** The origin's small dataset, once per test file (storage is per file). */
export function seedOrigin(): Promise<void> {
  seeded ??= seedSmallDataset(env.ORIGIN_DB);
  return seeded;
}

let published: Promise<number> | undefined;
/** The small dataset plus its daily snapshot tables, which query and export jobs read. */
export async function seedOriginWithSnapshots(): Promise<void> {
  await seedOrigin();
  published ??= publishSnapshots(env.ORIGIN_DB, env.ORIGIN_SNAPSHOTS);
  await published;
}

export function adminClient(fetch: FetchLike = edgeFetch) {
  return createAdminClient({ baseUrl: EDGE_URL, adminToken: ADMIN_TOKEN, fetch, sleep: noWait });
}

let tenants = 0;
/** A fresh tenant made through the edge's admin API. */
export function createTenant(body: Partial<TenantCreateBody> = {}): Promise<TenantWithSecret> {
  tenants += 1;
  return adminClient().tenants.create({ name: `client test ${tenants}`, allowance: 10_000, ...body });
}

/** A client of the edge with `tenant`'s credentials. */
export function edgeClient(
  tenant: { api_id: string; api_secret: string },
  options: Partial<ClientOptions> = {},
) {
  return createClient({
    baseUrl: EDGE_URL,
    apiId: tenant.api_id,
    apiSecret: tenant.api_secret,
    fetch: edgeFetch,
    sleep: noWait,
    ...options,
  });
}

/** The same client code straight against the origin (the same wire format, its own account). */
export function originClient(options: Partial<ClientOptions> = {}) {
  const [account] = JSON.parse(env.ORIGIN_ACCOUNTS) as { api_id: string; api_secret: string }[];
  if (!account || !env.ORIGIN)
    throw new Error("the origin worker and its ORIGIN_ACCOUNTS are not configured");
  const origin = env.ORIGIN;
  return createClient({
    baseUrl: "http://origin.test/api",
    apiId: account.api_id,
    apiSecret: account.api_secret,
    fetch: (input, init) => origin.fetch(input, init),
    sleep: noWait,
    ...options,
  });
}

/** The origin's local Platform account: its personal access token and organization. */
export function originPlatformAccount(): { token: string; organizationId: string } {
  const [account] = JSON.parse(env.ORIGIN_ACCOUNTS) as {
    personal_access_token?: string;
    organization_id?: string;
  }[];
  if (!account?.personal_access_token || !account.organization_id)
    throw new Error("ORIGIN_ACCOUNTS has no Platform token and organization");
  return { token: account.personal_access_token, organizationId: account.organization_id };
}

/** A fresh tenant with a Platform (/v3) token issued by the edge's admin API. */
export async function createPlatformTenant(body: Partial<TenantCreateBody> = {}) {
  const tenant = await createTenant(body);
  const { token } = await adminClient().tenants.issuePlatformToken(tenant.id);
  return { tenant, token };
}

/** A Platform client of the edge's /v3 with a tenant's Platform token. */
export function edgePlatform(token: string, options: Partial<PlatformClientOptions> = {}) {
  return createPlatformClient({ baseUrl: EDGE_URL, token, fetch: edgeFetch, sleep: noWait, ...options });
}

/** The same Platform client straight against the origin's /v3, with its local account. */
export function originPlatform(options: Partial<PlatformClientOptions> = {}) {
  if (!env.ORIGIN) throw new Error("the origin worker is not configured");
  const origin = env.ORIGIN;
  return createPlatformClient({
    baseUrl: "http://origin.test",
    ...originPlatformAccount(),
    fetch: (input, init) => origin.fetch(input, init),
    sleep: noWait,
    ...options,
  });
}

/**
 * Gives the small dataset's `domain` website an HTTPS page on 443 (its seed lists the port but
 * no page), so the origin serves `domain:443` as a named web property.
 */
export async function serveWebsiteOn443(domain: string, title = `${domain} home`): Promise<string> {
  await seedOrigin();
  const page = JSON.stringify({ https: { get: { status_code: 200, title } } });
  const { meta } = await env.ORIGIN_DB.prepare(
    `update websites set doc = json_set(doc, '$."443"', json(?)) where domain = ?`,
  )
    .bind(page, domain)
    .run();
  if (meta.changes !== 1) throw new Error(`the small dataset has no website ${domain}`);
  return `${domain}:443`;
}
