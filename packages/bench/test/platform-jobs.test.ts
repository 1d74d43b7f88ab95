import { describe, expect, it } from "vitest";
import { creditsPerThousandRows, type PlatformJobRun, rowsPerSecond } from "../src/platform-jobs";
import { platformJobQuery } from "../src/scenarios/platform-jobs";

const run = (rows: number, elapsedMs: number, credits: number, end: PlatformJobRun["end"] = "success") =>
  ({ kind: "query", end, rows, elapsedMs, credits }) satisfies PlatformJobRun;

describe("Platform job figures", () => {
  it("rows per second are the successful runs' rows over their wall time", () => {
    expect(rowsPerSecond([run(5000, 2000, 50), run(5000, 3000, 50)])).toBe(2000);
    // A failed run's time and rows count for nothing.
    expect(rowsPerSecond([run(1000, 1000, 10), run(0, 60_000, 3, "error")])).toBe(1000);
    expect(rowsPerSecond([])).toBe(0);
  });

  it("credits per 1,000 rows are the successful runs' credits over their rows", () => {
    expect(creditsPerThousandRows([run(5000, 2000, 50), run(5000, 3000, 50)])).toBe(10);
    expect(creditsPerThousandRows([run(0, 10, 1)])).toBe(0);
  });

  it("asks for rows a LIMIT bounds, so the edge accepts the job without a WHERE", () => {
    expect(platformJobQuery(300)).toBe(
      "SELECT ip, location.country, autonomous_system.asn FROM ipv4 LIMIT 300",
    );
  });
});
