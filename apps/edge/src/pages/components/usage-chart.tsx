import { formatCount, isoDay, shortDay } from "../display-format";
import { Table } from "../layout";
import { axisTicks, type UsageChart } from "../usage-summary";

const WIDTH = 720;
const HEIGHT = 250;
const MARGIN = { top: 12, right: 8, bottom: 30, left: 56 };

/**
 * Requests per day as stacked bars, one colour per operation, drawn on the server. Each bar
 * segment has a <title> (the browser's tooltip) and the same numbers are in a table below.
 */
export function UsageChartView(props: { chart: UsageChart; label: string }) {
  const { series, days } = props.chart;
  const max = Math.max(0, ...days.map((d) => d.total));
  const ticks = axisTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.64);
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
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
          let base = 0;
          const x = MARGIN.left + i * slot + (slot - barWidth) / 2;
          return (
            <g data-day={isoDay(day.day)} data-total={day.total}>
              {day.values.map((value, s) => {
                if (value === 0) return null;
                const segment = series[s];
                const rect = (
                  <rect
                    class={`series-${segment?.colour ?? 0}`}
                    x={x.toFixed(1)}
                    y={y(base + value).toFixed(1)}
                    width={barWidth.toFixed(1)}
                    height={Math.max(1, y(base) - y(base + value)).toFixed(1)}
                  >
                    <title>{`${shortDay(day.day)} · ${segment?.label ?? ""}: ${formatCount(value)}`}</title>
                  </rect>
                );
                base += value;
                return rect;
              })}
              {(lastIndex - i) % 7 === 0 &&
                (i === lastIndex ? (
                  // Flush with the plot's right edge: centred, it would be cut off where the labels are large (phones).
                  <text x={WIDTH - MARGIN.right} y={HEIGHT - 8} text-anchor="end">
                    Today
                  </text>
                ) : (
                  <text
                    x={(MARGIN.left + i * slot + slot / 2).toFixed(1)}
                    y={HEIGHT - 8}
                    text-anchor="middle"
                  >
                    {shortDay(day.day)}
                  </text>
                ))}
            </g>
          );
        })}
        {max === 0 && (
          <text
            class="empty"
            x={MARGIN.left + plotWidth / 2}
            y={MARGIN.top + plotHeight / 2}
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
