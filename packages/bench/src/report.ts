// What a run prints: the scenario table, the counts some scenarios keep, and the targets.
import { formatCount, formatMs, formatRate, formatTable } from "./format";
import type { Measurement, Skipped } from "./measurement";
import { sliceRange } from "./paired";
import type { TargetResult } from "./targets";

/** One row per scenario, in run order; a skipped scenario says why instead of figures. */
export function scenarioTable(rows: ReadonlyArray<Measurement | Skipped>): string {
  return formatTable(
    ["scenario", "conn", "requests", "req/s", "p50 ms", "p99 ms", "cpu ms/req", "errors"],
    rows.map((row) =>
      "reason" in row
        ? [row.id, "", "", "", "", "", "", `skipped: ${row.reason}`]
        : [
            row.id,
            String(row.connections),
            formatCount(row.requests),
            formatRate(row.requestsPerSecond),
            formatMs(row.p50Ms),
            formatMs(row.p99Ms),
            row.cpuMsPerRequest === null ? "n/a" : row.cpuMsPerRequest.toFixed(3),
            row.errors > 0 ? `${formatCount(row.errors)} ${statusSummary(row.statuses)}` : "0",
          ],
    ),
    ["left", "right", "right", "right", "right", "right", "right", "left"],
  );
}

/**
 * One row per scenario measured in paired slices: the row of its reference's slices, the slice
 * length, and the pair ratios (scenario req/s / reference req/s) as median and spread. Empty when
 * no scenario was.
 */
export function pairTable(rows: readonly Measurement[]): string {
  const paired = rows.filter((row) => row.pairs !== undefined);
  if (paired.length === 0) return "";
  const ratio = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(2));
  return formatTable(
    ["scenario", "reference slices", "slice s", "pairs", "median", "min", "p25", "p75", "max"],
    paired.map((row) => {
      const pairs = row.pairs as NonNullable<Measurement["pairs"]>;
      const spread = pairs.spread ?? undefined;
      return [
        row.id,
        pairs.reference,
        sliceRange(pairs.sliceSeconds),
        String(spread?.count ?? 0),
        ratio(spread?.median),
        ratio(spread?.min),
        ratio(spread?.p25),
        ratio(spread?.p75),
        ratio(spread?.max),
      ];
    }),
    ["left", "left", "right", "right", "right", "right", "right", "right", "right"],
  );
}

/** Non-2xx statuses as "(429 x12, 502 x1)". */
export function statusSummary(statuses: Readonly<Record<string, number>>): string {
  const failed = Object.entries(statuses)
    .filter(([status]) => !status.startsWith("2"))
    .map(([status, count]) => `${status} x${formatCount(count)}`);
  return failed.length > 0 ? `(${failed.join(", ")})` : "";
}

/** "scenario: key=value, ..." lines for the scenarios that kept counts. */
export function countLines(rows: readonly Measurement[]): string[] {
  return rows
    .filter((row) => Object.keys(row.counts).length > 0)
    .map(
      (row) =>
        `${row.id}: ${Object.entries(row.counts)
          .map(([key, value]) => `${key}=${formatCount(value)}`)
          .join(", ")}`,
    );
}

/** "scenario: note" lines of the scenarios whose id starts with `prefix` (what each SQL job did). */
export function noteLines(rows: readonly Measurement[], prefix: string): string[] {
  return rows
    .filter((row) => row.id.startsWith(prefix))
    .flatMap((row) => row.notes.map((note) => `${row.id}: ${note}`));
}

/** One line per target: status, requirement, and the figures (or why there are none). */
export function targetLines(results: readonly TargetResult[]): string[] {
  const width = Math.max(...results.map((r) => r.requirement.length));
  return results.map((r) => `${r.status.padEnd(4)}  ${r.requirement.padEnd(width)}  ${r.measured}`);
}

/** A scaling level as the scale table shows it (see scale.ts). */
export interface ScaleRow {
  readonly kind: "hosts" | "cached";
  readonly size: number;
  readonly prepareSeconds: number;
  readonly measurements: readonly Measurement[];
  readonly skipped?: string;
}

function sizeLabel(level: ScaleRow): string {
  return `${formatCount(level.size)} ${level.kind === "hosts" ? "hosts" : "cached docs"}`;
}

/** One row per measurement of each size; the sizes that were not measured say why, under the table. */
export function scaleTable(levels: readonly ScaleRow[]): string {
  const rows = levels.flatMap((level): string[][] => {
    const prepared = level.prepareSeconds > 0 ? formatCount(level.prepareSeconds) : "-";
    if (level.skipped !== undefined)
      return [["", sizeLabel(level), "", "", "", "", prepared, "not measured (below)"]];
    return level.measurements.map((m) => [
      m.id,
      sizeLabel(level),
      String(m.connections),
      formatCount(m.requests),
      formatMs(m.p50Ms),
      formatMs(m.p99Ms),
      prepared,
      [m.errors > 0 ? `${formatCount(m.errors)} errors ${statusSummary(m.statuses)}` : "", ...m.notes]
        .filter((note) => note !== "")
        .join("; "),
    ]);
  });
  const table = formatTable(
    ["measurement", "size", "conn", "requests", "p50 ms", "p99 ms", "prepare s", "note"],
    rows,
    ["left", "right", "right", "right", "right", "right", "right", "left"],
  );
  const reasons = levels.flatMap((level) =>
    level.skipped === undefined ? [] : [`${sizeLabel(level)}: ${level.skipped}`],
  );
  return [table, ...reasons].join("\n");
}
