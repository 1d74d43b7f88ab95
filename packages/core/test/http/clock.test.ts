import { describe, expect, it } from "vitest";
import { systemClock } from "../../src/http";

describe("systemClock", () => {
  it("reads epoch milliseconds", () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
