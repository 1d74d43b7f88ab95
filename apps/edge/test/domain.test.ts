import { describe, expect, it } from "vitest";
import {
  mergeBulk,
  splitBulkAnswer,
  uniqueFingerprints,
  UNKNOWN_CERTIFICATE_ENTRY,
} from "../src/cache/bulk-merge";
import { cacheStatus, wantsRevalidation } from "../src/cache/cache-status";
import { freshness } from "../src/cache/freshness";
import { awaitFlight, SingleFlight } from "../src/cache/single-flight";
import { quotaHeaders } from "../src/quota/headers";
import { accountTimestamp } from "@scangate/core/http";
import { effectiveQuota, nextReset, periodSeconds } from "../src/tenants/periods";
import { CredentialPool } from "../src/upstream/credential-pool";
import { rebaseUpstreamLinks } from "../src/upstream/rebase";
import { ManualClock } from "./support/clock";

describe("quota periods", () => {
  const at = Date.UTC(2024, 1, 29, 13, 45, 10); // a leap day
  it("resets daily at the next UTC midnight and monthly on the first of the next month", () => {
    expect(new Date(nextReset("daily", at) ?? 0).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(new Date(nextReset("monthly", at) ?? 0).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(new Date(nextReset("monthly", Date.UTC(2024, 11, 31, 23, 59)) ?? 0).toISOString()).toBe(
      "2025-01-01T00:00:00.000Z",
    );
    expect(nextReset("never", at)).toBeNull();
  });

  it("knows the length of the period that ends at a reset", () => {
    expect(periodSeconds("monthly", Date.UTC(2024, 2, 1))).toBe(29 * 86_400);
    expect(periodSeconds("monthly", Date.UTC(2024, 0, 1))).toBe(31 * 86_400);
    expect(periodSeconds("daily", Date.UTC(2024, 2, 1))).toBe(86_400);
    expect(periodSeconds("never", null)).toBeNull();
  });

  it("counts a passed period as reset", () => {
    const row = { used: 9, allowance: 10, resetsAt: at, period: "daily" as const };
    expect(effectiveQuota(row, at - 1)).toEqual({ used: 9, allowance: 10, resetsAt: at });
    expect(effectiveQuota(row, at)).toEqual({ used: 0, allowance: 10, resetsAt: Date.UTC(2024, 2, 1) });
  });

  it("formats account times as YYYY-MM-DD hh:mm:ss in UTC", () => {
    expect(accountTimestamp(at)).toBe("2024-02-29 13:45:10");
  });

  it("writes the IETF RateLimit fields", () => {
    const quota = { used: 3, allowance: 10, resetsAt: at + 60_500 };
    expect(quotaHeaders(quota, "daily", at)).toEqual({
      "RateLimit-Policy": '"quota";q=10;w=86400',
      RateLimit: '"quota";r=7;t=61',
    });
    expect(quotaHeaders({ used: 12, allowance: 10, resetsAt: null }, "never", at)).toEqual({
      "RateLimit-Policy": '"quota";q=10',
      RateLimit: '"quota";r=0',
    });
  });
});

describe("cache freshness and Cache-Status", () => {
  const policy = { staleWhileRevalidateMs: 100, staleIfErrorMs: 1000 };
  const doc = { body: "{}", negative: false, fetchedAt: 0, expiresAt: 50 };
  it("moves a row from fresh to revalidate to if_error to expired", () => {
    expect(freshness(doc, 49, policy)).toBe("fresh");
    expect(freshness(doc, 50, policy)).toBe("revalidate");
    expect(freshness(doc, 150, policy)).toBe("if_error");
    expect(freshness(doc, 1050, policy)).toBe("expired");
    expect(freshness({ ...doc, expiresAt: null }, 1e15, policy)).toBe("fresh");
  });

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

describe("bulk merge", () => {
  it("keeps every requested spelling once, in order, and fills missing entries as unknown", () => {
    const entries = new Map([["aa", '{"n":1}']]);
    expect(mergeBulk(["AA", "bb", "AA", "aa"], entries)).toBe(
      `{"AA":{"n":1},"bb":${JSON.stringify(UNKNOWN_CERTIFICATE_ENTRY)},"aa":{"n":1}}`,
    );
    expect(uniqueFingerprints(["AA", "aa", "Bb"])).toEqual(["aa", "bb"]);
  });

  it("splits an upstream answer into known, unknown and absent entries", () => {
    const split = splitBulkAnswer(["a", "b", "c"], {
      a: { parsed: {} },
      b: { error: "x", error_type: "unknown", status: "error" },
    });
    expect(split.get("a")).toEqual({ text: '{"parsed":{}}', unknown: false, present: true });
    expect(split.get("b")?.unknown).toBe(true);
    expect(split.get("c")).toMatchObject({ unknown: true, present: false });
  });
});

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

describe("upstream link rebasing", () => {
  it("re-roots links to the upstream API at the edge and leaves other links alone", () => {
    const json = {
      a: "https://up.example/api/v1/data/x",
      b: ["https://storage.example/f?sig=1", "https://up.example/apix"],
      c: 3,
    };
    expect(rebaseUpstreamLinks(json, "https://up.example/api/", "https://edge.example/api")).toEqual({
      a: "https://edge.example/api/v1/data/x",
      b: ["https://storage.example/f?sig=1", "https://up.example/apix"],
      c: 3,
    });
  });
});
