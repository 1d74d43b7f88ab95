import { describe, expect, it } from "vitest";
import { emptySample } from "../src/load";
import { measure, type Measurement } from "../src/measurement";
import { ratioSpread } from "../src/paired";
import { evaluateTargets, probeRatio, type TargetInputs, type TargetResult } from "../src/targets";

function m(id: string, figures: Partial<Measurement> = {}): Measurement {
  return {
    id,
    title: id,
    target: "",
    connections: 50,
    requests: 1000,
    errors: 0,
    statuses: { "200": 1000 },
    requestsPerSecond: 1000,
    p50Ms: 10,
    p99Ms: 20,
    loadSeconds: 1,
    cpuMsPerRequest: null,
    counts: {},
    notes: [],
    ...figures,
  };
}

/**
 * A scenario measured in paired slices against `reference`: its row, with the pair ratios, and the
 * row of the reference's slices (`<id>:<reference>`).
 */
function paired(
  id: string,
  reference: string,
  ratios: number[],
  own: Partial<Measurement> = {},
  ref: Partial<Measurement> = {},
): Measurement[] {
  const referenceId = `${id}:${reference}`;
  return [
    m(id, {
      ...own,
      pairs: {
        reference: referenceId,
        ratios,
        sliceSeconds: ratios.map(() => 1),
        spread: ratioSpread(ratios),
      },
    }),
    m(referenceId, ref),
  ];
}

function inputs(
  list: Measurement[],
  datasetHosts = 100_000,
  scaled: TargetInputs["scaled"] = [],
): TargetInputs {
  return { scenarios: new Map(list.map((x) => [x.id, x])), datasetHosts, scaled };
}

function target(results: TargetResult[], id: string): TargetResult {
  const found = results.find((r) => r.id === id);
  if (!found) throw new Error(`no target ${id}`);
  return found;
}

/** Rounds of edge-miss-collapsed: one upstream call in each, timed and counted. */
const COLLAPSED_COUNTS = {
  rounds: 37,
  countedRounds: 3,
  upstreamCalls: 40,
  roundsWithOtherThanOneCall: 0,
  originViewP50Ms: 2.5,
  cachedRoundP50Ms: 5.25,
};

/** The most D1 statements any counted request of edge-miss-collapsed ran, at the goal's bounds. */
const STATEMENT_COUNTS = {
  memoryHitStatementsMax: 0,
  d1HitStatementsMax: 1,
  leaderStatementsMax: 2,
  joinerStatementsMax: 0,
};

/** Counts of edge-request-counts as an edge that charges outside D1 and counts ledger calls gives them. */
function requestCounts(overrides: Record<string, number> = {}): Measurement {
  const kinds: Record<string, { statements?: number; ledgerCalls: number }> = {
    memoryHit: { statements: 0, ledgerCalls: 0 },
    d1Hit: { statements: 1, ledgerCalls: 0 },
    chargedMiss: { statements: 2, ledgerCalls: 1 },
    freeMiss: { statements: 2, ledgerCalls: 2 },
    v3MemoryHit: { ledgerCalls: 0 },
    v3D1Hit: { ledgerCalls: 0 },
    v3ChargedMiss: { ledgerCalls: 1 },
    v3FreeMiss: { ledgerCalls: 2 },
    v3BulkHit: { ledgerCalls: 0 },
    v3BulkMisses: { ledgerCalls: 2 },
  };
  const counts: Record<string, number> = {};
  for (const [kind, figures] of Object.entries(kinds)) {
    counts[`${kind}Requests`] = 3;
    for (const [name, value] of [
      ["Statements", figures.statements],
      ["LedgerCalls", figures.ledgerCalls],
    ] as const)
      if (value !== undefined) for (const q of ["P50", "Min", "Max"]) counts[`${kind}${name}${q}`] = value;
  }
  return m("edge-request-counts", { connections: 1, requests: 30, counts: { ...counts, ...overrides } });
}

