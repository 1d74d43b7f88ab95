import { describe, expect, it } from "vitest";
import { emptySample, type LoadSample } from "../src/load";
import {
  compareProbes,
  endedAsExpected,
  endedWithinLimit,
  fetchError,
  jobSample,
  type JobRun,
} from "../src/sql-jobs";

const run = (end: JobRun["end"], elapsedMs: number): JobRun => ({ query: "q", end, elapsedMs, polls: 1 });

function sample(latenciesMs: number[], failed = 0): LoadSample {
  return { ...emptySample(), requests: latenciesMs.length, non2xx: failed, latenciesMs };
}

describe("endedWithinLimit", () => {
  it("takes success or error before the limit plus 5 s", () => {
    expect(endedWithinLimit(run("error", 34_999))).toBe(true);
    expect(endedWithinLimit(run("success", 100))).toBe(true);
    expect(endedWithinLimit(run("error", 35_000))).toBe(false);
    expect(endedWithinLimit(run("unfinished", 100))).toBe(false);
    expect(endedWithinLimit(run("refused", 100))).toBe(false);
    expect(endedWithinLimit(run("error", 1500), 1000, 500)).toBe(false);
  });
});

describe("endedAsExpected", () => {
  it("takes a query that must run as endedWithinLimit does, and one that must be refused only as a 400", () => {
    expect(endedAsExpected(run("error", 34_999), "runs")).toBe(true);
    expect(endedAsExpected(run("refused", 10), "runs")).toBe(false);
    expect(endedAsExpected({ ...run("refused", 10), startStatus: 400 }, "refused")).toBe(true);
    expect(endedAsExpected({ ...run("refused", 10), startStatus: 503 }, "refused")).toBe(false);
    expect(endedAsExpected(run("success", 10), "refused")).toBe(false);
  });
});

describe("jobSample", () => {
  it("is one request per job, its wall time the latency, failures counted outside 2xx", () => {
    const s = jobSample(
      [run("success", 100), run("error", 200), run("success", 300)],
      (r) => r.end !== "success",
    );
    expect(s).toMatchObject({
      requests: 3,
      non2xx: 1,
      latenciesMs: [100, 200, 300],
      elapsedMs: 600,
      statuses: { "200 success": 2, error: 1 },
    });
  });
});

describe("compareProbes", () => {
  it("compares nearest-rank p50s and counts failed probes of both phases", () => {
    const c = compareProbes(sample([3, 1, 2]), sample([4, 8, 6, 5], 1));
    expect(c).toEqual({
      idleP50Ms: 2,
      loadedP50Ms: 5,
      ratio: 2.5,
      failed: 1,
      idleProbes: 3,
      loadedProbes: 4,
    });
  });

  it("has no ratio without idle answers", () => {
    expect(compareProbes(sample([]), sample([4])).ratio).toBeNaN();
  });
});

describe("fetchError", () => {
  it("names the socket error undici keeps in the cause", () => {
    const error = new TypeError("fetch failed", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    expect(fetchError(error)).toBe("fetch failed (UND_ERR_SOCKET)");
    expect(fetchError(new Error("plain"))).toBe("plain");
  });
});
