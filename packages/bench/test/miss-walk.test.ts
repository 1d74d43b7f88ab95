import { describe, expect, it } from "vitest";
import { MissWalk } from "../src/scenarios/edge-miss";

describe("MissWalk", () => {
  it("lets the first slice start at once when nothing was asked for yet", () => {
    expect(new MissWalk(100, 5000).waitMs(0)).toBe(0);
  });

  it("waits until what the next slice may reach was last asked for a memory hold ago", () => {
    const walk = new MissWalk(100, 5000);
    // A slice that asked for the first 60 certificates, ending at t = 1000 ms.
    walk.cursor.next = 60;
    walk.asked(0, 1000);
    // The next slice may reach 120 positions: past the end of the walk, back to the ones just asked.
    expect(walk.waitMs(1500)).toBe(4500);
    expect(walk.waitMs(6000)).toBe(0);
  });

  it("lets a slice start at once when what it may reach was asked for long enough ago", () => {
    const walk = new MissWalk(1000, 5000);
    walk.cursor.next = 100;
    walk.asked(0, 1000);
    // Positions 100 to 299 were never asked: the slice may go at once, however recent the last one.
    expect(walk.waitMs(1001)).toBe(0);
    // After a slice of 850, the next may reach the whole walk, the ones just asked for among them.
    walk.cursor.next = 950;
    walk.asked(100, 2000);
    expect(walk.waitMs(2500)).toBe(4500);
  });
});
