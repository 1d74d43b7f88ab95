import { html } from "hono/html";
import { describe, expect, it } from "vitest";
import { UsageChartView } from "../src/pages/components/usage-chart";
import { DAY_MS, type DailyOperationUsage, usageChart, windowStart } from "../src/pages/usage-summary";

const NOW = Date.UTC(2026, 10, 29, 15, 0, 0);
const FIRST = windowStart(NOW);

function usage(dayIndex: number, operation: string, requests: number): DailyOperationUsage {
  return {
    day: FIRST + dayIndex * DAY_MS,
    operation,
    requests,
    cacheHits: 0,
    upstreamCalls: 0,
    errors: 0,
    quotaSpent: 0,
    quotaSaved: 0,
  };
}

/** The chart's markup, as the pages render it. */
async function render(rows: DailyOperationUsage[]): Promise<string> {
  return (await html`${UsageChartView({ chart: usageChart(rows, NOW), label: "usage" })}`).toString();
}

/** Each drawn day's segments: their tooltip value, their top and their height, in SVG units. */
function drawnDays(svg: string): Map<string, { value: number; y: number; height: number }[]> {
  const days = new Map<string, { value: number; y: number; height: number }[]>();
  for (const [, day, body] of svg.matchAll(/<g data-day="([\d-]+)" data-total="\d+">(.*?)<\/g>/gs)) {
    const segments = [
      ...body!.matchAll(/<rect [^>]*y="([\d.]+)" [^>]*height="([\d.]+)"><title>[^<]*: ([\d,]+)<\/title>/g),
    ].map(([, y, height, value]) => ({
      value: Number(value!.replaceAll(",", "")),
      y: Number(y),
      height: Number(height),
    }));
    days.set(day!, segments);
  }
  return days;
}

/** The y-axis labels, bottom up. */
function tickLabels(svg: string): string[] {
  return [...svg.matchAll(/<text [^>]*text-anchor="end">([\d,.kKM]+)<\/text>/g)].map(([, label]) => label!);
}

describe("the usage chart", () => {
  it("stacks each day's operations in proportion, the busiest day reaching the scale's top", async () => {
    const svg = await render([
      usage(27, "view", 600),
      usage(27, "search", 200),
      usage(28, "view", 300),
      usage(29, "bulk", 100),
    ]);
    const days = drawnDays(svg);
    expect(days.size).toBe(30);
    const busiest = days.get(new Date(FIRST + 27 * DAY_MS).toISOString().slice(0, 10))!;
    expect(busiest.map((s) => s.value)).toEqual([600, 200]);
    // 800 requests: the scale is 0..800 in steps of 200, so the bar fills the plot's 208 units.
    const height = busiest.reduce((sum, s) => sum + s.height, 0);
    expect(height).toBeCloseTo(208, 0);
    // The segments stack: the second starts where the first ends.
    expect(busiest[1]!.y + busiest[1]!.height).toBeCloseTo(busiest[0]!.y, 0);
    const today = days.get(new Date(FIRST + 29 * DAY_MS).toISOString().slice(0, 10))!;
    expect(today.map((s) => s.value)).toEqual([100]);
    expect(today[0]!.height).toBeCloseTo(height / 8, 0);
    // Days without requests draw no bar.
    expect(days.get(new Date(FIRST).toISOString().slice(0, 10))).toEqual([]);
    expect(tickLabels(svg)).toEqual(["0", "200", "400", "600", "800"]);
    // A total past a round step rounds the scale's top up to the next one.
    expect(tickLabels(await render([usage(29, "view", 1234)]))).toEqual(["0", "500", "1,000", "1,500"]);
  });

  it("labels only whole numbers of requests, and says so when there were none", async () => {
    expect(tickLabels(await render([usage(29, "view", 3)]))).toEqual(["0", "1", "2", "3"]);
    const empty = await render([]);
    expect(tickLabels(empty)).toEqual(["0", "1"]);
    expect(empty).toContain("No requests in the last 30 days");
    expect([...drawnDays(empty).values()].flat()).toEqual([]);
  });
});
