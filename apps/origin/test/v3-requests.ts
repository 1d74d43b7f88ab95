import { env } from "cloudflare:workers";
import { v3ErrorMediaType, v3ProblemSchema, type V3Problem } from "@scangate/core";
import { expect } from "vitest";
import { workerFetch } from "./support/requests";

/**
 * Requests to the origin's Platform API (v3) as its tests make them: the configured account's
 * personal access token as the bearer, the worker's real entry.
 */

const ORIGIN = "http://origin.test";

export interface PlatformAccountConfig {
  api_id: string;
  personal_access_token: string;
  organization_id: string;
  user_id: string;
  credits?: number;
}

/** The first account of the worker's ORIGIN_ACCOUNTS (wrangler.jsonc), which has Platform access. */
export function platformAccount(): PlatformAccountConfig {
  const [account] = JSON.parse(env.ORIGIN_ACCOUNTS) as PlatformAccountConfig[];
  if (!account?.personal_access_token)
    throw new Error("wrangler.jsonc's first account has no personal_access_token");
  return account;
}

export interface V3CallOptions {
  /** A JSON value, or a raw body (text or bytes). */
  body?: unknown;
  /** The bearer token; null sends no Authorization. Defaults to the configured account's. */
  token?: string | null;
  headers?: Record<string, string>;
  /** The worker to call (a harness with other bindings); defaults to the test's worker. */
  fetcher?: (request: Request) => Promise<Response>;
}

export function v3Call(method: string, path: string, options: V3CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? platformAccount().personal_access_token : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | Uint8Array | undefined;
  if (options.body !== undefined) {
    const raw = typeof options.body === "string" || options.body instanceof Uint8Array;
    body = raw ? (options.body as string | Uint8Array) : JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const request = new Request(`${ORIGIN}${path}`, { method, headers, body });
  return options.fetcher ? options.fetcher(request) : workerFetch(request);
}

export async function v3Get<T = Record<string, unknown>>(path: string, options: V3CallOptions = {}) {
  const res = await v3Call("GET", path, options);
  return { res, body: (await res.clone().json()) as T };
}

export async function v3Post<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  options: V3CallOptions = {},
) {
  const res = await v3Call("POST", path, { ...options, body });
  return { res, body: (await res.clone().json()) as T };
}

/**
 * Asserts `res` is a problem document of `status` (in problem+json; a 401 in the JSON the SDK
 * reads as AuthenticationError) and returns it, parsed with core's schema.
 */
export async function expectProblem(
  res: Response,
  status: number,
): Promise<V3Problem & Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toBe(v3ErrorMediaType(status));
  const body = v3ProblemSchema.parse(await res.json()) as V3Problem & Record<string, unknown>;
  expect(body.status).toBe(status);
  return body;
}

/** The organization's balance straight from D1 (null before its first use). */
export async function balanceOf(organizationId: string): Promise<number | null> {
  const row = await env.DB.prepare("select balance from credit_balances where organization_id = ?")
    .bind(organizationId)
    .first<{ balance: number }>();
  return row?.balance ?? null;
}
