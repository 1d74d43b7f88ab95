import { describe, expect, it } from "vitest";
import { quotaHeaders } from "../src/pipeline/quota-headers";

describe("quota headers", () => {
  const at = Date.UTC(2024, 1, 29, 13, 45, 10); // a leap day
  it("writes the IETF RateLimit fields", () => {
    const quota = { used: 3, allowance: 10, resetsAt: at + 60_500 };
    expect(quotaHeaders(quota, "daily", at)).toEqual({
      "RateLimit-Policy": '"quota";q=10;w=86400',
      RateLimit: '"quota";r=7;t=61',
    });
    expect(quotaHeaders({ used: 12, allowance: 10, resetsAt: null }, "never", at)).toEqual({
      "RateLimit-Policy": '"quota";q=10',
      RateLimit: '"quota";r=0',
    });
  });
});
