import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";

/** Test requests go to the real worker entry (src/index.ts), as a client's would. */
const ORIGIN = "http://origin.test";

/**
 * The worker's `fetch` handler, called as the runtime calls it: the test's bindings and an
 * execution context of its own, whose `waitUntil` work is done before the answer is returned.
 * Not through `exports.default.fetch`: in the Workers vitest pool each call made that way costs
 * more than the one before (cloudflare/workers-sdk#15446; 7 ms a request at first, 400 ms after
 * 1,100 in the fuzz suite), which no caller here should pay.
 */
export async function workerFetch(input: Request | string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(input, init), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

interface ConfiguredAccount {
  api_id: string;
  api_secret: string;
  login: string;
  email: string;
  allowance: number;
}

/** The first account of the worker's ORIGIN_ACCOUNTS (wrangler.jsonc). */
export function configuredAccount(): ConfiguredAccount {
  const [account] = JSON.parse(env.ORIGIN_ACCOUNTS) as ConfiguredAccount[];
  if (!account) throw new Error("wrangler.jsonc declares no ORIGIN_ACCOUNTS");
  return account;
}

export function basicAuth(apiId: string, secret: string): string {
  return `Basic ${btoa(`${apiId}:${secret}`)}`;
}

export function defaultAuth(): string {
  const account = configuredAccount();
  return basicAuth(account.api_id, account.api_secret);
}

export interface CallOptions {
  /** A JSON value to send, or a raw string body. */
  body?: unknown;
  /** The Authorization header; `null` sends none. Defaults to the configured account. */
  auth?: string | null;
  headers?: Record<string, string>;
}

export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth === undefined ? defaultAuth() : options.auth;
  if (auth !== null) headers.Authorization = auth;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  return workerFetch(`${ORIGIN}${path}`, { method, headers, body });
}

export async function getJson<T = Record<string, unknown>>(path: string, options: CallOptions = {}) {
  const res = await call("GET", path, options);
  return { res, body: (await res.json()) as T };
}

export async function postJson<T = Record<string, unknown>>(
  path: string,
  body: unknown,
  options: CallOptions = {},
) {
  const res = await call("POST", path, { ...options, body });
  return { res, body: (await res.json()) as T };
}
