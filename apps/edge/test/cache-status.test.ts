import { describe, expect, it } from "vitest";
import { cacheStatus, wantsRevalidation } from "../src/cache/cache-status";

describe("Cache-Status", () => {
  it("renders RFC 9211 Cache-Status", () => {
    expect(cacheStatus({ hit: true, ttl: 12 })).toBe("scangate; hit; ttl=12");
    expect(cacheStatus({ hit: false, fwd: "partial", stored: true })).toBe("scangate; fwd=partial; stored");
    expect(
      cacheStatus({ hit: false, fwd: "stale", stored: false, fwdStatus: 503, detail: "stale-if-error" }),
    ).toBe("scangate; fwd=stale; fwd-status=503; detail=stale-if-error");
  });

  it("reads no-cache, no-store, max-age=0 and Pragma: no-cache as a request to revalidate", () => {
    const asks: Array<[string, string]> = [
      ["cache-control", "no-cache"],
      ["cache-control", "max-age=0"],
      ["cache-control", "private, no-store"],
      ["pragma", "no-cache"],
    ];
    for (const header of asks) expect(wantsRevalidation(new Headers([header]))).toBe(true);
    expect(wantsRevalidation(new Headers({ "cache-control": "max-age=60" }))).toBe(false);
  });
});
