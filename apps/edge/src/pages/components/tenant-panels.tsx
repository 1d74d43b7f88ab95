import type { Child } from "hono/jsx";
import type { TenantReport } from "../../reports/tenant-report";
import { NEVER_RESETS_AT } from "../../tenants/periods";
import { dateTime, formatCount, formatPercent, fromNow, isoDay } from "../display-format";
import { operationLabel, ratio } from "../usage-summary";
import { CreditsCard } from "./credits-panels";
import { Card, Table } from "../layout";
import { Gauge } from "./gauge";
import { UsageChartView } from "./usage-chart";

/** One headline figure; `figure` names it for the browser tests (data-figure). */
export function Stat(props: { label: string; value: string; figure?: string; hint?: Child }) {
  return (
    <div class="stat card">
      <span class="stat-label">{props.label}</span>
      <span class="stat-value" data-figure={props.figure}>
        {props.value}
      </span>
      {props.hint !== undefined && <span class="stat-hint">{props.hint}</span>}
    </div>
  );
}

const PERIOD_NAMES = {
  daily: "Daily allowance",
  monthly: "Monthly allowance",
  never: "One-time credits",
} as const;

/** The quota gauge with used, allowance and reset; figures are the account API's. */
function QuotaCard(props: { report: TenantReport }) {
  const { account, quota, now, tenant } = props.report;
  return (
    <Card name="quota" title="Quota this period" class="card gauge-box">
      <Gauge
        used={account.quota.used}
        allowance={account.quota.allowance}
        caption="of allowance used"
        figure="quota"
      />
      <div class="gauge-reset">
        {quota.resetsAt === null ? (
          <span data-figure="quota-resets-at" data-value={NEVER_RESETS_AT}>
            One-time credits: never refills
          </span>
        ) : (
          <>
            Resets{" "}
            <span data-figure="quota-resets-at" data-value={account.quota.resets_at}>
              {dateTime(quota.resetsAt)}
            </span>{" "}
            · {fromNow(quota.resetsAt, now)}
          </>
        )}
      </div>
      <div class="gauge-reset">{PERIOD_NAMES[tenant.period]}</div>
    </Card>
  );
}

/** Requests, cache hits (and what they saved), upstream calls and errors over the window. */
function UsageStats(props: { report: TenantReport }) {
  const { totals, days, quotaSavedByCache } = props.report;
  return (
    <div class="stats">
      <Stat
        label={`Requests · ${days} days`}
        value={formatCount(totals.requests)}
        figure="requests"
        hint={`${formatCount(totals.quotaSpent)} quota spent`}
      />
      <Stat
        label="Cache hits"
        value={formatCount(totals.cacheHits)}
        figure="cache-hits"
        hint={
          <>
            saved <span data-figure="upstream-calls-saved">{formatCount(totals.cacheHits)}</span> upstream
            call
            {totals.cacheHits === 1 ? "" : "s"}
            {quotaSavedByCache > 0 && ` and ${formatCount(quotaSavedByCache)} quota`}
          </>
        }
      />
      <Stat
        label="Upstream calls"
        value={formatCount(totals.upstreamCalls)}
        figure="upstream-calls"
        hint="answers fetched for you"
      />
      <Stat
        label={`Errors · ${days} days`}
        value={formatCount(totals.errors)}
        figure="errors"
        hint={`${formatPercent(ratio(totals.errors, totals.requests))} of requests`}
      />
    </div>
  );
}

/** The figures the tenant's dashboard and the admin's page of the tenant both show. */
export function TenantFigures(props: { report: TenantReport }) {
  const { report } = props;
  return (
    <>
      <div class="grid grid-main">
        <QuotaCard report={report} />
        <UsageStats report={report} />
      </div>
      <div class="grid">
        <CreditsCard report={report} />
      </div>
      <div class="grid">
        <Card name="usage" title="Requests per day by operation" note={`last ${report.days} days, UTC`}>
          <UsageChartView
            chart={report.chart}
            label={`Requests per day over the last ${report.days} days, stacked by operation`}
          />
        </Card>
      </div>
    </>
  );
}

/** Days and operations with errors, from the rollups' error counts. */
export function RecentErrorsCard(props: { report: TenantReport }) {
  const { errors, days } = props.report;
  return (
    <Card name="errors" title="Recent errors" note={`last ${days} days`}>
      {errors.length === 0 ? (
        <p class="muted" data-figure="no-errors">
          No failed requests. Errors (4xx and 5xx answers, quota and rate refusals) show up here by day and
          operation.
        </p>
      ) : (
        <Table name="recent-errors" headings={["Day", "Operation", "Errors", "Of requests"]} numericFrom={2}>
          {errors.map((e) => (
            <tr>
              <td class="nowrap">{isoDay(e.day)}</td>
              <td>
                <code>{operationLabel(e.operation)}</code>
              </td>
              <td class="num" data-errors={e.errors}>
                {formatCount(e.errors)}
              </td>
              <td class="num">{formatCount(e.requests)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

export function statusPill(disabled: boolean) {
  return disabled ? <span class="pill pill-off">Disabled</span> : <span class="pill pill-ok">Active</span>;
}
