// What every target is judged from, and how a target tells a measurement it can use from one it
// cannot (a scenario that did not run, or had failed requests).
import { formatCount } from "./format";
import type { Measurement } from "./measurement";
import type { RatioSpread } from "./paired";

export type TargetStatus = "PASS" | "MISS" | "N/A";

export interface TargetResult {
  readonly id: string;
  readonly requirement: string;
  readonly status: TargetStatus;
  /** The figures behind the status, or why there are none. */
  readonly measured: string;
  /** A ratio judged on paired slices: the median and spread of the pair ratios. */
  readonly pairs?: RatioSpread;
}

/** Dataset size the origin latency targets are defined on. */
export const TARGET_HOSTS = 100_000;

export interface ScaledQueries {
  readonly hosts: number;
  readonly search?: Measurement;
  readonly aggregate?: Measurement;
}

export interface TargetInputs {
  /** This run's measurements, by scenario id. */
  readonly scenarios: ReadonlyMap<string, Measurement>;
  /** Hosts in this run's dataset. */
  readonly datasetHosts: number;
  /** Origin search and aggregate on other dataset sizes (the scaling mode). */
  readonly scaled?: readonly ScaledQueries[];
}

export type Usable = { ok: true; m: Measurement } | { ok: false; why: string };

/** A measurement a target can use: it ran, and every response was a 2xx. */
export function usable(m: Measurement | undefined, id: string): Usable {
  if (!m) return { ok: false, why: `${id} did not run` };
  if (m.requests === 0) return { ok: false, why: `${id} answered no requests` };
  if (m.errors > 0)
    return {
      ok: false,
      why: `${id} had ${formatCount(m.errors)} failed requests of ${formatCount(m.requests)}`,
    };
  return { ok: true, m };
}

/** N/A, with why each input that is not usable is not. */
export function unavailable(id: string, requirement: string, inputs: readonly Usable[]): TargetResult {
  const why = inputs.flatMap((u) => (u.ok ? [] : [u.why]));
  return { id, requirement, status: "N/A", measured: why.join("; ") };
}
