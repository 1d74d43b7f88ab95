import { describe, expect, it } from "vitest";
import { awaitFlight, SingleFlight } from "../src/cache/single-flight";

describe("single flight", () => {
  it("runs concurrent work on one key once and shares its result", async () => {
    const flights = new SingleFlight<number>(1000);
    let runs = 0;
    const work = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 5));
      return 42;
    };
    const results = await Promise.all([
      flights.run("k", work),
      flights.run("k", work),
      flights.run("k", work),
    ]);
    expect(runs).toBe(1);
    expect(results.map((r) => r.leader)).toEqual([true, false, false]);
    expect(results.map((r) => r.value)).toEqual([42, 42, 42]);
    await flights.run("k", work);
    expect(runs).toBe(2);
  });

  it("does the work itself when the leader's flight has not ended within joinWaitMs", async () => {
    const flights = new SingleFlight<string>(20);
    const stuck = flights.run("k", () => new Promise<string>(() => undefined));
    void stuck.catch(() => undefined);
    const late = await flights.run("k", () => Promise.resolve("own"));
    expect(late).toEqual({ value: "own", leader: true });
  });

  it("awaitFlight gives the flight's value, or gives up after the wait", async () => {
    expect(await awaitFlight(Promise.resolve(7), 50)).toEqual({ ended: true, value: 7 });
    expect(await awaitFlight(new Promise<number>(() => undefined), 10)).toEqual({ ended: false });
  });
});
