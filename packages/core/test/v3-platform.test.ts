import { describe, expect, it } from "vitest";
import {
  loneSurrogatePath,
  renderV3Problem,
  v3ErrorMediaType,
  v3ListQuerySchema,
  v3NameKey,
  v3PageSizeQuerySchema,
  V3_DNS_NAME_RECORD_TYPES,
} from "../src";

describe("Platform text rules", () => {
  it("compares names after NFC normalisation, in any case", () => {
    expect(v3NameKey("Caf\u00e9")).toBe(v3NameKey("CAFE\u0301"));
    expect(v3NameKey("\u0130stanbul")).toBe(v3NameKey("i\u0307stanbul"));
    expect(v3NameKey("a")).not.toBe(v3NameKey("b"));
  });

  it("finds the first string or key holding a lone surrogate, by its path", () => {
    expect(loneSurrogatePath({ name: "ok \ud83d\ude00" })).toBeNull();
    expect(loneSurrogatePath({ name: "bad \ud800" })).toBe("body.name");
    expect(loneSurrogatePath({ list: ["a", { v: "\udc00" }] })).toBe("body.list[1].v");
    expect(loneSurrogatePath({ ["k\ud800"]: 1 })).toBe("body");
  });
});

describe("Platform query parameters", () => {
  it("reads comma-separated lists of known items, each once", () => {
    const types = v3ListQuerySchema(V3_DNS_NAME_RECORD_TYPES);
    expect(types.parse("A,AAAA,A")).toEqual(["A", "AAAA"]);
    expect(types.safeParse("A,CNAME").success).toBe(false);
  });

  it("takes page sizes of 1 to 100", () => {
    expect(v3PageSizeQuerySchema.parse("100")).toBe(100);
    for (const text of ["0", "101", "-1", "1.5", "x"])
      expect(v3PageSizeQuerySchema.safeParse(text).success).toBe(false);
  });
});

describe("Platform errors", () => {
  it("answers invalid input with the operation's status, and a 401 in the JSON the SDK reads", () => {
    expect(renderV3Problem("bad_request", "no", undefined, { invalidInputStatus: 422 })).toMatchObject({
      status: 422,
      body: { status: 422, title: "Unprocessable Entity", detail: "no" },
    });
    expect(renderV3Problem("not_found", undefined, undefined, { invalidInputStatus: 422 }).status).toBe(404);
    expect(v3ErrorMediaType(401)).toBe("application/json");
    expect(v3ErrorMediaType(404)).toBe("application/problem+json");
  });
});
