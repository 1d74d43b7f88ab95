// What an edge answer says of the work its request did: the D1 statements it ran before answering
// (X-D1-Statements) and the calls it made to its tenant's quota ledger (X-Ledger-Calls). The edge
// sends both only when its D1_STATEMENTS_HEADER is on and the request sent X-D1-Statements, and an
// edge that does not count ledger calls sends no X-Ledger-Calls at all. Pure.
import { quantile } from "./load";

/** The request header that asks for the counts, and the answer headers that carry them. */
export const COUNT_REQUEST_HEADER = "x-d1-statements";
export const STATEMENTS_HEADER = "x-d1-statements";
export const LEDGER_CALLS_HEADER = "x-ledger-calls";

/** A count header's value: a whole number, or undefined when the header is absent or holds none. */
export function parseCount(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  return /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** The counts one answer carries (each undefined when the edge did not send it). */
export interface AnswerCounts {
  readonly statements: number | undefined;
  readonly ledgerCalls: number | undefined;
}

export function answerCounts(headers: { get(name: string): string | null }): AnswerCounts {
  return {
    statements: parseCount(headers.get(STATEMENTS_HEADER)),
    ledgerCalls: parseCount(headers.get(LEDGER_CALLS_HEADER)),
  };
}

/** One counted request: what kind it was (e.g. `chargedMiss`) and what its answer said. */
export interface CountReading extends AnswerCounts {
  readonly kind: string;
}

/**
 * Each kind's readings as a scenario's counts: `<kind>Requests`, and `<kind>Statements{P50,Min,Max}`
 * and `<kind>LedgerCalls{P50,Min,Max}` when every reading of that kind carried the figure (a kind
 * some of whose answers did not say is left without it: not measured, rather than half measured).
 */
export function countsByKind(readings: readonly CountReading[]): Record<string, number> {
  const kinds = [...new Set(readings.map((r) => r.kind))];
  const counts: Record<string, number> = {};
  for (const kind of kinds) {
    const of = readings.filter((r) => r.kind === kind);
    counts[`${kind}Requests`] = of.length;
    for (const [figure, name] of [
      ["statements", "Statements"],
      ["ledgerCalls", "LedgerCalls"],
    ] as const) {
      const values = of.map((r) => r[figure]);
      if (!values.every((v): v is number => v !== undefined)) continue;
      const sorted = values.sort((a, b) => a - b);
      counts[`${kind}${name}P50`] = quantile(sorted, 0.5);
      counts[`${kind}${name}Min`] = sorted[0] as number;
      counts[`${kind}${name}Max`] = sorted[sorted.length - 1] as number;
    }
  }
  return counts;
}
