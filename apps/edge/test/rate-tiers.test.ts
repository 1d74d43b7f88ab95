import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_TIERS, loadConfig, rateTierNamed, unknownTierProblem } from "../src/config";
import type { Env } from "../src/env";
import { WorkersRateLimiter } from "../src/ratelimit/workers";
import { PROTOTYPE_NAMES } from "./support/prototype-names";

const GOOD = {
  DB: env.DB,
  LEDGER: env.LEDGER,
  ORIGIN: env.ORIGIN,
  RATE_LIMIT_LOW: env.RATE_LIMIT_LOW,
  RATE_LIMIT_STANDARD: env.RATE_LIMIT_STANDARD,
  RATE_LIMIT_HIGH: env.RATE_LIMIT_HIGH,
  ADMIN_TOKEN: "a".repeat(40),
  UPSTREAM_CREDENTIALS: '[{"api_id":"u","api_secret":"s"}]',
} as Env;

function configuredTiers(changes: Record<string, unknown> = {}) {
  const result = loadConfig({ ...GOOD, ...changes });
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.config.rateTiers;
}

describe("rate tiers are looked up by own key", () => {
  it("finds each configured tier", () => {
    const tiers = configuredTiers();
    for (const name of Object.keys(DEFAULT_RATE_TIERS)) {
      expect(rateTierNamed(tiers, name)).toEqual(DEFAULT_RATE_TIERS[name]);
      expect(unknownTierProblem(tiers, name)).toBeUndefined();
    }
  });

  it.each(PROTOTYPE_NAMES)("finds no tier called %s, in the defaults or in a plain object", (name) => {
    expect(rateTierNamed(DEFAULT_RATE_TIERS, name)).toBeUndefined();
    expect(rateTierNamed(configuredTiers(), name)).toBeUndefined();
    expect(unknownTierProblem(DEFAULT_RATE_TIERS, name)).toBe(
      `tier: unknown tier "${name}" (one of low, standard, high, unlimited)`,
    );
  });

  it.each(PROTOTYPE_NAMES)("the loaded tiers inherit nothing: %s is not in them", (name: string) => {
    const tiers = configuredTiers();
    expect(name in tiers).toBe(false);
    expect(tiers[name]).toBeUndefined();
    const fromJson = configuredTiers({ RATE_TIERS: '{"team":{"unlimited":true}}', DEFAULT_TIER: "team" });
    expect(name in fromJson).toBe(false);
  });

  it.each(PROTOTYPE_NAMES)("refuses %s as the default tier, naming the variable", (name) => {
    const result = loadConfig({ ...GOOD, DEFAULT_TIER: name });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toContain(
      `DEFAULT_TIER: "${name}" is not one of the tiers (low, standard, high, unlimited)`,
    );
  });

  it.each(PROTOTYPE_NAMES)(
    "the Workers limiter treats %s as an unconfigured tier and calls no binding",
    async (name) => {
      const calls: string[] = [];
      const binding = {
        limit: ({ key }: { key: string }) => {
          calls.push(key);
          return Promise.resolve({ success: false });
        },
      };
      const limiter = new WorkersRateLimiter(
        { ...GOOD, RATE_LIMIT_STANDARD: binding, undefined: binding } as unknown as Env,
        DEFAULT_RATE_TIERS,
      );
      expect(await limiter.check("tnt_1", name)).toEqual({ allowed: true });
      expect(await limiter.check("tnt_1", "standard")).toEqual({ allowed: false, retryAfterSeconds: 60 });
      expect(calls).toEqual(["tnt_1"]);
    },
  );
});
