import type { AuditEntry } from "@scangate/core";
import type { FleetReport, TenantSort } from "../reports/fleet-report";
import { OrganizationBalancesCard } from "./components/credits-panels";
import { UsageBar, Gauge } from "./components/gauge";
import { Stat, statusPill } from "./components/tenant-panels";
import { QuotaFields, type TierOption } from "./components/tenant-form-fields";
import { UsageChartView } from "./components/usage-chart";
import { ago, dateTime, formatCount, formatPercent } from "./display-format";
import { Banner, Card, Field, Layout, PostForm, Table } from "./layout";
import { ratio } from "./usage-summary";

export interface CreateFormState {
  values: Record<string, string>;
  error?: string | undefined;
}

interface ConsoleProps {
  report: FleetReport;
  csrf: string;
  tiers: readonly TierOption[];
  create: CreateFormState;
  audit: readonly AuditEntry[];
}

const COLUMNS: { key: TenantSort["sort"]; label: string; numeric?: boolean }[] = [
  { key: "name", label: "Tenant" },
  { key: "usage", label: "Quota used" },
  { key: "requests", label: "Requests", numeric: true },
  { key: "credits", label: "Credits spent / saved", numeric: true },
  { key: "last_seen", label: "Last seen" },
  { key: "status", label: "Status" },
  { key: "created", label: "Created" },
];

/** A column header that sorts by its key; a second click flips the direction. Plain links: no script. */
function SortHeader(props: { column: (typeof COLUMNS)[number]; sort: TenantSort }) {
  const { column, sort } = props;
  const active = sort.sort === column.key;
  const dir = active ? (sort.dir === "asc" ? "desc" : "asc") : column.key === "name" ? "asc" : "desc";
  return (
    <th
      class={column.numeric ? "num" : undefined}
      aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
    >
      <a class={active ? "sorted" : undefined} href={`/admin?sort=${column.key}&dir=${dir}#tenants`}>
        {column.label}
        {active && <span class="arrow">{sort.dir === "asc" ? "▲" : "▼"}</span>}
      </a>
    </th>
  );
}

function UpstreamCard(props: { report: FleetReport }) {
  const { upstream, totals, days } = props.report;
  return (
    <Card name="upstream" title={`Upstream account${upstream.length === 1 ? "" : "s"}`}>
      {upstream.map((status) =>
        status.ok ? (
          <div class="gauge-box" data-upstream={status.apiId}>
            <Gauge
              used={status.account.quota.used}
              allowance={status.account.quota.allowance}
              caption="of its allowance used"
              figure="upstream"
            />
            <div class="gauge-reset">
              <code>{status.apiId}</code> · resets {status.account.quota.resets_at} UTC
            </div>
          </div>
        ) : (
          <Banner tone="warn" title={`Account ${status.apiId} unavailable`}>
            Its quota could not be read: {status.problem}.
          </Banner>
        ),
      )}
      <p class="hint">
        The edge made <strong data-figure="fleet-upstream-calls">{formatCount(totals.upstreamCalls)}</strong>{" "}
        upstream calls for tenants in the last {days} days; cache hits saved {formatCount(totals.cacheHits)}{" "}
        more.
      </p>
    </Card>
  );
}

function CreateTenantCard(props: { csrf: string; tiers: readonly TierOption[]; create: CreateFormState }) {
  const { values, error } = props.create;
  return (
    <Card name="create" title="Create a tenant" id="create">
      {error && (
        <Banner tone="error" title="Not created">
          {error}
        </Banner>
      )}
      <PostForm action="/admin/console/tenants" csrf={props.csrf}>
        <div class="field-row">
          <Field id="create-name" label="Name">
            <input
              id="create-name"
              name="name"
              type="text"
              required
              maxlength={100}
              value={values.name ?? ""}
            />
          </Field>
          <Field id="create-email" label="Email (optional)">
            <input id="create-email" name="email" type="email" value={values.email ?? ""} />
          </Field>
        </div>
        <QuotaFields values={values} tiers={props.tiers} idPrefix="create" />
        <div class="actions">
          <button class="btn" type="submit">
            Create tenant
          </button>
          <span class="hint">The new secret is shown once, on the next page.</span>
        </div>
      </PostForm>
    </Card>
  );
}

