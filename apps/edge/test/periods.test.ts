import { describe, expect, it } from "vitest";
import { accountTimestamp } from "@scangate/core/http";
import { effectiveQuota, nextReset, periodSeconds } from "../src/tenants/periods";

describe("tenant quota periods", () => {
  const at = Date.UTC(2024, 1, 29, 13, 45, 10); // a leap day
  it("resets daily at the next UTC midnight and monthly on the first of the next month", () => {
    expect(new Date(nextReset("daily", at) ?? 0).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(new Date(nextReset("monthly", at) ?? 0).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(new Date(nextReset("monthly", Date.UTC(2024, 11, 31, 23, 59)) ?? 0).toISOString()).toBe(
      "2025-01-01T00:00:00.000Z",
    );
    expect(nextReset("never", at)).toBeNull();
  });

  it("knows the length of the period that ends at a reset", () => {
    expect(periodSeconds("monthly", Date.UTC(2024, 2, 1))).toBe(29 * 86_400);
    expect(periodSeconds("monthly", Date.UTC(2024, 0, 1))).toBe(31 * 86_400);
    expect(periodSeconds("daily", Date.UTC(2024, 2, 1))).toBe(86_400);
    expect(periodSeconds("never", null)).toBeNull();
  });

  it("counts a passed period as reset", () => {
    const row = { used: 9, allowance: 10, resetsAt: at, period: "daily" as const };
    expect(effectiveQuota(row, at - 1)).toEqual({ used: 9, allowance: 10, resetsAt: at });
    expect(effectiveQuota(row, at)).toEqual({ used: 0, allowance: 10, resetsAt: Date.UTC(2024, 2, 1) });
  });

  it("formats account times as YYYY-MM-DD hh:mm:ss in UTC", () => {
    expect(accountTimestamp(at)).toBe("2024-02-29 13:45:10");
  });
});
