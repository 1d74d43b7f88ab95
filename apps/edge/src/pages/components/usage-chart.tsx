import { scaleBand, scaleLinear } from "d3-scale";
import { stack } from "d3-shape";
import { formatCount, isoDay, shortDay } from "../display-format";
import { Table } from "../layout";
import type { UsageChart } from "../usage-summary";

const WIDTH = 720;
const HEIGHT = 250;
const MARGIN = { top: 12, right: 8, bottom: 30, left: 56 };

type ChartDay = UsageChart["days"][number];

/**
 * Requests per day as stacked bars, one colour per operation, drawn on the server (no script, so
 * the pages' content security policy holds) with d3's scales and stack. Each bar segment has a
 * <title> (the browser's tooltip) and the same numbers are in a table below.
 */
export function UsageChartView(props: { chart: UsageChart; label: string }) {
  const { series, days } = props.chart;
  const max = Math.max(0, ...days.map((d) => d.total));
  const x = scaleBand<number>()
    .domain(days.map((_, i) => i))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.36)
    .paddingOuter(0.18);
  const y = scaleLinear()
    .domain([0, Math.max(1, max)])
    .range([HEIGHT - MARGIN.bottom, MARGIN.top])
    .nice(4);
  // Requests are whole numbers: no tick between two of them.
  const ticks = y.ticks(4).filter(Number.isInteger);
  // One layer per series, each a [bottom, top] per day.
  const layers = stack<ChartDay, number>()
    .keys(series.map((_, s) => s))
    .value((day, s) => day.values[s] ?? 0)(days);
  const lastIndex = days.length - 1;

  return (
    <div>
      {series.length > 0 && (
        <ul class="legend">
          {series.map((s) => (
            <li>
              <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
                <rect class={`series-${s.colour}`} width="10" height="10" rx="2" />
              </svg>
              {s.label}
              <span class="muted">{formatCount(s.total)}</span>
            </li>
          ))}
        </ul>
      )}
      <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={props.label}>
        {ticks.map((tick) => (
          <g>
            <line
              class={tick === 0 ? "baseline" : "gridline"}
              x1={MARGIN.left}
              x2={WIDTH - MARGIN.right}
              y1={y(tick)}
              y2={y(tick)}
            />
            <text x={MARGIN.left - 10} y={y(tick) + 4} text-anchor="end">
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {days.map((day, i) => {
          const left = (x(i) ?? 0).toFixed(1);
          return (
            <g data-day={isoDay(day.day)} data-total={day.total}>
              {layers.map((layer, s) => {
                const [bottom, top] = layer[i] ?? [0, 0];
                if (top === bottom) return null;
                const segment = series[s];
                return (
                  <rect
                    class={`series-${segment?.colour ?? 0}`}
                    x={left}
                    y={y(top).toFixed(1)}
                    width={x.bandwidth().toFixed(1)}
                    height={Math.max(1, y(bottom) - y(top)).toFixed(1)}
                  >
                    <title>{`${shortDay(day.day)} · ${segment?.label ?? ""}: ${formatCount(top - bottom)}`}</title>
                  </rect>
                );
              })}
              {(lastIndex - i) % 7 === 0 &&
                (i === lastIndex ? (
                  // Flush with the plot's right edge: centred, it would be cut off where the labels are large (phones).
                  <text x={WIDTH - MARGIN.right} y={HEIGHT - 8} text-anchor="end">
                    Today
                  </text>
                ) : (
                  <text x={((x(i) ?? 0) + x.bandwidth() / 2).toFixed(1)} y={HEIGHT - 8} text-anchor="middle">
                    {shortDay(day.day)}
                  </text>
                ))}
            </g>
          );
        })}
        {max === 0 && (
          <text
            class="empty"
            x={(MARGIN.left + WIDTH - MARGIN.right) / 2}
            y={(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}
            text-anchor="middle"
          >
            No requests in the last {days.length} days
          </text>
        )}
      </svg>
      {max > 0 && (
        <details>
          <summary>Show as a table</summary>
          <Table
            name="daily-usage"
            headings={["Day", ...series.map((s) => s.label), "Total"]}
            numericFrom={1}
          >
            {[...days]
              .reverse()
              .filter((d) => d.total > 0)
              .map((d) => (
                <tr data-day={isoDay(d.day)}>
                  <td class="nowrap">{isoDay(d.day)}</td>
                  {d.values.map((v) => (
                    <td class="num">{formatCount(v)}</td>
                  ))}
                  <td class="num" data-total={d.total}>
                    {formatCount(d.total)}
                  </td>
                </tr>
              ))}
          </Table>
        </details>
      )}
    </div>
  );
}
