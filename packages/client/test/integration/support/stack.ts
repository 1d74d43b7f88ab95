import { env, exports } from "cloudflare:workers";
import type { TenantCreateBody, TenantWithSecret } from "@scangate/core";
import { createAdminClient, createClient, type ClientOptions, type FetchLike } from "../../../src/index";
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
