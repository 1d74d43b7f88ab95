import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { estimateSeedBytes, estimateSeedSeconds, folderBytes, medianBySize } from "../src/dataset";
import { formatCount, formatMs, formatTable } from "../src/format";
import type { Measurement } from "../src/measurement";
import { ratioSpread } from "../src/paired";
import { countLines, pairTable, scaleTable, scenarioTable, statusSummary, targetLines } from "../src/report";

const row: Measurement = {
  id: "edge-view-hit",
  title: "edge view, cache hit",
  target: "GET /x",
  connections: 50,
  requests: 12_345,
  errors: 0,
  statuses: { "200": 12_345 },
  requestsPerSecond: 2469.04,
  p50Ms: 19.51,
  p99Ms: 142.2,
  loadSeconds: 5,
  cpuMsPerRequest: 0.1234,
  counts: { cache_hits: 12_344, upstream_calls: 1 },
  notes: [],
};

describe("number formats", () => {
  it("writes counts with separators and milliseconds with about three significant digits", () => {
    expect(formatCount(1234567.4)).toBe("1,234,567");
    expect(formatMs(0.1234)).toBe("0.12");
    expect(formatMs(9.999)).toBe("10.00");
    expect(formatMs(12.34)).toBe("12.3");
    expect(formatMs(1234.5)).toBe("1,235");
    expect(formatMs(Number.NaN)).toBe("-");
  });
});

describe("formatTable", () => {
  it("pads each column to its widest cell, aligned as asked, with a rule under the header", () => {
    const text = formatTable(
      ["name", "n"],
      [
        ["a", "1"],
        ["long name", "12345"],
      ],
      ["left", "right"],
    );
    expect(text.split("\n")).toEqual([
      "name           n",
      "---------  -----",
      "a              1",
      "long name  12345",
    ]);
  });

  it("trims trailing spaces and tolerates short rows", () => {
    const text = formatTable(["a", "b", "c"], [["x"]], ["left", "left", "left"]);
    expect(text.split("\n")[2]).toBe("x");
  });
});

describe("the run's report", () => {
  it("shows one row per scenario, a skipped one with its reason, failures with their statuses", () => {
    const failing: Measurement = {
      ...row,
      id: "zipf",
      cpuMsPerRequest: null,
      errors: 3,
      statuses: { "200": 10, "429": 2, "502": 1 },
    };
    const lines = scenarioTable([
      row,
      { id: "bare-d1", title: "", reason: "GET /d1 answered 500" },
      failing,
    ]).split("\n");
    expect(lines[0]).toMatch(
      /^scenario\s+conn\s+requests\s+req\/s\s+p50 ms\s+p99 ms\s+cpu ms\/req\s+errors$/,
    );
    expect(lines[2]).toMatch(/^edge-view-hit\s+50\s+12,345\s+2,469\s+19\.5\s+142\s+0\.123\s+0$/);
    expect(lines[3]).toMatch(/^bare-d1\s+skipped: GET \/d1 answered 500$/);
    expect(lines[4]).toMatch(/\s+n\/a\s+3 \(429 x2, 502 x1\)$/);
    expect(statusSummary({ "200": 5 })).toBe("");
  });

  it("lists the counts scenarios kept", () => {
    expect(countLines([row, { ...row, id: "bare", counts: {} }])).toEqual([
      "edge-view-hit: cache_hits=12,344, upstream_calls=1",
    ]);
  });

  it("lines targets up under each other", () => {
    const lines = targetLines([
      { id: "a", requirement: "short", status: "PASS", measured: "1" },
      { id: "b", requirement: "a longer one", status: "N/A", measured: "why" },
    ]);
    expect(lines).toEqual(["PASS  short         1", "N/A   a longer one  why"]);
  });

  it("shows scaling sizes, and a size that was not measured with the reason", () => {
    const lines = scaleTable([
      {
        kind: "hosts",
        size: 10_000,
        prepareSeconds: 31,
        measurements: [
          { ...row, id: "origin-search", connections: 1 },
          { ...row, id: "origin-aggregate", connections: 1, notes: ["first request 25.1 ms"] },
        ],
      },
      { kind: "hosts", size: 1_000_000, prepareSeconds: 0, measurements: [], skipped: "too slow" },
      { kind: "cached", size: 10_000, prepareSeconds: 0, measurements: [{ ...row, connections: 1 }] },
    ]).split("\n");
    expect(lines[2]).toMatch(/^origin-search\s+10,000 hosts\s+1\s+12,345\s+19\.5\s+142\s+31$/);
    expect(lines[3]).toMatch(
      /^origin-aggregate\s+10,000 hosts\s+1\s+12,345\s+19\.5\s+142\s+31\s+first request 25\.1 ms$/,
    );
    expect(lines[4]).toMatch(/1,000,000 hosts\s+-\s+not measured \(below\)$/);
    expect(lines[5]).toMatch(/^edge-view-hit\s+10,000 cached docs\s+1/);
    expect(lines[6]).toBe("1,000,000 hosts: too slow");
  });
});

