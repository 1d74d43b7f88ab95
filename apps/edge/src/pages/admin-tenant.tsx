import type { AuditEntry, PlatformTokenStatus } from "@scangate/core";
import type { TenantRow } from "../db/schema";
import type { TenantReport } from "../reports/tenant-report";
import { AuditCard } from "./admin-console";
import { ConfirmBox, GraceField, QuotaFields, type TierOption } from "./components/tenant-form-fields";
import { RecentErrorsCard, statusPill, TenantFigures } from "./components/tenant-panels";
import { ago, dateTime } from "./display-format";
import { Banner, Card, Layout, PostForm } from "./layout";

/** What the last action did, said on the page it lands on. */
export const DONE_MESSAGES = {
  updated: "Allowance, period and tier saved.",
  disabled: "Tenant disabled. Its credentials and dashboard sessions stop working within seconds.",
  enabled: "Tenant enabled. Its credentials work again.",
  token_revoked: "Platform token revoked. It stops working everywhere within seconds.",
};

export interface TenantAdminProps {
  report: TenantReport;
  csrf: string;
  tiers: readonly TierOption[];
  audit: readonly AuditEntry[];
  platformToken: PlatformTokenStatus;
  /** What the last action did: one of DONE_MESSAGES. */
  done?: string | undefined;
  /** A refused change, with the values that were sent. */
  settings?: { values: Record<string, string>; error: string } | undefined;
  actionError?: string | undefined;
}

/** One tenant as the admin sees it: the tenant's own dashboard figures, plus every admin action. */
export function AdminTenantPage(props: TenantAdminProps) {
  const { report } = props;
  const { tenant } = report;
  const settings = props.settings?.values ?? {
    allowance: String(tenant.allowance),
    period: tenant.period,
    tier: tenant.tier,
  };
  const base = `/admin/console/tenants/${tenant.id}`;
  return (
    <Layout title={tenant.name} area="admin" viewer={{ name: "admin", csrf: props.csrf }}>
      <p class="small">
        <a href="/admin">← All tenants</a>
      </p>
      <div class="page-head">
        <div>
          <h1>{tenant.name}</h1>
          <p class="lede">
            <code>{tenant.id}</code> · API ID <code>{tenant.apiId}</code>
          </p>
        </div>
        <div class="meta">
          {statusPill(tenant.disabled)}
          <span class="pill">Tier: {tenant.tier}</span>
        </div>
      </div>
      {props.done && <Banner tone="ok">{props.done}</Banner>}
      {props.actionError && <Banner tone="error">{props.actionError}</Banner>}

      <TenantFigures report={report} />

      <div class="grid grid-2">
        <Card name="settings" title="Allowance and tier" id="settings">
          {props.settings && (
            <Banner tone="error" title="Not saved">
              {props.settings.error}
            </Banner>
          )}
          <PostForm action={`${base}/quota`} csrf={props.csrf}>
            <QuotaFields values={settings} tiers={props.tiers} idPrefix="quota" />
            <label class="check">
              <input type="checkbox" name="reset_used" value="1" />
              Also set this period's usage back to 0
            </label>
            <button class="btn" type="submit">
              Save changes
            </button>
          </PostForm>
        </Card>
        <Card name="facts" title="Details">
          <dl class="facts">
            <dt>Email</dt>
            <dd>{tenant.email || <span class="muted">none</span>}</dd>
            <dt>Created</dt>
            <dd>{dateTime(tenant.createdAt)}</dd>
            <dt>Last seen</dt>
            <dd>
              {tenant.lastSeenAt === null
                ? "never"
                : `${dateTime(tenant.lastSeenAt)} (${ago(tenant.lastSeenAt, report.now)})`}
            </dd>
            <dt>Rate tier</dt>
            <dd>
              {tenant.tier}: {report.tier.description}
            </dd>
            {tenant.previousSecretExpiresAt !== null && tenant.previousSecretExpiresAt > report.now && (
              <>
                <dt>Old secret</dt>
                <dd>accepted until {dateTime(tenant.previousSecretExpiresAt)}</dd>
              </>
            )}
          </dl>
        </Card>
      </div>

      <div class="grid grid-2">
        <Card name="rotate" title="Rotate the secret">
          <p class="hint">A new secret is made and shown once. Dashboard sessions of this tenant end.</p>
          <PostForm action={`${base}/rotate`} csrf={props.csrf}>
            <GraceField id="grace" what="secret" choices={[0, 3600, 86_400, 7 * 86_400]} />
            <ConfirmBox>I will hand the new secret to {tenant.name}</ConfirmBox>
            <button class="btn btn-secondary" type="submit">
              Rotate secret
            </button>
          </PostForm>
        </Card>
        <Card name="status" title={tenant.disabled ? "Enable the tenant" : "Disable the tenant"}>
          {tenant.disabled ? (
            <PostForm action={`${base}/enable`} csrf={props.csrf}>
              <p class="hint">The tenant's credentials work again at once.</p>
              <button class="btn" type="submit">
                Enable tenant
              </button>
            </PostForm>
          ) : (
            <PostForm action={`${base}/disable`} csrf={props.csrf}>
              <p class="hint">
                Requests with its credentials are refused within seconds; nothing is deleted.
              </p>
              <ConfirmBox>Refuse every request of {tenant.name}</ConfirmBox>
              <button class="btn btn-danger" type="submit">
                Disable tenant
              </button>
            </PostForm>
          )}
        </Card>
      </div>

      <div class="grid grid-2">
        <PlatformTokenCard tenant={tenant} status={props.platformToken} csrf={props.csrf} />
      </div>

      <div class="grid grid-2">
        <RecentErrorsCard report={report} />
        <AuditCard audit={props.audit} title="Admin actions on this tenant" />
      </div>
    </Layout>
  );
}

