import { describe, expect, it } from "vitest";
import { CredentialPool } from "../src/upstream/credential-pool";
import { ManualClock } from "./support/clock";

describe("credential pool", () => {
  it("takes credentials in turn, skips resting ones, and still tries the soonest awake when all rest", () => {
    const clock = new ManualClock(0);
    const pool = new CredentialPool(
      [
        { apiId: "a", apiSecret: "1" },
        { apiId: "b", apiSecret: "2" },
      ],
      clock,
    );
    expect(pool.candidates().map((c) => c.apiId)).toEqual(["a", "b"]);
    expect(pool.candidates().map((c) => c.apiId)).toEqual(["b", "a"]);
    pool.rest("a", 1000);
    expect(pool.candidates().map((c) => c.apiId)).toEqual(["b"]);
    pool.rest("b", 500);
    expect(pool.candidates().map((c) => c.apiId)).toEqual(["b"]);
    clock.advance(1000);
    expect(
      pool
        .candidates()
        .map((c) => c.apiId)
        .sort(),
    ).toEqual(["a", "b"]);
  });
});
