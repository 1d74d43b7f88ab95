import type { Child } from "hono/jsx";

/** One headline figure; `figure` names it for the browser tests (data-figure). */
export function Stat(props: { label: string; value: string; figure?: string; hint?: Child; card?: boolean }) {
  return (
    <div class={props.card === false ? "stat" : "stat card"}>
      <span class="stat-label">{props.label}</span>
      <span class="stat-value" data-figure={props.figure}>
        {props.value}
      </span>
      {props.hint !== undefined && <span class="stat-hint">{props.hint}</span>}
    </div>
  );
}