const passing = [
  m("bare", { requestsPerSecond: 10_000 }),
  m("bare-d1", { requestsPerSecond: 2000, p50Ms: 10 }),
  m("bare-bulk", { requestsPerSecond: 1000, p50Ms: 50 }),
  m("bare-d1-bulk", { requestsPerSecond: 700, p50Ms: 35 }),
  m("origin-view", { requestsPerSecond: 500 }),
  ...paired(
    "edge-view-hit",
    "bare",
    [0.86, 0.82, 0.85, 0.9, 0.84],
    { requestsPerSecond: 8500, p50Ms: 4 },
    { requestsPerSecond: 10_000 },
  ),
  ...paired(
    "edge-view-miss",
    "origin-view",
    [0.6, 0.61, 0.62, 0.65, 0.7],
    { requestsPerSecond: 310 },
    { requestsPerSecond: 500 },
  ),
  ...paired(
    "edge-bulk-hit",
    "bare-bulk",
    [0.9, 0.94, 0.95, 0.96, 1],
    { requestsPerSecond: 950, p50Ms: 10 },
    { requestsPerSecond: 1000 },
  ),
  ...paired("edge-v3-asset-hit", "bare-v3-asset", [0.8, 0.9], { requestsPerSecond: 9000 }),
  ...paired("edge-v3-bulk-hit", "bare-v3-bulk", [0.92], { requestsPerSecond: 920 }),
  m("edge-bulk-varied", { requestsPerSecond: 600, p50Ms: 20 }),
  m("edge-miss-collapsed", {
    p50Ms: 9,
    counts: { ...COLLAPSED_COUNTS, ...STATEMENT_COUNTS },
  }),
  requestCounts(),
  m("zipf", {
    requests: 20_000,
    counts: {
      lookups: 20_000,
      distinct_keys: 1700,
      upstream_calls: 1700,
      origin_calls: 1700,
      edge_heap_total_peak_bytes: 120 * 1024 * 1024,
      edge_heap_after_gc_bytes: 12.5 * 1024 * 1024,
    },
  }),
  m("origin-search", { connections: 1, p50Ms: 12.5, p99Ms: 30 }),
  m("origin-aggregate", { connections: 1, p50Ms: 250, p99Ms: 400 }),
  m("sql-group-by-country", { connections: 1, requests: 7, p50Ms: 2400, p99Ms: 2900 }),
  m("sql-ip-lookup", { connections: 1, requests: 7, p50Ms: 600, p99Ms: 700 }),
  m("sql-contention", { connections: 1, requests: 4, p50Ms: 31_000, p99Ms: 33_000 }),
  m("sql-contention-search-idle", { connections: 1, p50Ms: 10 }),
  m("sql-contention-search-loaded", { connections: 1, p50Ms: 20 }),
  m("sql-contention-account-idle", { connections: 1, p50Ms: 2 }),
  m("sql-contention-account-loaded", { connections: 1, p50Ms: 3 }),
];

