import { env, exports } from "cloudflare:workers";

/** Test requests go to the real worker entry (`exports.default`), as a client would. */
const ORIGIN = "http://origin.test";

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
  return exports.default.fetch(`${ORIGIN}${path}`, { method, headers, body });
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