describe("dataset helpers", () => {
  it("picks the median document by size (the lower of the middle two)", () => {
    const rows = [5, 1, 9, 3].map((bytes) => ({ bytes }));
    expect(medianBySize(rows)?.bytes).toBe(3);
    expect(medianBySize([{ bytes: 7 }])?.bytes).toBe(7);
    expect(medianBySize([])).toBeUndefined();
  });

  it("estimates a seed from the largest one timed, linearly", () => {
    const timings = [
      { hosts: 10_000, certs: 2000, seed: "s", seconds: 40, finishedAt: "" },
      { hosts: 100_000, certs: 2000, seed: "s", seconds: 220, finishedAt: "" },
    ];
    expect(estimateSeedSeconds(1_000_000, timings)).toBe(2200);
    expect(estimateSeedSeconds(1_000_000, [])).toBeNull();
  });

  it("estimates a seed's disk from the largest seed whose size was recorded, linearly", () => {
    const timings = [
      { hosts: 10_000, certs: 2000, seed: "s", seconds: 40, finishedAt: "", bytes: 200 },
      { hosts: 100_000, certs: 2000, seed: "s", seconds: 220, finishedAt: "", bytes: 2000 },
      { hosts: 500_000, certs: 2000, seed: "s", seconds: 1000, finishedAt: "" },
    ];
    expect(estimateSeedBytes(1_000_000, timings)).toBe(20_000);
    expect(estimateSeedBytes(1_000_000, timings.slice(2))).toBeNull();
  });

  it("adds up every file under a folder, however deep", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-bytes-"));
    try {
      mkdirSync(path.join(dir, "v3", "d1"), { recursive: true });
      writeFileSync(path.join(dir, "seed-timing.json"), "x".repeat(10));
      writeFileSync(path.join(dir, "v3", "d1", "a.sqlite"), "y".repeat(4096));
      expect(folderBytes(dir)).toBe(4106);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("counts the breakdown step into a seed's estimate when it was timed", () => {
    const timings = [
      { hosts: 100_000, certs: 2000, seed: "s", seconds: 220, breakdownSeconds: 30, finishedAt: "" },
    ];
    expect(estimateSeedSeconds(1_000_000, timings)).toBe(2500);
  });
});

describe("pairTable", () => {
  it("shows each paired scenario's reference slices, slice lengths and pair ratios as median and spread", () => {
    const ratios = [0.9, 0.8, 1, Number.NaN];
    const paired: Measurement = {
      ...row,
      pairs: {
        reference: "edge-view-hit:bare",
        ratios,
        sliceSeconds: [1, 1, 2, 2],
        spread: ratioSpread(ratios),
      },
    };
    const unanswered: Measurement = {
      ...row,
      id: "edge-view-miss",
      pairs: {
        reference: "edge-view-miss:origin-view",
        ratios: [Number.NaN],
        sliceSeconds: [1],
        spread: null,
      },
    };
    expect(pairTable([row, paired, unanswered]).split("\n")).toEqual([
      "scenario        reference slices            slice s  pairs  median   min   p25   p75   max",
      "--------------  --------------------------  -------  -----  ------  ----  ----  ----  ----",
      "edge-view-hit   edge-view-hit:bare              1-2      3    0.90  0.80  0.85  0.95  1.00",
      "edge-view-miss  edge-view-miss:origin-view        1      0       -     -     -     -     -",
    ]);
  });

  it("is empty when no scenario ran in pairs", () => {
    expect(pairTable([row])).toBe("");
  });
});
