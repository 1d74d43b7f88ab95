import { describe, expect, it } from "vitest";
import { BoundedMemo } from "../src/http/bounded-memo";

describe("BoundedMemo", () => {
  it("gives back what it kept for a key, and nothing for a key it never saw", () => {
    const memo = new BoundedMemo<number>(4);
    expect(memo.remember("a", 1)).toBe(1);
    expect(memo.get("a")).toBe(1);
    expect(memo.get("b")).toBeUndefined();
  });

  it("forgets every key at once when a new one would pass its bound", () => {
    const memo = new BoundedMemo<number>(3);
    for (const [i, key] of ["a", "b", "c"].entries()) memo.remember(key, i);
    expect(["a", "b", "c"].map((k) => memo.get(k))).toEqual([0, 1, 2]);
    memo.remember("d", 3);
    expect(["a", "b", "c", "d"].map((k) => memo.get(k))).toEqual([undefined, undefined, undefined, 3]);
  });

  it("never keeps a key longer than its bound, though it gives the value back", () => {
    const memo = new BoundedMemo<string>(4, 5);
    expect(memo.remember("123456", "long")).toBe("long");
    expect(memo.get("123456")).toBeUndefined();
    memo.remember("12345", "fits");
    expect(memo.get("12345")).toBe("fits");
  });
});