export function AuditCard(props: { audit: readonly AuditEntry[]; title: string }) {
  return (
    <Card name="audit" title={props.title}>
      {props.audit.length === 0 ? (
        <p class="muted">No admin actions yet.</p>
      ) : (
        <Table name="audit" headings={["When", "Action", "Tenant", "By"]}>
          {props.audit.map((entry) => (
            <tr>
              <td class="nowrap">{dateTime(Date.parse(entry.at))}</td>
              <td>
                <code>{entry.action}</code>
              </td>
              <td>
                {entry.tenant_id ? (
                  <a href={`/admin/console/tenants/${entry.tenant_id}`}>
                    {auditName(entry.after) ?? auditName(entry.before) ?? entry.tenant_id}
                  </a>
                ) : (
                  "—"
                )}
              </td>
              <td>{entry.actor}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

/**
 * The admin overview: totals, the Platform organizations' balances, the upstream account, usage,
 * every tenant, and the create form.
 */
export function AdminConsolePage(props: ConsoleProps) {
  const { report } = props;
  const { totals, days } = report;
  return (
    <Layout title="Admin console" area="admin" viewer={{ name: "admin", csrf: props.csrf }}>
      <div class="page-head">
        <div>
          <h1>Tenants and usage</h1>
          <p class="lede">Everyone sharing this endpoint, their quota and what the cache saves.</p>
        </div>
        <div class="meta">
          <a class="btn" href="#create">
            New tenant
          </a>
        </div>
      </div>

      <div class="stats stats-wide">
        <Stat
          label="Tenants"
          value={formatCount(report.tenants.length)}
          figure="tenant-count"
          hint={`${formatCount(report.active)} active · ${formatCount(report.disabled)} disabled`}
        />
        <Stat
          label="Quota used"
          value={formatPercent(ratio(report.quotaUsed, report.quotaAllowance))}
          figure="fleet-quota"
          hint={`${formatCount(report.quotaUsed)} of ${formatCount(report.quotaAllowance)} this period`}
        />
        <Stat
          label={`Requests · ${days} days`}
          value={formatCount(totals.requests)}
          figure="fleet-requests"
        />
        <Stat
          label="Cache hit ratio"
          value={formatPercent(ratio(totals.cacheHits, report.cachedRequests))}
          figure="cache-hit-ratio"
          hint={`${formatCount(totals.cacheHits)} hits of ${formatCount(report.cachedRequests)} cacheable requests`}
        />
        <Stat label={`Errors · ${days} days`} value={formatCount(totals.errors)} figure="fleet-errors" />
      </div>

      <div class="grid">
        <OrganizationBalancesCard report={report} />
      </div>

      <div class="grid grid-main">
        <UpstreamCard report={report} />
        <Card name="fleet-usage" title="Requests per day, all tenants" note={`last ${days} days, UTC`}>
          <UsageChartView
            chart={report.chart}
            label={`Requests per day of all tenants over the last ${days} days`}
          />
        </Card>
      </div>

      <Card
        name="tenants"
        title="All tenants"
        note="select a column to sort"
        class="card section"
        id="tenants"
      >
        <div class="table-scroll">
          <table data-table="tenants">
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <SortHeader column={column} sort={report.sort} />
                ))}
                <th>Tier</th>
              </tr>
            </thead>
            <tbody>
              {report.tenants.length === 0 && (
                <tr>
                  <td class="empty-row" colspan={COLUMNS.length + 1}>
                    No tenants yet. Create the first one below.
                  </td>
                </tr>
              )}
              {report.tenants.map(({ row, quota, usage, credits }) => (
                <tr data-tenant={row.id}>
                  <td>
                    <a class="tenant-name" href={`/admin/console/tenants/${row.id}`}>
                      {row.name}
                    </a>
                    <div class="small muted mono nowrap">{row.apiId}</div>
                  </td>
                  <td class="nowrap" data-used={quota.used} data-allowance={quota.allowance}>
                    <UsageBar fraction={ratio(quota.used, quota.allowance)} />
                    {formatPercent(ratio(quota.used, quota.allowance))}
                    <div class="small muted">
                      {formatCount(quota.used)} / {formatCount(quota.allowance)}
                    </div>
                  </td>
                  <td class="num">{formatCount(usage.requests)}</td>
                  <td
                    class="num nowrap"
                    data-credits-spent={credits.spent}
                    data-credits-saved={credits.saved}
                  >
                    {formatCount(credits.spent)} / {formatCount(credits.saved)}
                  </td>
                  <td class="nowrap">
                    {row.lastSeenAt === null ? (
                      <span class="muted">never</span>
                    ) : (
                      ago(row.lastSeenAt, report.now)
                    )}
                  </td>
                  <td>{statusPill(row.disabled)}</td>
                  <td class="nowrap">{dateTime(row.createdAt).slice(0, 10)}</td>
                  <td>
                    <span class="pill">{row.tier}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      <div class="grid grid-2">
        <CreateTenantCard csrf={props.csrf} tiers={props.tiers} create={props.create} />
        <AuditCard audit={props.audit} title="Recent admin actions" />
      </div>
    </Layout>
  );
}

/** The tenant name an audit snapshot carries, if it carries one as a string. */
function auditName(snapshot: Record<string, unknown> | null): string | undefined {
  const name = snapshot?.name;
  return typeof name === "string" ? name : undefined;
}
