import { formatCount, formatPercent } from "../display-format";
import { ratio } from "../usage-summary";

/** How alarming a share of the allowance is. */
function levelOf(fraction: number): "ok" | "warn" | "full" {
  return fraction >= 0.95 ? "full" : fraction >= 0.8 ? "warn" : "ok";
}

const ARC = "M 24 104 A 76 76 0 0 1 176 104";
const ARC_LENGTH = Math.PI * 76;

/**
 * A half-circle gauge of `used` against `allowance`, with both figures below it; `figure` names
 * them for the tests (`quota-used`, `quota-allowance`, ...).
 */
export function Gauge(props: { used: number; allowance: number; caption: string; figure: string }) {
  const fraction = ratio(props.used, props.allowance);
  const percent = formatPercent(fraction);
  return (
    <>
      <svg class="gauge" viewBox="0 0 200 124" role="img" aria-label={`${percent} ${props.caption}`}>
        <path class="gauge-track" d={ARC} />
        {fraction > 0 && (
          <path
            class={`gauge-fill level-${levelOf(fraction)}`}
            d={ARC}
            stroke-dasharray={`${(fraction * ARC_LENGTH).toFixed(2)} ${ARC_LENGTH.toFixed(2)}`}
          />
        )}
        <text class="gauge-pct" x="100" y="96" text-anchor="middle">
          {percent}
        </text>
        <text class="gauge-cap" x="100" y="118" text-anchor="middle">
          {props.caption}
        </text>
      </svg>
      <div class="gauge-figures">
        <strong data-figure={`${props.figure}-used`} data-value={props.used}>
          {formatCount(props.used)}
        </strong>{" "}
        of{" "}
        <strong data-figure={`${props.figure}-allowance`} data-value={props.allowance}>
          {formatCount(props.allowance)}
        </strong>{" "}
        used
      </div>
    </>
  );
}

/** A small horizontal bar for table rows. */
export function UsageBar(props: { fraction: number }) {
  const fraction = Math.min(1, Math.max(0, props.fraction));
  return (
    <svg class="bar" viewBox="0 0 72 8" aria-hidden="true">
      <rect class="bar-track" width="72" height="8" rx="4" />
      {fraction > 0 && (
        <rect
          class={`bar-fill level-${levelOf(fraction)}`}
          width={Math.max(4, fraction * 72).toFixed(1)}
          height="8"
          rx="4"
        />
      )}
    </svg>
  );
}
