import type { TenantReport } from "../reports/tenant-report";
import { RecentErrorsCard, TenantFigures } from "./components/tenant-panels";
import { ago, dateTime } from "./display-format";
import { Card, Layout, Table } from "./layout";

/** Longest comment excerpt shown on the dashboard. */
const EXCERPT_CHARS = 120;

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/** The tenant's latest tags and comments (the team's v2 tag and comment API, kept at the edge). */
function RecentAnnotationsCard(props: { report: TenantReport }) {
  const { annotations, now } = props.report;
  return (
    <Card name="annotations" title="Your recent tags and comments" note="shared with the team">
      {annotations.tags.length === 0 && annotations.comments.length === 0 ? (
        <p class="muted" data-figure="no-annotations">
          No tags or comments yet. Tags and comments you add through the v2 API (<code>create_tag</code>,{" "}
          <code>add_comment</code>) show up here.
        </p>
      ) : (
        <Table name="recent-annotations" headings={["When", "Kind", "On", "Text"]}>
          {annotations.tags.map((tag) => (
            <tr data-annotation="tag" data-id={tag.id}>
              <td class="nowrap">{ago(tag.createdAt, now)}</td>
              <td>Tag</td>
              <td>
                {tag.color ? (
                  // A fill attribute, not a style: the pages' CSP allows no inline styles.
                  <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
                    <rect fill={tag.color} width="10" height="10" rx="2" />
                  </svg>
                ) : null}
              </td>
              <td data-tag-name={tag.name}>{tag.name}</td>
            </tr>
          ))}
          {annotations.comments.map((comment) => (
            <tr data-annotation="comment" data-id={comment.id}>
              <td class="nowrap">{ago(comment.createdAt, now)}</td>
              <td>Comment</td>
              <td>
                <code>
                  {comment.index === "hosts" ? "" : "cert "}
                  {comment.document.length > 20 ? `${comment.document.slice(0, 16)}…` : comment.document}
                </code>
              </td>
              <td data-comment-contents>{excerpt(comment.contents)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

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