describe("evaluateTargets", () => {
  it("misses the memory target at 64 MB of heap, and says N/A when no heap was read", () => {
    const zipf = (counts: Record<string, number>) =>
      m("zipf", {
        requests: 100,
        counts: { lookups: 100, distinct_keys: 10, upstream_calls: 10, ...counts },
      });
    const at = (counts: Record<string, number>) =>
      target(evaluateTargets(inputs([zipf(counts)])), "edge-memory");
    expect(
      at({
        edge_heap_total_peak_bytes: 200 * 1024 * 1024,
        edge_heap_after_gc_bytes: 64 * 1024 * 1024,
      }).status,
    ).toBe("MISS");
    expect(
      at({
        edge_heap_total_peak_bytes: 200 * 1024 * 1024,
        edge_heap_after_gc_bytes: 64 * 1024 * 1024 - 1,
      }).status,
    ).toBe("PASS");
    expect(at({})).toMatchObject({ status: "N/A", measured: "zipf read no heap (no inspector)" });
  });

  it("passes every target with figures inside their bounds, and shows the figures", () => {
    const results = evaluateTargets(
      inputs(passing, 100_000, [
        {
          hosts: 1_000_000,
          search: m("origin-search", { p50Ms: 29, p99Ms: 40 }),
          aggregate: m("origin-aggregate", { p50Ms: 499, p99Ms: 600 }),
        },
      ]),
    );
    expect(results.map((r) => [r.id, r.status])).toEqual([
      ["edge-hit-vs-bare", "PASS"],
      ["edge-miss-vs-origin", "PASS"],
      ["bulk-vs-bare", "PASS"],
      ["v3-asset-hit-vs-bare", "PASS"],
      ["v3-bulk-vs-bare", "PASS"],
      ["edge-miss-collapsed", "PASS"],
      ["d1-statements", "PASS"],
      ["d1-no-charge", "PASS"],
      ["ledger-calls", "PASS"],
      ["zipf-upstream", "PASS"],
      ["edge-memory", "PASS"],
      ["origin-search-100k", "PASS"],
      ["origin-aggregate-100k", "PASS"],
      ["origin-search-1m", "PASS"],
      ["origin-aggregate-1m", "PASS"],
      ["sql-group-by-country-100k", "PASS"],
      ["sql-ip-lookup-100k", "PASS"],
      ["sql-contention-100k", "PASS"],
      ["sql-worst-jobs-end-100k", "PASS"],
    ]);
    expect(target(results, "edge-hit-vs-bare").measured).toBe(
      "median 0.85 (min 0.82, p25 0.84, p75 0.86, max 0.90; 5 pairs) of 1 s slices; over all slices 8,500 / 10,000 req/s; bare-d1 / bare is 0.20",
    );
    expect(target(results, "edge-hit-vs-bare").pairs).toMatchObject({ count: 5, median: 0.85 });
    expect(target(results, "edge-miss-vs-origin").measured).toBe(
      "median 0.62 (min 0.60, p25 0.61, p75 0.65, max 0.70; 5 pairs) of 1 s slices; over all slices 310 / 500 req/s",
    );
    expect(target(results, "bulk-vs-bare").measured).toBe(
      "median 0.95 (min 0.90, p25 0.94, p75 0.96, max 1.00; 5 pairs) of 1 s slices; over all slices 950 / 1,000 req/s; bare-d1-bulk / bare-bulk is 0.70; edge-bulk-varied / bare-bulk is 0.60",
    );
    expect(target(results, "zipf-upstream").measured).toBe(
      "1,700 upstream calls for 1,700 distinct keys (origin served 1,700)",
    );
    expect(target(results, "edge-miss-collapsed").measured).toBe(
      "6.50 = 9.00 - 2.50 ms; 40 upstream calls in 40 rounds; a round of 50 hits: p50 5.25 ms",
    );
    expect(target(results, "d1-statements").measured).toBe(
      "most in any counted request: memory hit 0, D1 hit 1, miss 2, joined miss 0",
    );
    expect(target(results, "edge-memory").measured).toBe(
      "12.5 MB held (after a collection, memory tier full); the heap reached 120.0 MB with uncollected garbage during the load",
    );
    expect(target(results, "origin-search-100k").measured).toBe("p50 12.5 ms, p99 30.0 ms (1 connection)");
    expect(target(results, "origin-search-1m").measured).toBe(
      "p50 29.0 ms, p99 40.0 ms; 2.32 x the 100,000-host p50 12.5 ms",
    );
    expect(target(results, "sql-group-by-country-100k").measured).toBe(
      "p50 2,400 ms, p99 2,900 ms (7 sequential jobs)",
    );
    expect(target(results, "sql-contention-100k").measured).toBe(
      "search 2.00 = 20.0 / 10.0 ms, 0 failed; account 1.50 = 3.00 / 2.00 ms, 0 failed",
    );
    expect(target(results, "sql-worst-jobs-end-100k").measured).toBe("4 of 4 did; longest 33,000 ms");
  });

  it("misses each target just past its bound", () => {
    const results = evaluateTargets(
      inputs(
        [
          ...paired("edge-view-hit", "bare", [0.79, 0.9, 0.7], { requestsPerSecond: 7900, p50Ms: 4 }),
          ...paired("edge-view-miss", "origin-view", [0.59]),
          ...paired("edge-bulk-hit", "bare-bulk", [0.88, 0.89], {}, { requestsPerSecond: 1000 }),
          ...paired("edge-v3-asset-hit", "bare-v3-asset", [0.79]),
          ...paired("edge-v3-bulk-hit", "bare-v3-bulk", [0.9, 0.89]),
          // Today's edge: a free miss's charge is refunded in D1, and a hit's quota headers read the ledger.
          requestCounts({ freeMissStatementsP50: 3, memoryHitLedgerCallsMax: 1 }),
          m("edge-miss-collapsed", {
            p50Ms: 12.6,
            counts: { ...COLLAPSED_COUNTS, ...STATEMENT_COUNTS, leaderStatementsMax: 3 },
          }),
          m("zipf", {
            requests: 20_000,
            counts: {
              lookups: 20_000,
              distinct_keys: 1700,
              upstream_calls: 1703,
              edge_heap_total_peak_bytes: 1,
              edge_heap_after_gc_bytes: 64 * 1024 * 1024,
            },
          }),
          m("origin-search", { p50Ms: 50 }),
          m("origin-aggregate", { p50Ms: 300 }),
          m("sql-group-by-country", { p50Ms: 3000 }),
          m("sql-ip-lookup", { p50Ms: 1000 }),
          m("sql-contention", { requests: 4, errors: 1 }),
          m("sql-contention-search-idle", { p50Ms: 10 }),
          m("sql-contention-search-loaded", { p50Ms: 20.1 }),
          m("sql-contention-account-idle", { p50Ms: 2 }),
          m("sql-contention-account-loaded", { p50Ms: 2 }),
        ],
        100_000,
        [
          {
            hosts: 1_000_000,
            search: m("origin-search", { p50Ms: 30 }),
            aggregate: m("origin-aggregate", { p50Ms: 500 }),
          },
        ],
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 19 }, () => "MISS"));
    expect(target(results, "bulk-vs-bare").measured).toBe(
      "median 0.89 (min 0.88, p25 0.88, p75 0.89, max 0.89; 2 pairs) of 1 s slices; over all slices 1,000 / 1,000 req/s",
    );
    expect(target(results, "zipf-upstream").measured).toBe("1,703 upstream calls for 1,700 distinct keys");
  });

  it("misses the D1 statement target when any kind of counted request ran more than its bound", () => {
    const judged = (counts: Record<string, number>) =>
      target(
        evaluateTargets(
          inputs([
            m("edge-miss-collapsed", { counts: { ...COLLAPSED_COUNTS, ...STATEMENT_COUNTS, ...counts } }),
          ]),
        ),
        "d1-statements",
      ).status;
    expect(judged({})).toBe("PASS");
    expect(judged({ memoryHitStatementsMax: 1 })).toBe("MISS");
    expect(judged({ d1HitStatementsMax: 2 })).toBe("MISS");
    // No statement for a hit said to be read from D1: memory still held it, so it was not measured.
    expect(judged({ d1HitStatementsMax: 0 })).toBe("MISS");
    expect(judged({ leaderStatementsMax: 3 })).toBe("MISS");
    expect(judged({ joinerStatementsMax: 1 })).toBe("MISS");
  });

  it("says N/A for the D1 statement target when the edge counted no statements", () => {
    const results = evaluateTargets(inputs([m("edge-miss-collapsed", { counts: COLLAPSED_COUNTS })]));
    expect(target(results, "d1-statements")).toMatchObject({
      status: "N/A",
      measured: "edge-miss-collapsed counted no D1 statements (the edge's D1_STATEMENTS_HEADER is off)",
    });
  });

  it("misses a 1M-host origin target that grew more than 3 x from 100k, however fast it is", () => {
    const results = evaluateTargets(
      inputs([m("origin-search", { p50Ms: 5 })], 100_000, [
        { hosts: 1_000_000, search: m("origin-search", { p50Ms: 16 }) },
      ]),
    );
    expect(target(results, "origin-search-1m")).toMatchObject({
      status: "MISS",
      measured: "p50 16.0 ms, p99 20.0 ms; 3.20 x the 100,000-host p50 5.00 ms",
    });
    expect(target(results, "origin-aggregate-1m")).toMatchObject({
      status: "N/A",
      measured: "no origin-aggregate measurement on 1,000,000 hosts (--scale with 1000000 in --scale-hosts)",
    });
  });

  it("says N/A, and why, when a scenario did not run or had failed requests", () => {
    const results = evaluateTargets(
      inputs([
        ...paired("edge-view-hit", "bare", [0.9], { errors: 12, requests: 900 }),
        ...paired("edge-v3-asset-hit", "bare-v3-asset", [0.9], {}, { errors: 3 }),
      ]),
    );
    expect(target(results, "edge-hit-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-view-hit had 12 failed requests of 900",
    });
    expect(target(results, "v3-asset-hit-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-v3-asset-hit:bare-v3-asset had 3 failed requests of 1,000",
    });
    expect(target(results, "bulk-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-bulk-hit did not run",
    });
    expect(target(results, "zipf-upstream")).toMatchObject({ status: "N/A", measured: "zipf did not run" });
    // On the target's own dataset size the only reason left is that the scenario did not run.
    expect(target(results, "origin-search-100k")).toMatchObject({
      status: "N/A",
      measured: "origin-search did not run",
    });
  });

  it("adds the ratio of workerd CPU time per request when both sides were measured", () => {
    const results = evaluateTargets(
      inputs([
        ...paired(
          "edge-view-miss",
          "origin-view",
          [0.5],
          { requestsPerSecond: 250, cpuMsPerRequest: 4 },
          { requestsPerSecond: 500, cpuMsPerRequest: 1.8 },
        ),
        ...paired("edge-view-hit", "bare", [0.6], { requestsPerSecond: 6000, cpuMsPerRequest: 0.13 }),
      ]),
    );
    expect(target(results, "edge-miss-vs-origin").measured).toBe(
      "median 0.50 (min 0.50, p25 0.50, p75 0.50, max 0.50; 1 pair) of 1 s slices; over all slices 250 / 500 req/s; by workerd CPU per request 0.45 = 1.800 / 4.000 ms",
    );
    // Judged on requests/s alone; the CPU figure is said only when both sides have one.
    expect(target(results, "edge-miss-vs-origin").status).toBe("MISS");
    expect(target(results, "edge-hit-vs-bare").measured).toBe(
      "median 0.60 (min 0.60, p25 0.60, p75 0.60, max 0.60; 1 pair) of 1 s slices; over all slices 6,000 / 1,000 req/s",
    );
  });

  it("does not judge a Zipf run that stopped before every lookup was answered", () => {
    const zipf = m("zipf", {
      requests: 15_000,
      counts: { lookups: 20_000, distinct_keys: 1700, upstream_calls: 1700 },
    });
    expect(target(evaluateTargets(inputs([zipf])), "zipf-upstream")).toMatchObject({
      status: "N/A",
      measured: "zipf answered 15,000 of 20,000 lookups",
    });
  });

  it("judges the origin latency targets only on 100,000 hosts, from this run or the scaling runs", () => {
    const small = evaluateTargets(inputs(passing, 5000));
    expect(target(small, "origin-search-100k").status).toBe("N/A");
    expect(target(small, "origin-search-100k").measured).toContain("this run's dataset has 5,000");

    const scaled = evaluateTargets(
      inputs(passing, 5000, [
        { hosts: 10_000, search: m("origin-search", { p50Ms: 1 }) },
        {
          hosts: 100_000,
          search: m("origin-search", { p50Ms: 70 }),
          aggregate: m("origin-aggregate", { p50Ms: 100 }),
        },
      ]),
    );
    expect(target(scaled, "origin-search-100k").status).toBe("MISS");
    expect(target(scaled, "origin-aggregate-100k").status).toBe("PASS");
  });
});

