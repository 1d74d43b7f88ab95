import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import type { Env } from "../src/env";
import { withOrganization } from "../src/upstream/platform";

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

const TOKEN = "censys-pat-very-secret-value";
const CREDENTIALS = JSON.stringify([{ token: TOKEN, organization_id: "org-1" }]);

function load(changes: Record<string, unknown>) {
  return loadConfig({ ...GOOD, ...changes });
}

describe("Platform (/v3) configuration", () => {
  it("has no Platform upstream until PLATFORM_CREDENTIALS is set", () => {
    const result = load({});
    expect(result.ok && result.config.platform).toBeNull();
  });

  it("uses the origin binding locally when the legacy upstream is the origin too", () => {
    const result = load({ PLATFORM_CREDENTIALS: CREDENTIALS });
    expect(result.ok && result.config.platform).toEqual({
      target: { kind: "service" },
      credentials: [{ token: TOKEN, organizationId: "org-1" }],
    });
  });

  it("reads production settings: PLATFORM_URL (trailing slash dropped) and a pool of tokens", () => {
    const result = load({
      UPSTREAM_URL: "https://search.censys.io/api",
      PLATFORM_URL: "https://api.platform.censys.io/",
      PLATFORM_CREDENTIALS: JSON.stringify([
        { token: "a", organization_id: "org-a" },
        { token: "b", organization_id: "org-b" },
      ]),
    });
    expect(result.ok && result.config.platform).toEqual({
      target: { kind: "url", baseUrl: "https://api.platform.censys.io" },
      credentials: [
        { token: "a", organizationId: "org-a" },
        { token: "b", organizationId: "org-b" },
      ],
    });
  });

  for (const [what, changes, problem] of [
    [
      "credentials that are not JSON",
      { PLATFORM_CREDENTIALS: "{nope" },
      "PLATFORM_CREDENTIALS: is not valid JSON",
    ],
    [
      "an empty pool",
      { PLATFORM_CREDENTIALS: "[]" },
      "PLATFORM_CREDENTIALS: must hold at least one credential",
    ],
    [
      "an entry without an organization",
      { PLATFORM_CREDENTIALS: JSON.stringify([{ token: TOKEN }]) },
      "PLATFORM_CREDENTIALS.0.organization_id",
    ],
    [
      "legacy api_id/api_secret entries",
      { PLATFORM_CREDENTIALS: JSON.stringify([{ api_id: "x", api_secret: TOKEN }]) },
      "PLATFORM_CREDENTIALS.0",
    ],
    [
      "a URL that is not http(s)",
      { PLATFORM_URL: "ftp://x", PLATFORM_CREDENTIALS: CREDENTIALS },
      "PLATFORM_URL: must be an http(s) URL",
    ],
    [
      "PLATFORM_URL without credentials",
      { PLATFORM_URL: "https://api.platform.censys.io" },
      "PLATFORM_CREDENTIALS: is not set",
    ],
    [
      "credentials in front of the public legacy API without PLATFORM_URL",
      { UPSTREAM_URL: "https://search.censys.io/api", PLATFORM_CREDENTIALS: CREDENTIALS },
      "PLATFORM_URL: is not set",
    ],
  ] as const) {
    it(`refuses ${what}, naming the variable and never the token`, () => {
      const result = load(changes);
      expect(result.ok).toBe(false);
      const text = result.ok ? "" : result.problems.join("; ");
      expect(text).toContain(problem);
      expect(text).not.toContain(TOKEN);
    });
  }
});

describe("withOrganization", () => {
  it("replaces every organization_id the caller sent with the upstream's, keeping the rest as sent", () => {
    expect(withOrganization("/v3/x?a=1&organization_id=mine&b=%2F&organization_id=again", "up org")).toBe(
      "/v3/x?a=1&b=%2F&organization_id=up%20org",
    );
  });

  it("recognises the parameter however its name is encoded", () => {
    expect(withOrganization("/v3/x?organization%5Fid=mine", "up")).toBe("/v3/x?organization_id=up");
    expect(withOrganization("/v3/x?organization_id", "up")).toBe("/v3/x?organization_id=up");
  });

  it("replaces the organization an account path names, keeping the rest of the path and query", () => {
    expect(withOrganization("/v3/accounts/organizations/mine/credits?organization_id=mine", "up org")).toBe(
      "/v3/accounts/organizations/up%20org/credits?organization_id=up%20org",
    );
    expect(withOrganization("/v3/accounts/organizations/mine", "up")).toBe("/v3/accounts/organizations/up");
    expect(withOrganization("/v3/accounts/organizations/mine/members/u1/credits/usage?x=1", "up")).toBe(
      "/v3/accounts/organizations/up/members/u1/credits/usage?x=1",
    );
    expect(withOrganization("/v3/global/asset/host/organizations", "up")).toBe(
      "/v3/global/asset/host/organizations",
    );
  });

  it("leaves a target without the parameter alone, malformed escapes included", () => {
    expect(withOrganization("/v3/x", "up")).toBe("/v3/x");
    expect(withOrganization("/v3/x?q=%E0%A4%A&organization=1", "up")).toBe("/v3/x?q=%E0%A4%A&organization=1");
  });
});
