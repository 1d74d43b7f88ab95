import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import type { Env } from "../src/env";
import { buildRequest } from "./support/requests";
import { testEdge } from "./support/test-edge";

const GOOD = {
  DB: env.DB,
  LEDGER: env.LEDGER,
  ORIGIN: env.ORIGIN,
  RATE_LIMIT_LOW: env.RATE_LIMIT_LOW,
  RATE_LIMIT_STANDARD: env.RATE_LIMIT_STANDARD,
  RATE_LIMIT_HIGH: env.RATE_LIMIT_HIGH,
  ADMIN_TOKEN: "a".repeat(40),
  UPSTREAM_CREDENTIALS: '[{"api_id":"u","api_secret":"very-secret-value"}]',
} as Env;

function problems(changes: Record<string, unknown>): string[] {
  const result = loadConfig({ ...GOOD, ...changes });
  return result.ok ? [] : result.problems;
}

describe("config validation", () => {
  it("accepts the minimum and fills in defaults", () => {
    const result = loadConfig(GOOD);
    expect(result.ok && result.config).toMatchObject({
      upstream: { kind: "service" },
      upstreamTimeoutMs: 90_000,
      tenantDefaults: { allowance: 250, period: "monthly", tier: "standard" },
      cache: { hitsCharged: false, ttlSeconds: { certificates: 604_800, hosts: 3600 } },
      authCacheTtlMs: 5000,
    });
  });

  it("reads production settings: upstream URL, pool, JSON tiers and TTLs", () => {
    const result = loadConfig({
      ...GOOD,
      UPSTREAM_URL: "https://search.censys.io/api/",
      UPSTREAM_CREDENTIALS: '[{"api_id":"a","api_secret":"x"},{"api_id":"b","api_secret":"y"}]',
      UPSTREAM_TIMEOUT_MS: "30000",
      CACHE_TTL_SECONDS: '{"ipv4": 60}',
      RATE_TIERS: {
        team: { binding: "RATE_LIMIT_HIGH", limit: 600, period: 60 },
        standard: { unlimited: true },
      },
    });
    expect(result.ok && result.config).toMatchObject({
      upstream: { kind: "url", baseUrl: "https://search.censys.io/api" },
      upstreamTimeoutMs: 30_000,
      cache: { ttlSeconds: { ipv4: 60, certificates: 604_800 } },
      rateTiers: {
        team: { binding: "RATE_LIMIT_HIGH", limit: 600, periodSeconds: 60 },
        standard: { unlimited: true },
      },
    });
    expect(result.ok && result.config.upstreamCredentials).toHaveLength(2);
  });

  for (const [what, changes, expected] of [
    ["a missing admin token", { ADMIN_TOKEN: undefined }, /^ADMIN_TOKEN: is not set/],
    ["a short admin token", { ADMIN_TOKEN: "short" }, /^ADMIN_TOKEN: must be at least 32 characters/],
    [
      "missing upstream credentials",
      { UPSTREAM_CREDENTIALS: undefined },
      /^UPSTREAM_CREDENTIALS: is not set/,
    ],
    [
      "upstream credentials that are not JSON",
      { UPSTREAM_CREDENTIALS: "api:secret" },
      /^UPSTREAM_CREDENTIALS: is not valid JSON/,
    ],
    [
      "an empty credential pool",
      { UPSTREAM_CREDENTIALS: "[]" },
      /^UPSTREAM_CREDENTIALS: must hold at least one/,
    ],
    [
      "a credential without a secret",
      { UPSTREAM_CREDENTIALS: '[{"api_id":"u"}]' },
      /^UPSTREAM_CREDENTIALS\.0\.api_secret/,
    ],
    ["a bad upstream URL", { UPSTREAM_URL: "ftp://x" }, /^UPSTREAM_URL: must be an http\(s\) URL/],
    ["no upstream at all", { ORIGIN: undefined }, /^UPSTREAM_URL: is not set and there is no ORIGIN/],
    ["a timeout that is not a number", { UPSTREAM_TIMEOUT_MS: "soon" }, /^UPSTREAM_TIMEOUT_MS:/],
    ["an unknown default period", { DEFAULT_PERIOD: "weekly" }, /^DEFAULT_PERIOD:/],
    ["an unknown default tier", { DEFAULT_TIER: "gold" }, /^DEFAULT_TIER: "gold" is not one of the tiers/],
    [
      "a tier bound to no binding",
      { RATE_TIERS: '{"x":{"binding":"RATE_LIMIT_NOPE","limit":1,"period":60}}', DEFAULT_TIER: "x" },
      /RATE_LIMIT_NOPE is not declared/,
    ],
    ["an auth cache longer than 5 s", { AUTH_CACHE_TTL_MS: "60000" }, /^AUTH_CACHE_TTL_MS:/],
  ] as const) {
    it(`names the variable for ${what}, never its value`, () => {
      const found = problems(changes);
      expect(found.some((p) => expected.test(p))).toBe(true);
      expect(found.join(" ")).not.toContain("very-secret-value");
    });
  }

  it("answers every request with a 500 naming the problem while the config is invalid", async () => {
    const edge = testEdge({ vars: { ADMIN_TOKEN: "short" } });
    const res = await edge.fetch(buildRequest("GET", "/api/v1/account"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error_code: 500,
      error: "edge misconfigured: ADMIN_TOKEN: must be at least 32 characters (use a random token)",
    });
  });
});
