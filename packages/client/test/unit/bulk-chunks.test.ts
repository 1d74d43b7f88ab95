import { describe, expect, it } from "vitest";
import { mapWithConcurrency } from "../../src/bounded-concurrency";
import { chunk, mergeBulkResponses, uniqueInOrder } from "../../src/bulk-chunks";

describe("chunk", () => {
  it("cuts 120 items into 50, 50 and 20 in order", () => {
    const items = Array.from({ length: 120 }, (_, i) => i);
    const chunks = chunk(items, 50);
    expect(chunks.map((c) => c.length)).toEqual([50, 50, 20]);
    expect(chunks.flat()).toEqual(items);
  });
  it("gives no chunk for no items and refuses a size below 1", () => {
    expect(chunk([], 50)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe("uniqueInOrder", () => {
  it("drops repeats and keeps first-seen order", () => {
    expect(uniqueInOrder(["b", "a", "b", "c", "a"])).toEqual(["b", "a", "c"]);
  });
});

describe("mergeBulkResponses", () => {
  it("keeps every key of every part", () => {
    const unknown = { status: "error", error_type: "unknown", error: "not found" } as const;
    const merged = mergeBulkResponses([{ a: unknown }, { b: unknown, c: unknown }, {}]);
    expect(Object.keys(merged).sort()).toEqual(["a", "b", "c"]);
  });
});

describe("mapWithConcurrency", () => {
  it("never runs more than the limit at once and keeps input order", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });

  it("rejects with the first failure, aborts the tasks in flight and starts no more", async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const failure = new Error("chunk 1 failed");
    const run = mapWithConcurrency([0, 1, 2, 3], 2, (n, _i, signal) => {
      started.push(n);
      if (n === 1) return Promise.reject(failure);
      return new Promise<number>((_resolve, reject) => {
        signal.addEventListener("abort", () => {
          aborted.push(n);
          reject(signal.reason as Error);
        });
      });
    });
    await expect(run).rejects.toBe(failure);
    expect(started).toEqual([0, 1]);
    expect(aborted).toEqual([0]);
  });

  it("rejects with the caller's abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user cancelled");
    const run = mapWithConcurrency(
      [1, 2],
      1,
      (_n, _i, signal) =>
        new Promise<number>((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason as Error)),
        ),
      controller.signal,
    );
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
  });
});