describe("the SQL job targets", () => {
  const contention = (figures: { searchErrors?: number; accountLoadedP50?: number } = {}) => [
    m("sql-contention", { requests: 4 }),
    m("sql-contention-search-idle", { p50Ms: 10 }),
    m("sql-contention-search-loaded", { p50Ms: 15, errors: figures.searchErrors ?? 0 }),
    m("sql-contention-account-idle", { p50Ms: 2 }),
    m("sql-contention-account-loaded", { p50Ms: figures.accountLoadedP50 ?? 2 }),
  ];

  it("misses the contention target on a failed probe even when the ratios are within bounds", () => {
    const result = target(evaluateTargets(inputs(contention({ searchErrors: 1 }))), "sql-contention-100k");
    expect(result.status).toBe("MISS");
    expect(result.measured).toContain("search 1.50 = 15.0 / 10.0 ms, 1 failed");
  });

  it("misses the contention target when one probe's loaded p50 is more than twice its idle p50", () => {
    const results = evaluateTargets(inputs(contention({ accountLoadedP50: 4.1 })));
    expect(target(results, "sql-contention-100k").status).toBe("MISS");
    expect(target(results, "sql-worst-jobs-end-100k").status).toBe("PASS");
  });

  it("says N/A on another dataset size, and when a latency query had a failed job", () => {
    const small = evaluateTargets(inputs([...contention(), m("sql-ip-lookup", { p50Ms: 5 })], 5000));
    for (const id of ["sql-group-by-country-100k", "sql-ip-lookup-100k", "sql-contention-100k"])
      expect(target(small, id)).toMatchObject({
        status: "N/A",
        measured: "this run's dataset has 5,000 hosts, the target is on 100,000 (--hosts 100000)",
      });
    const failedJob = evaluateTargets(inputs([m("sql-ip-lookup", { requests: 7, errors: 1 })]));
    expect(target(failedJob, "sql-ip-lookup-100k")).toMatchObject({
      status: "N/A",
      measured: "sql-ip-lookup had 1 failed requests of 7",
    });
    expect(target(failedJob, "sql-group-by-country-100k").measured).toBe("sql-group-by-country did not run");
  });
});

