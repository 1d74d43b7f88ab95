import { TENANT_PERIODS } from "@scangate/core";
import type { Child } from "hono/jsx";
import { Field } from "../layout";

export interface TierOption {
  name: string;
  description: string;
}

const PERIOD_LABELS: Record<(typeof TENANT_PERIODS)[number], string> = {
  monthly: "Monthly (refills on the 1st)",
  daily: "Daily (refills at 00:00 UTC)",
  never: "One-time credits (never refills)",
};

/** Allowance, period and tier: the fields creating and changing a tenant share. */
export function QuotaFields(props: {
  values: Record<string, string>;
  tiers: readonly TierOption[];
  idPrefix: string;
}) {
  const { values, tiers, idPrefix } = props;
  // The rate tier gets a row of its own: its options ("standard — up to 60 requests per minute") are long.
  return (
    <>
      <div class="field-row">
        <Field id={`${idPrefix}-allowance`} label="Allowance">
          <input
            id={`${idPrefix}-allowance`}
            name="allowance"
            type="number"
            min="1"
            max="1000000000"
            step="1"
            required
            value={values.allowance ?? ""}
          />
        </Field>
        <Field id={`${idPrefix}-period`} label="Period">
          <select id={`${idPrefix}-period`} name="period">
            {TENANT_PERIODS.map((period) => (
              <option value={period} selected={values.period === period}>
                {PERIOD_LABELS[period]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field id={`${idPrefix}-tier`} label="Rate tier">
        <select id={`${idPrefix}-tier`} name="tier">
          {tiers.map((tier) => (
            <option value={tier.name} selected={values.tier === tier.name}>
              {`${tier.name} — ${tier.description}`}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

/** The box a confirmed action's form carries: the action is done only when it is ticked. */
export function ConfirmBox(props: { children: Child }) {
  return (
    <label class="check">
      <input type="checkbox" name="confirm" value="yes" required />
      {props.children}
    </label>
  );
}

const GRACE_SPANS: Record<number, string> = { 3600: "1 hour", 86_400: "1 day", [7 * 86_400]: "7 days" };

/** How long the old secret or token keeps working once a new one is made; the first choice is the default. */
export function GraceField(props: { id: string; what: "secret" | "token"; choices: readonly number[] }) {
  const { id, what } = props;
  return (
    <Field id={id} label={`Old ${what}`}>
      <select id={id} name="grace_seconds">
        {props.choices.map((seconds) => (
          <option value={String(seconds)}>
            {seconds === 0 ? `Stop the old ${what} now` : `Keep the old ${what} for ${GRACE_SPANS[seconds]}`}
          </option>
        ))}
      </select>
    </Field>
  );
}