/**
 * The tenant page's card for its Platform (/v3) bearer token: whether it has one, issue or
 * rotate it (the old one kept for a grace period), revoke it.
 */
function PlatformTokenCard(props: { tenant: TenantRow; status: PlatformTokenStatus; csrf: string }) {
  const { status, tenant } = props;
  const base = `/admin/console/tenants/${tenant.id}/platform-token`;
  // The status names an old token only while its grace period lasts.
  const previous = status.previous_token_expires_at;
  const held = status.token_id !== null || previous !== null;
  return (
    <Card name="platform-token" title="Platform API token" id="platform-token">
      <p class="hint">
        A bearer token for <code>/v3</code> (the Censys Platform API and its SDKs), beside the API ID and
        secret. Shown once; stored as a hash.
      </p>
      <dl class="facts">
        <dt>Token</dt>
        <dd data-figure="platform-token-state">
          {status.token_id === null || status.issued_at === null
            ? "none"
            : `issued ${dateTime(Date.parse(status.issued_at))}`}
        </dd>
        {previous && (
          <>
            <dt>Old token</dt>
            <dd>accepted until {dateTime(Date.parse(previous))}</dd>
          </>
        )}
      </dl>
      <PostForm action={base} csrf={props.csrf}>
        {status.token_id !== null && (
          <GraceField id="token-grace" what="token" choices={[3600, 0, 86_400, 7 * 86_400]} />
        )}
        <ConfirmBox>I will hand the token to {tenant.name}</ConfirmBox>
        <button class="btn btn-secondary" type="submit" data-action="issue-platform-token">
          {status.token_id === null ? "Issue token" : "Rotate token"}
        </button>
      </PostForm>
      {held && (
        <PostForm action={`${base}/revoke`} csrf={props.csrf}>
          <ConfirmBox>Stop every Platform token of {tenant.name}</ConfirmBox>
          <button class="btn btn-danger" type="submit" data-action="revoke-platform-token">
            Revoke token
          </button>
        </PostForm>
      )}
    </Card>
  );
}
