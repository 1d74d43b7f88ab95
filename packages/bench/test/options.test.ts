import path from "node:path";
import { describe, expect, it } from "vitest";
import { type BenchOptions, defaultResultsFile, parseOptions, usage, UsageError } from "../src/options";
import { RESULTS_DIR } from "../src/paths";

const IDS = ["bare", "edge-view-hit", "zipf"];

function parse(...argv: string[]): BenchOptions {
  const options = parseOptions(argv, IDS);
  if (options === "help") throw new Error("unexpected help");
  return options;
}

describe("parseOptions", () => {
  it("has the documented defaults", () => {
    const options = parse();
    expect(options).toMatchObject({
      duration: 10,
      slice: 1,
      connections: 50,
      queryConnections: 1,
      hosts: 100_000,
      certs: 2000,
      seed: "scangate",
      zipfLookups: 20_000,
      zipfKeys: 2000,
      zipfConcurrency: 50,
      zipfExponent: 1,
      zipfSeed: 1,
      scenarios: [],
      sqlRuns: 7,
      sqlPollMs: 25,
      scale: false,
      scaleHosts: [10_000, 100_000, 1_000_000],
      scaleCached: [10_000, 1_000_000],
      scaleBudget: 5400,
      build: true,
      out: null,
    });
  });

  it("reads durations, sizes and lists, ignoring the `--` pnpm passes through", () => {
    const options = parse(
      "--",
      "--duration",
      "5",
      "--hosts",
      "5000",
      "--certs",
      "300",
      "--zipf-keys",
      "200",
      "--scale",
      "--scale-hosts",
      "1000, 2000",
      "--no-build",
      "--zipf-exponent",
      "1.2",
    );
    expect(options.duration).toBe(5);
    expect(options.hosts).toBe(5000);
    expect(options.certs).toBe(300);
    expect(options.zipfKeys).toBe(200);
    expect(options.zipfExponent).toBe(1.2);
    expect(options.scale).toBe(true);
    expect(options.scaleHosts).toEqual([1000, 2000]);
    expect(options.build).toBe(false);
  });

  it("reads the slice of paired scenarios in seconds, decimals allowed", () => {
    expect(parse("--slice", "0.5").slice).toBe(0.5);
    expect(parse("--slice", "2").slice).toBe(2);
  });

  it("draws the Zipf workload from all certificates of a smaller dataset unless told otherwise", () => {
    expect(parse("--certs", "300").zipfKeys).toBe(300);
    expect(parse("--certs", "5000").zipfKeys).toBe(2000);
  });

  it("keeps the scenario filter in the given order, and refuses unknown ids", () => {
    expect(parse("--scenario", "zipf,bare").scenarios).toEqual(["zipf", "bare"]);
    expect(() => parse("--scenario", "bare,nope")).toThrow(/unknown nope/);
  });

  it("answers help", () => {
    expect(parseOptions(["--help"], IDS)).toBe("help");
    expect(usage(IDS)).toContain("scenarios: bare, edge-view-hit, zipf");
    expect(usage(IDS)).toMatch(/--duration S/);
  });

  it("refuses malformed numbers, unknown flags and impossible combinations with a UsageError", () => {
    for (const argv of [
      ["--duration", "0"],
      ["--duration", "2.5"],
      ["--slice", "0"],
      ["--slice", "0.05"],
      ["--slice", "soon"],
      ["--hosts", "lots"],
      ["--scale-hosts", "1000,,2000"],
      ["--zipf-exponent", "0"],
      ["--zipf-exponent", "Infinity"],
      ["--certs", "100", "--zipf-keys", "200"],
      ["--seed", "../elsewhere"],
      ["--frobnicate"],
      ["extra"],
    ]) {
      expect(() => parse(...argv), argv.join(" ")).toThrow(UsageError);
    }
  });

  it("resolves --out against the working directory, and names default files by start time", () => {
    expect(parse("--out", "r.json").out).toBe(path.resolve("r.json"));
    expect(defaultResultsFile(new Date("2026-11-22T02:30:50.498Z"))).toBe(
      path.join(RESULTS_DIR, "bench-2026-11-22T02-30-50-498Z.json"),
    );
  });
});
