import type { TenantReport } from "../reports/tenant-report";
import { RecentAnnotationsCard } from "./components/annotations-card";
import { RecentErrorsCard, TenantFigures } from "./components/tenant-panels";
import { dateTime } from "./display-format";
import { Card, Layout } from "./layout";

/** What a signed-in tenant sees: its quota, Platform credits, usage, errors and how to call the API. */
export function TenantDashboardPage(props: { report: TenantReport; csrf: string; origin: string }) {
  const { report } = props;
  const { tenant } = report;
  return (
    <Layout title="Dashboard" area="tenant" viewer={{ name: tenant.name, csrf: props.csrf }}>
      <div class="page-head">
        <div>
          <h1 data-figure="tenant-name">{tenant.name}</h1>
          <p class="lede">
            API ID <code data-figure="api-id">{tenant.apiId}</code>
          </p>
        </div>
        <div class="meta">
          <span class="pill" data-figure="tier" data-value={report.tier.name}>
            Tier: {report.tier.name}
          </span>
        </div>
      </div>

      <TenantFigures report={report} />
      <div class="grid">
        <RecentAnnotationsCard report={report} />
      </div>
      <div class="grid grid-2">
        <RecentErrorsCard report={report} />
        <Card name="plan" title="Your plan">
          <dl class="facts">
            <dt>Rate tier</dt>
            <dd>
              <strong>{report.tier.name}</strong>:{" "}
              <span data-figure="tier-limit">{report.tier.description}</span>
            </dd>
            <dt>Email</dt>
            <dd>{tenant.email || "none on file"}</dd>
            <dt>Member since</dt>
            <dd>{dateTime(tenant.createdAt)}</dd>
          </dl>
          <p class="hint">
            Call the API with your API ID and secret (HTTP Basic), as with any Censys client:
          </p>
          <pre class="snippet">
            <code>{`curl -u "${tenant.apiId}:$SECRET" \\\n  ${props.origin}/api/v1/account`}</code>
          </pre>
        </Card>
      </div>
    </Layout>
  );
}