describe("probeRatio", () => {
  it("is loaded p50 over idle p50, with the failed probes of both phases", () => {
    expect(probeRatio({ p50Ms: 4, errors: 1 }, { p50Ms: 6, errors: 2 })).toEqual({ ratio: 1.5, failed: 3 });
  });

  it("is NaN without an idle p50 (so it never passes)", () => {
    expect(probeRatio({ p50Ms: Number.NaN, errors: 0 }, { p50Ms: 6, errors: 0 }).ratio).toBeNaN();
    expect(probeRatio({ p50Ms: 0, errors: 0 }, { p50Ms: 6, errors: 0 }).ratio).toBeNaN();
  });
});

describe("measure", () => {
  it("reduces a sample to requests/s over the load time and nearest-rank percentiles", () => {
    const sample = emptySample();
    sample.requests = 200;
    sample.non2xx = 2;
    sample.socketErrors = 1;
    sample.statuses = { "200": 198, "429": 2 };
    sample.latenciesMs = Array.from({ length: 200 }, (_, i) => 200 - i);
    sample.elapsedMs = 4000;
    sample.workerdCpuMs = 500;
    const result = measure({ id: "x", title: "x", target: "t", connections: 4, sample, counts: { a: 1 } });
    expect(result).toMatchObject({
      requests: 200,
      errors: 3,
      requestsPerSecond: 50,
      p50Ms: 100,
      p99Ms: 198,
      loadSeconds: 4,
      cpuMsPerRequest: 2.5,
      counts: { a: 1 },
    });
  });

  it("gives no percentiles for a load that got no answer", () => {
    const result = measure({ id: "x", title: "x", target: "t", connections: 1, sample: emptySample() });
    expect(result.requestsPerSecond).toBe(0);
    expect(result.p50Ms).toBeNaN();
    expect(result.cpuMsPerRequest).toBeNull();
  });
});
