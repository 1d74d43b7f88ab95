import path from "node:path";
import { parseArgs } from "node:util";
import { RESULTS_DIR } from "./paths";

export interface BenchOptions {
  /** Seconds of load per scenario (for a paired scenario: per side). */
  readonly duration: number;
  /** Seconds of one slice of a paired scenario or of its reference. */
  readonly slice: number;
  /** Concurrent connections of the throughput scenarios. */
  readonly connections: number;
  /** Concurrent connections of the search, aggregate and scaling scenarios (latency, not queueing). */
  readonly queryConnections: number;
  readonly hosts: number;
  readonly certs: number;
  /** Seed of the origin's dataset generator. */
  readonly seed: string;
  readonly zipfLookups: number;
  readonly zipfKeys: number;
  readonly zipfConcurrency: number;
  readonly zipfExponent: number;
  readonly zipfSeed: number;
  /** Scenario ids to run (all when empty). */
  readonly scenarios: readonly string[];
  readonly scale: boolean;
  readonly scaleHosts: readonly number[];
  readonly scaleCached: readonly number[];
  /** Seconds a scaling level may spend preparing its data before it is skipped. */
  readonly scaleBudget: number;
  readonly build: boolean;
  /** Measured runs of each SQL latency scenario (sequential jobs). */
  readonly sqlRuns: number;
  /** Milliseconds between a SQL job's status answer and the next status request. */
  readonly sqlPollMs: number;
  /** Results JSON; a timestamped file under bench-results/ when not given. */
  readonly out: string | null;
}

export const USAGE = `usage: pnpm bench [-- options]

  --duration S            seconds of load per scenario (default 10; a paired scenario: each side)
  --slice S               seconds of each slice of a paired scenario and of its reference at first
                          (default 1; pairs until each side had --duration, the side that goes
                          first alternating; slices double after a pair with too few answers)
  --hosts N               hosts in the origin dataset (default 100000; seeded once per size and seed)
  --certs N               certificates in the origin dataset (default 2000)
  --seed TEXT             seed of the dataset generator (default scangate)
  --scenario a,b          run only these scenarios (ids below; the ratios need their scenarios)
  --connections N         concurrent connections of throughput scenarios (default 50)
  --query-connections N   concurrent connections of search/aggregate/scaling scenarios (default 1)
  --zipf-lookups N        lookups of the Zipf workload (default 20000)
  --zipf-keys N           certificates the Zipf workload draws from (default 2000, at most --certs)
  --zipf-concurrency N    concurrent connections of the Zipf workload (default 50)
  --zipf-exponent S       Zipf exponent (default 1)
  --zipf-seed N           PRNG seed of the Zipf workload (default 1)
  --scale                 also measure how latency grows with dataset and cache size
  --scale-hosts a,b       host counts of the scaling runs (default 10000,100000,1000000)
  --scale-cached a,b      cached documents of the scaling runs (default 10000,1000000)
  --scale-budget S        seconds a scaling level may spend preparing data (default 5400)
  --sql-runs N            measured jobs of each SQL latency scenario (default 7)
  --sql-poll-ms N         pause between a SQL job's status answer and the next poll (default 25)
  --no-build              use the bench worker already built in workers/bare/dist
  --out FILE              results JSON (default packages/bench/bench-results/bench-<time>.json)
  --help                  this text

scenarios: SCENARIO_IDS
`;

