import type { OrganizationBalance } from "../../reports/organization-credits";
import type { FleetReport } from "../../reports/fleet-report";
import type { TenantReport } from "../../reports/tenant-report";
import { dateTime, formatCount, isoDay } from "../display-format";
import { Banner, Card } from "../layout";

const credits = (n: number) => `${formatCount(n)} credit${n === 1 ? "" : "s"}`;

/**
 * The organizations' balances summed, for tenants: the organization ids stay the operator's
 * (the edge replaces the one a caller sends), so a tenant sees one shared figure.
 */
function TeamBalance(props: { balances: readonly OrganizationBalance[] }) {
  const read = props.balances.filter((b) => b.ok);
  if (read.length === 0)
    return (
      <dd data-figure="team-balance" data-value="unavailable">
        unavailable <span class="muted">(the upstream could not be asked; try again in a minute)</span>
      </dd>
    );
  const total = read.reduce((sum, b) => sum + b.balance, 0);
  const missing = props.balances.length - read.length;
  return (
    <dd data-figure="team-balance" data-value={total}>
      {credits(total)} left
      {missing > 0 && (
        <span class="muted">
          {" "}
          ({missing} of {props.balances.length} organizations unavailable)
        </span>
      )}
    </dd>
  );
}

/**
 * The tenant's Platform credits: spent this period by `/v3` calls (and legacy ones, when the
 * upstream speaks only the Platform API), saved by the cache, whether it holds a Platform token,
 * and the balance the whole team draws on upstream.
 */
export function CreditsCard(props: { report: TenantReport }) {
  const { credits: figures } = props.report;
  return (
    <Card
      name="credits"
      title="Platform credits"
      note={
        figures.periodStart === null ? "one-time credits: all time" : `since ${isoDay(figures.periodStart)}`
      }
    >
      <dl class="facts">
        <dt>Spent this period</dt>
        <dd data-figure="credits-spent" data-value={figures.period.spent}>
          {credits(figures.period.spent)}
        </dd>
        <dt>Saved by the cache</dt>
        <dd data-figure="credits-saved" data-value={figures.period.saved}>
          {credits(figures.period.saved)}
        </dd>
        <dt>Platform token</dt>
        <dd data-figure="platform-token" data-value={figures.platformToken ? "yes" : "no"}>
          {figures.platformToken ? (
            <>
              yes: call <code>/v3</code> with <code>Authorization: Bearer &lt;token&gt;</code>
            </>
          ) : (
            "none: ask the endpoint's administrator for one to use /v3"
          )}
        </dd>
        {figures.platformConfigured && (
          <>
            <dt>Team balance upstream</dt>
            <TeamBalance balances={figures.balances} />
          </>
        )}
      </dl>
      <p class="hint">
        Credits come out of the same allowance as the quota. Documents the cache already holds cost nothing;
        the saved figure is what the upstream would have charged for them.
      </p>
    </Card>
  );
}

/** Each Platform organization's remaining credits, as last read (at most a minute ago). */
export function OrganizationBalancesCard(props: { report: FleetReport }) {
  const { balances, credits: figures, days } = props.report;
  return (
    <Card name="balances" title="Platform credits">
      {!props.report.platformConfigured && (
        <p class="muted" data-figure="no-platform">
          No Platform upstream is configured (<code>PLATFORM_CREDENTIALS</code>), so there is no balance to
          show.
        </p>
      )}
      {balances.map((status) =>
        status.ok ? (
          <dl class="facts" data-organization={status.organizationId}>
            <dt>Organization</dt>
            <dd>
              <code>{status.organizationId}</code>
            </dd>
            <dt>Balance</dt>
            <dd>
              <strong data-figure="organization-balance" data-value={status.balance}>
                {credits(status.balance)}
              </strong>{" "}
              <span class="muted">as of {dateTime(status.readAt)}</span>
            </dd>
          </dl>
        ) : (
          <div data-organization={status.organizationId}>
            <Banner tone="warn" title={`Organization ${status.organizationId}: balance unavailable`}>
              <span data-figure="organization-balance" data-value="unavailable">
                Its credits could not be read: {status.problem}.
              </span>
            </Banner>
          </div>
        ),
      )}
      <p class="hint">
        Tenants spent{" "}
        <strong data-figure="fleet-credits-spent" data-value={figures.spent}>
          {credits(figures.spent)}
        </strong>{" "}
        on <code>/v3</code> in the last {days} days; the cache saved{" "}
        <strong data-figure="fleet-credits-saved" data-value={figures.saved}>
          {credits(figures.saved)}
        </strong>{" "}
        more.
      </p>
    </Card>
  );
}
