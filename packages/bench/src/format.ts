// Plain-text formatting of the run's figures: numbers and aligned tables. Pure.

/** An integer with thousands separators: 12345 -> "12,345". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** Requests per second, whole: 12345.6 -> "12,346". */
export function formatRate(perSecond: number): string {
  return formatCount(perSecond);
}

/** Milliseconds with about three significant digits: 0.1234 -> "0.12", 12.34 -> "12.3", 1234 -> "1,234". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return formatCount(ms);
}

export type Align = "left" | "right";

/**
 * Rows under a header, each column as wide as its widest cell, separated by two spaces, with a
 * rule under the header. Trailing spaces are trimmed.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly Align[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    widths
      .map((w, i) => {
        const cell = cells[i] ?? "";
        return align[i] === "right" ? cell.padStart(w) : cell.padEnd(w);
      })
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
