import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/app";
import { v3Call } from "../v3-requests";

/**
 * An organization of its own for a Platform API test: `members` accounts (member 1 first; the
 * organization's roles are both, until a test changes them), a clock the test moves, and calls
 * as any member. Each test file's storage is its own; an organization id per test keeps tests
 * of one file apart.
 */
export interface PlatformOrg {
  id: string;
  members: { user_id: string; personal_access_token: string; email: string; api_id: string }[];
  now(): number;
  advance(ms: number): void;
  call(
    method: string,
    path: string,
    options?: { member?: number; body?: unknown; raw?: string },
  ): Promise<Response>;
  /** The call's status and JSON body (null for an empty one). */
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { member?: number; body?: unknown },
  ): Promise<{ status: number; body: T }>;
}

export function platformOrg(
  id: string,
  options: { members?: number; credits?: number; start?: number } = {},
): PlatformOrg {
  let now = options.start ?? Date.parse("2026-11-20T12:00:00Z");
  const members = Array.from({ length: options.members ?? 2 }, (_, i) => ({
    api_id: `${id}-api-${i + 1}`,
    api_secret: "secret",
    login: `member${i + 1}`,
    email: `member${i + 1}@${id}.test`,
    allowance: 100,
    personal_access_token: `${id}-token-${i + 1}-xxxxxxxxxx`,
    organization_id: id,
    user_id: `${id}-user-${i + 1}`,
    organization_name: `Org ${id}`,
    credits: options.credits ?? 100_000,
  }));
  const app = createApp({ clock: { now: () => now } });
  const harness = {
    ...env,
    ORIGIN_ACCOUNTS: JSON.stringify([...(JSON.parse(env.ORIGIN_ACCOUNTS) as unknown[]), ...members]),
  };
  const fetcher = (request: Request) =>
    Promise.resolve(app.fetch(request, harness, createExecutionContext()));
  const call: PlatformOrg["call"] = (method, path, { member = 1, body, raw } = {}) =>
    v3Call(method, path, {
      token: members[member - 1]?.personal_access_token ?? null,
      body: raw ?? body,
      fetcher,
    });
  return {
    id,
    members,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    call,
    async json(method, path, opts) {
      const res = await call(method, path, opts);
      const text = await res.text();
      return { status: res.status, body: (text === "" ? null : JSON.parse(text)) as never };
    },
  };
}

/** Rows of a table, counted (to show a refused request wrote nothing). */
export async function rowCount(table: string, where = "1", ...params: (string | number)[]): Promise<number> {
  const row = await env.DB.prepare(`select count(*) as n from ${table} where ${where}`)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
