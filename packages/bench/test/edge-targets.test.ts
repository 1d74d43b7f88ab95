import { describe, expect, it } from "vitest";
import { edgeTargets } from "../src/edge-targets";
import type { TargetInputs, TargetResult } from "../src/judging";
import type { Measurement } from "../src/measurement";
import { ratioSpread } from "../src/paired";

function row(id: string, figures: Partial<Measurement> = {}): Measurement {
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

function judged(rows: Measurement[], id: string): TargetResult {
  const inputs: TargetInputs = { scenarios: new Map(rows.map((r) => [r.id, r])), datasetHosts: 5000 };
  const found = edgeTargets(inputs).find((r) => r.id === id);
  if (!found) throw new Error(`no target ${id}`);
  return found;
}

describe("the ratio targets", () => {
  const hit = (ratios: number[], own: Partial<Measurement>, reference: Partial<Measurement>) => [
    row("edge-view-hit", {
      ...own,
      pairs: {
        reference: "edge-view-hit:bare",
        ratios,
        sliceSeconds: ratios.map(() => 1),
        spread: ratioSpread(ratios),
      },
    }),
    row("edge-view-hit:bare", reference),
  ];

  it("judge the median pair ratio, not the ratio of the totals a burst of other work skewed", () => {
    // Four pairs at 0.85, one whose bare slice ran while the machine was idle (so many more requests).
    const rows = hit([0.85, 0.85, 0.3, 0.85, 0.86], { requestsPerSecond: 700 }, { requestsPerSecond: 1000 });
    const result = judged(rows, "edge-hit-vs-bare");
    expect(result.status).toBe("PASS");
    expect(result.pairs).toEqual({ count: 5, median: 0.85, min: 0.3, p25: 0.85, p75: 0.85, max: 0.86 });
    expect(result.measured).toContain("over all slices 700 / 1,000 req/s");
    expect(judged(hit([0.79, 0.9, 0.5], {}, {}), "edge-hit-vs-bare").status).toBe("MISS");
  });

  it("say N/A when the scenario was not paired, no pair had both sides answered, or the reference's slices failed", () => {
    expect(judged([row("edge-view-hit")], "edge-hit-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-view-hit was not measured in paired slices",
    });
    expect(judged(hit([Number.NaN], {}, {}), "edge-hit-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-view-hit: no pair had both sides answered",
    });
    expect(judged(hit([1], {}, { errors: 2 }), "edge-hit-vs-bare").measured).toBe(
      "edge-view-hit:bare had 2 failed requests of 1,000",
    );
    expect(judged([], "v3-bulk-vs-bare")).toMatchObject({
      status: "N/A",
      measured: "edge-v3-bulk-hit did not run",
    });
  });
});

/** edge-request-counts with these counts (see src/request-counts.ts for their names). */
function counted(counts: Record<string, number>, figures: Partial<Measurement> = {}): Measurement[] {
  return [row("edge-request-counts", { connections: 1, requests: 30, counts, ...figures })];
}

/** Every kind's ledger calls as `calls` gives them (p50, least and most alike). */
function ledger(calls: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(calls).flatMap(([kind, n]) =>
      ["P50", "Min", "Max"].map((q) => [`${kind}LedgerCalls${q}`, n] as const),
    ),
  );
}

const LEDGER_AS_DESIGNED = {
  memoryHit: 0,
  d1Hit: 0,
  v3MemoryHit: 0,
  v3D1Hit: 0,
  v3BulkHit: 0,
  chargedMiss: 1,
  v3ChargedMiss: 1,
  v3BulkMisses: 2,
};

describe("the ledger calls target", () => {
  it("is N/A, saying so, when the edge sends no X-Ledger-Calls (today's edge)", () => {
    const rows = counted({ chargedMissRequests: 3, chargedMissStatementsP50: 2, memoryHitRequests: 3 });
    expect(judged(rows, "ledger-calls")).toMatchObject({
      status: "N/A",
      measured: "the edge did not report X-Ledger-Calls",
    });
  });

  it("passes when free hits call no ledger, charged requests one, and held then settled ones two", () => {
    const result = judged(counted(ledger(LEDGER_AS_DESIGNED)), "ledger-calls");
    expect(result.status).toBe("PASS");
    expect(result.measured).toBe(
      "view memory hit 0, view D1 hit 0, /v3 memory hit 0, /v3 D1 hit 0, /v3 bulk hit 0, view miss 1, /v3 miss 1, /v3 bulk with misses 2",
    );
  });

  it("misses when any request of a kind made another number of calls, and shows the range", () => {
    const hitCalls = judged(
      counted({ ...ledger(LEDGER_AS_DESIGNED), memoryHitLedgerCallsMax: 1 }),
      "ledger-calls",
    );
    expect(hitCalls.status).toBe("MISS");
    expect(hitCalls.measured).toContain("view memory hit 0-1 (not 0)");
    const bulkOnce = judged(counted(ledger({ ...LEDGER_AS_DESIGNED, v3BulkMisses: 1 })), "ledger-calls");
    expect(bulkOnce.status).toBe("MISS");
    expect(bulkOnce.measured).toContain("/v3 bulk with misses 1 (not 2)");
  });

  it("is N/A, naming them, when the kinds that did report are right but some did not report", () => {
    const { v3BulkMisses: _bulk, v3ChargedMiss: _miss, ...legacyOnly } = LEDGER_AS_DESIGNED;
    const result = judged(counted(ledger(legacyOnly)), "ledger-calls");
    expect(result.status).toBe("N/A");
    expect(result.measured).toContain(
      "; the edge did not report X-Ledger-Calls on /v3 miss, /v3 bulk with misses",
    );
    // A kind that reported wrong is a miss whatever else did not report.
    expect(judged(counted(ledger({ chargedMiss: 2 })), "ledger-calls").status).toBe("MISS");
  });

  it("is N/A when a counted request was not answered as its kind", () => {
    const result = judged(counted(ledger(LEDGER_AS_DESIGNED), { errors: 1 }), "ledger-calls");
    expect(result).toMatchObject({
      status: "N/A",
      measured: "edge-request-counts had 1 failed requests of 30",
    });
  });
});

describe("the no-charge-in-D1 target", () => {
  const statements = (charged: number, free: number, v3?: [number, number]) => ({
    chargedMissStatementsP50: charged,
    freeMissStatementsP50: free,
    ...(v3 ? { v3ChargedMissStatementsP50: v3[0], v3FreeMissStatementsP50: v3[1] } : {}),
  });

  it("passes when a charged miss runs the statements of a free one", () => {
    expect(judged(counted(statements(2, 2)), "d1-no-charge")).toMatchObject({
      status: "PASS",
      measured:
        "view: charged miss 2, free miss 2; /v3 certificate: the edge did not report X-D1-Statements (p50 of the counted requests)",
    });
    expect(judged(counted(statements(2, 2, [1, 1])), "d1-no-charge").status).toBe("PASS");
  });

  it("misses when the charge (or its refund) is a D1 statement of its own, as in today's edge", () => {
    expect(judged(counted(statements(2, 3)), "d1-no-charge").status).toBe("MISS");
    expect(judged(counted(statements(2, 2, [2, 1])), "d1-no-charge").status).toBe("MISS");
  });

  it("is N/A when the edge counted no statements", () => {
    expect(judged(counted({ chargedMissRequests: 3 }), "d1-no-charge")).toMatchObject({
      status: "N/A",
      measured: "edge-request-counts counted no D1 statements (the edge's D1_STATEMENTS_HEADER is off)",
    });
  });
});
