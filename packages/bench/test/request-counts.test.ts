import { describe, expect, it } from "vitest";
import { answerCounts, countsByKind, parseCount } from "../src/request-counts";

describe("parseCount", () => {
  it("reads a whole number, spaces around it allowed", () => {
    expect(parseCount("0")).toBe(0);
    expect(parseCount(" 2 ")).toBe(2);
  });

  it("has no count for an absent header or one that holds no whole number", () => {
    for (const value of [null, undefined, "", "-1", "1.5", "two", "1e3", "9999999999"])
      expect(parseCount(value), String(value)).toBeUndefined();
  });
});

describe("answerCounts", () => {
  it("reads both counts from an edge that reports ledger calls", () => {
    expect(answerCounts(new Headers({ "X-D1-Statements": "1", "X-Ledger-Calls": "2" }))).toEqual({
      statements: 1,
      ledgerCalls: 2,
    });
  });

  it("leaves the ledger calls undefined when the edge sends no X-Ledger-Calls (as today's edge)", () => {
    expect(answerCounts(new Headers({ "X-D1-Statements": "2" }))).toEqual({
      statements: 2,
      ledgerCalls: undefined,
    });
    expect(answerCounts(new Headers())).toEqual({ statements: undefined, ledgerCalls: undefined });
  });
});

describe("countsByKind", () => {
  it("gives each kind its number of requests and the p50, least and most of each figure", () => {
    expect(
      countsByKind([
        { kind: "chargedMiss", statements: 2, ledgerCalls: 1 },
        { kind: "chargedMiss", statements: 3, ledgerCalls: 1 },
        { kind: "chargedMiss", statements: 2, ledgerCalls: 1 },
        { kind: "memoryHit", statements: 0, ledgerCalls: 0 },
      ]),
    ).toEqual({
      chargedMissRequests: 3,
      chargedMissStatementsP50: 2,
      chargedMissStatementsMin: 2,
      chargedMissStatementsMax: 3,
      chargedMissLedgerCallsP50: 1,
      chargedMissLedgerCallsMin: 1,
      chargedMissLedgerCallsMax: 1,
      memoryHitRequests: 1,
      memoryHitStatementsP50: 0,
      memoryHitStatementsMin: 0,
      memoryHitStatementsMax: 0,
      memoryHitLedgerCallsP50: 0,
      memoryHitLedgerCallsMin: 0,
      memoryHitLedgerCallsMax: 0,
    });
  });

  it("leaves out a figure that some answers of a kind did not carry", () => {
    const counts = countsByKind([
      { kind: "v3BulkMisses", statements: undefined, ledgerCalls: 2 },
      { kind: "v3BulkMisses", statements: 1, ledgerCalls: undefined },
      { kind: "d1Hit", statements: 1, ledgerCalls: undefined },
    ]);
    expect(counts).toEqual({
      v3BulkMissesRequests: 2,
      d1HitRequests: 1,
      d1HitStatementsP50: 1,
      d1HitStatementsMin: 1,
      d1HitStatementsMax: 1,
    });
  });
});
