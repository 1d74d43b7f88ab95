import { describe, expect, it } from "vitest";
import { accountTimestamp } from "../../src/http";

describe("accountTimestamp", () => {
  const at = Date.UTC(2024, 1, 29, 13, 45, 10, 89);

  it("is YYYY-MM-DD hh:mm:ss in UTC", () => {
    expect(accountTimestamp(at)).toBe("2024-02-29 13:45:10");
  });

  it("carries .ffffff when asked (last_login)", () => {
    expect(accountTimestamp(at, true)).toBe("2024-02-29 13:45:10.089000");
  });
});

describe("accountTimestamp of a Date", () => {
  it("formats it as its epoch milliseconds", () => {
    const at = new Date("2024-03-04T05:06:07.089Z");
    expect(accountTimestamp(at)).toBe("2024-03-04 05:06:07");
    expect(accountTimestamp(at, true)).toBe("2024-03-04 05:06:07.089000");
  });
});
