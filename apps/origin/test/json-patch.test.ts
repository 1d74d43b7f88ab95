import { describe, expect, it } from "vitest";
import { diffJson } from "@scangate/core";

describe("diffJson", () => {
  it("is empty for equal documents", () => {
    expect(diffJson({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it("adds, removes and replaces keys, in sorted key order", () => {
    expect(diffJson({ b: 1, a: 1, gone: true }, { a: 2, b: 1, new: "x" })).toEqual([
      { op: "replace", path: "/a", value: 2 },
      { op: "remove", path: "/gone" },
      { op: "add", path: "/new", value: "x" },
    ]);
  });

  it("removes a shorter array's tail from the end backwards and appends a longer one's", () => {
    expect(diffJson([1, 2, 3, 4], [1, 9])).toEqual([
      { op: "replace", path: "/1", value: 9 },
      { op: "remove", path: "/3" },
      { op: "remove", path: "/2" },
    ]);
    expect(diffJson({ s: [1] }, { s: [1, 2, 3] })).toEqual([
      { op: "add", path: "/s/1", value: 2 },
      { op: "add", path: "/s/2", value: 3 },
    ]);
  });

  it("escapes ~ and / in keys (RFC 6901)", () => {
    expect(diffJson({ "a/b~c": 1 }, { "a/b~c": 2 })).toEqual([{ op: "replace", path: "/a~1b~0c", value: 2 }]);
  });

  it("replaces a value whose type changed, the whole document at the root", () => {
    expect(diffJson({ a: { b: 1 } }, { a: [1] })).toEqual([{ op: "replace", path: "/a", value: [1] }]);
    expect(diffJson(1, "1")).toEqual([{ op: "replace", path: "", value: "1" }]);
  });
});
