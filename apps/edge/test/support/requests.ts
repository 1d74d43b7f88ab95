import { platformTokenWithSecretSchema, tenantSchema, type TenantWithSecret } from "@scangate/core";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { Env } from "../../src/env";
import worker from "../../src/index";
import { suiteSecretWatch } from "../reliability/secret-watch";

export const EDGE = "http://edge.test";

export function basicAuth(apiId: string, secret: string): string {
  return `Basic ${btoa(`${apiId}:${secret}`)}`;
}

export function tenantAuth(tenant: { api_id: string; api_secret: string }): string {
  return basicAuth(tenant.api_id, tenant.api_secret);
}

export interface CallOptions {
  body?: unknown;
  auth?: string | null;
  headers?: Record<string, string>;
}

export type Fetch = (request: Request) => Promise<Response>;

/**
 * The bindings the worker entry is called with. The entry builds its services (memory tier, auth
 * cache, failed-authentication counts) once per bindings object, and the test files share one
 * runtime and this module: each file gets a copy of its own (`freshWorkerEnv`, from the setup
 * file), so it meets new services, as a runtime of its own would start.
 */
let workerEnv: Env = { ...env };

export function freshWorkerEnv(): void {
  workerEnv = { ...env };
}

/**
 * The real worker entry (src/index.ts), called as the runtime calls it: this file's bindings and an
 * execution context of its own, whose `waitUntil` work is done before the answer is returned.
 * Every response is checked for upstream secrets. Not through `exports.default.fetch`: in the
 * Workers vitest pool each call made that way costs more than the one before
 * (cloudflare/workers-sdk#15446; apps/origin/test/support/requests.ts has the figures).
 */
export const workerFetch: Fetch = suiteSecretWatch.watch(async (request) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, workerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
});

export function buildRequest(method: string, path: string, options: CallOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.auth) headers.set("authorization", options.auth);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`${EDGE}${path}`, { method, headers, body });
}

export function adminAuth(): string {
  return `Bearer ${env.ADMIN_TOKEN ?? ""}`;
}

/** Admin API call with the configured bearer token. */
export function admin(
  method: string,
  path: string,
  body?: unknown,
  fetcher: Fetch = workerFetch,
): Promise<Response> {
  return fetcher(buildRequest(method, path, { body, auth: adminAuth() }));
}

/** A new tenant through the admin API (the only time its secret is visible). */
export async function createTenant(
  body: Record<string, unknown> = {},
  fetcher: Fetch = workerFetch,
): Promise<TenantWithSecret> {
  const res = await admin(
    "POST",
    "/admin/tenants",
    { name: `t-${crypto.randomUUID().slice(0, 8)}`, ...body },
    fetcher,
  );
  if (res.status !== 201) throw new Error(`tenant create failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A new tenant with a /v3 bearer token (no grace period): the tenant, its id, the token and its Authorization value. */
export async function tenantWithToken(
  fetcher: Fetch,
  allowance?: number,
): Promise<{ id: string; tenant: TenantWithSecret; token: string; auth: string }> {
  const tenant = await createTenant(allowance === undefined ? {} : { allowance }, fetcher);
  const res = await admin(
    "POST",
    `/admin/tenants/${tenant.id}/platform-token`,
    { grace_seconds: 0 },
    fetcher,
  );
  const issued = platformTokenWithSecretSchema.parse(await res.json());
  return { id: tenant.id, tenant, token: issued.token, auth: `Bearer ${issued.token}` };
}

/** A tenant's `used`, as the admin API reads it from its ledger. */
export async function usedOf(fetcher: Fetch, id: string): Promise<number> {
  const res = await admin("GET", `/admin/tenants/${id}`, undefined, fetcher);
  return tenantSchema.parse(await res.json()).used;
}