export class UsageError extends Error {}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a positive integer (got "${value}")`);
  return n;
}

/** A number of seconds, at least 0.1 (decimals allowed). */
function seconds(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0.1)
    throw new UsageError(`--${name} must be a number of seconds, at least 0.1 (got "${value}")`);
  return n;
}

function intList(name: string, value: string): number[] {
  return value.split(",").map((part) => positiveInt(name, part.trim()));
}

/** The usage text, listing the scenario ids. */
export function usage(scenarioIds: readonly string[]): string {
  return USAGE.replace("SCENARIO_IDS", scenarioIds.join(", "));
}

/**
 * Parses the command line against the known scenario ids; pnpm may pass a leading `--`
 * through, which is ignored. Anything unknown or malformed is a UsageError.
 */
export function parseOptions(argv: readonly string[], scenarioIds: readonly string[]): BenchOptions | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv.filter((arg) => arg !== "--"),
      strict: true,
      allowPositionals: false,
      options: {
        duration: { type: "string", default: "10" },
        slice: { type: "string", default: "1" },
        connections: { type: "string", default: "50" },
        "query-connections": { type: "string", default: "1" },
        hosts: { type: "string", default: "100000" },
        certs: { type: "string", default: "2000" },
        seed: { type: "string", default: "scangate" },
        "zipf-lookups": { type: "string", default: "20000" },
        "zipf-keys": { type: "string" },
        "zipf-concurrency": { type: "string", default: "50" },
        "zipf-exponent": { type: "string", default: "1" },
        "zipf-seed": { type: "string", default: "1" },
        scenario: { type: "string", default: "" },
        scale: { type: "boolean", default: false },
        "scale-hosts": { type: "string", default: "10000,100000,1000000" },
        "scale-cached": { type: "string", default: "10000,1000000" },
        "scale-budget": { type: "string", default: "5400" },
        "no-build": { type: "boolean", default: false },
        "sql-runs": { type: "string", default: "7" },
        "sql-poll-ms": { type: "string", default: "25" },
        out: { type: "string" },
        help: { type: "boolean", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return "help";
  const exponent = Number(values["zipf-exponent"]);
  if (!(exponent > 0) || !Number.isFinite(exponent))
    throw new UsageError("--zipf-exponent must be a positive number");
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(values.seed)) {
    throw new UsageError(
      "--seed must be 1 to 40 letters, digits, - or _ (it names the dataset's state folder)",
    );
  }
  const scenarios = values.scenario
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scenarios.filter((id) => !scenarioIds.includes(id));
  if (unknown.length > 0) {
    throw new UsageError(`--scenario: unknown ${unknown.join(", ")} (known: ${scenarioIds.join(", ")})`);
  }
  const certs = positiveInt("certs", values.certs);
  const zipfKeys =
    values["zipf-keys"] === undefined ? Math.min(2000, certs) : positiveInt("zipf-keys", values["zipf-keys"]);
  if (zipfKeys > certs) throw new UsageError(`--zipf-keys (${zipfKeys}) cannot exceed --certs (${certs})`);
  return {
    duration: positiveInt("duration", values.duration),
    slice: seconds("slice", values.slice),
    connections: positiveInt("connections", values.connections),
    queryConnections: positiveInt("query-connections", values["query-connections"]),
    hosts: positiveInt("hosts", values.hosts),
    certs,
    seed: values.seed,
    zipfLookups: positiveInt("zipf-lookups", values["zipf-lookups"]),
    zipfKeys,
    zipfConcurrency: positiveInt("zipf-concurrency", values["zipf-concurrency"]),
    zipfExponent: exponent,
    zipfSeed: positiveInt("zipf-seed", values["zipf-seed"]),
    scenarios,
    scale: values.scale,
    scaleHosts: intList("scale-hosts", values["scale-hosts"]),
    scaleCached: intList("scale-cached", values["scale-cached"]),
    scaleBudget: positiveInt("scale-budget", values["scale-budget"]),
    build: !values["no-build"],
    sqlRuns: positiveInt("sql-runs", values["sql-runs"]),
    sqlPollMs: positiveInt("sql-poll-ms", values["sql-poll-ms"]),
    out: values.out === undefined ? null : path.resolve(values.out),
  };
}

/** Default results file of a run started at `at`. */
export function defaultResultsFile(at: Date): string {
  return path.join(RESULTS_DIR, `bench-${at.toISOString().replace(/[:.]/g, "-")}.json`);
}
