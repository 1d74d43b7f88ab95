import { describe, expect, it } from "vitest";
import { freshness } from "../src/cache/freshness";

describe("cache freshness", () => {
  const policy = { staleWhileRevalidateMs: 100, staleIfErrorMs: 1000 };
  const doc = { body: "{}", negative: false, fetchedAt: 0, expiresAt: 50 };
  it("moves a row from fresh to revalidate to if_error to expired", () => {
    expect(freshness(doc, 49, policy)).toBe("fresh");
    expect(freshness(doc, 50, policy)).toBe("revalidate");
    expect(freshness(doc, 150, policy)).toBe("if_error");
    expect(freshness(doc, 1050, policy)).toBe("expired");
    expect(freshness({ ...doc, expiresAt: null }, 1e15, policy)).toBe("fresh");
  });
});
