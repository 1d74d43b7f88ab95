import { describe, expect, it } from "vitest";
import { MissWalk } from "../src/scenarios/edge-miss";

describe("MissWalk", () => {
  it("lets the first slice start at once when nothing was asked for yet", () => {
    expect(new MissWalk(100, 5000).waitMs(0, 100)).toBe(0);
  });

  it("waits until what the next slice will ask for was last asked for a memory hold ago", () => {
    const walk = new MissWalk(100, 5000);
    // A slice that asked for the first 60 certificates, ending at t = 1000 ms.
    walk.cursor.next = 60;
    walk.asked(0, 1000);
    // The next 30 were never asked for: at once. The next 50 wrap round to the ones just asked.
    expect(walk.waitMs(1500, 30)).toBe(0);
    expect(walk.waitMs(1500, 50)).toBe(4500);
    expect(walk.waitMs(6000, 50)).toBe(0);
  });

  it("goes by the latest time each position was asked for, round after round of the walk", () => {
    const walk = new MissWalk(10, 5000);
    walk.cursor.next = 10;
    walk.asked(0, 1000);
    walk.cursor.next = 15;
    walk.asked(10, 7000);
    // Positions 5 to 9 were last asked at 1000, 0 to 4 (asked again as 10 to 14) at 7000.
    expect(walk.waitMs(8000, 5)).toBe(0);
    expect(walk.waitMs(8000, 6)).toBe(4000);
  });
});
