import type { PlatformTokenStatus, PlatformTokenWithSecret } from "@scangate/core";
import { CsrfField } from "./components/tenant-form-fields";
import { dateTime } from "./display-format";
import { Banner, Layout } from "./layout";

const GRACE_OPTIONS = [
  { seconds: 3600, label: "Keep the old token for 1 hour" },
  { seconds: 0, label: "Stop the old token now" },
  { seconds: 86_400, label: "Keep the old token for 1 day" },
  { seconds: 7 * 86_400, label: "Keep the old token for 7 days" },
];

/**
 * The tenant page's card for its Platform (/v3) bearer token: whether it has one, issue or
 * rotate it (the old one kept for a grace period), revoke it.
 */
export function PlatformTokenCard(props: {
  tenantId: string;
  tenantName: string;
  status: PlatformTokenStatus;
  now: number;
  csrf: string;
}) {
  const { status } = props;
  const base = `/admin/console/tenants/${props.tenantId}/platform-token`;
  const previous = status.previous_token_expires_at ? Date.parse(status.previous_token_expires_at) : null;
  const held = status.token_id !== null || (previous !== null && previous > props.now);
  return (
    <section class="card" id="platform-token" aria-labelledby="platform-token-title">
      <h2 id="platform-token-title">Platform API token</h2>
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
        {previous !== null && previous > props.now && (
          <>
            <dt>Old token</dt>
            <dd>accepted until {dateTime(previous)}</dd>
          </>
        )}
      </dl>
      <form method="post" action={base}>
        <CsrfField token={props.csrf} />
        {status.token_id !== null && (
          <div class="field">
            <label for="token-grace">Old token</label>
            <select id="token-grace" name="grace_seconds">
              {GRACE_OPTIONS.map((option) => (
                <option value={String(option.seconds)}>{option.label}</option>
              ))}
            </select>
          </div>
        )}
        <label class="check">
          <input type="checkbox" name="confirm" value="yes" required />I will hand the token to{" "}
          {props.tenantName}
        </label>
        <button class="btn btn-secondary" type="submit" data-action="issue-platform-token">
          {status.token_id === null ? "Issue token" : "Rotate token"}
        </button>
      </form>
      {held && (
        <form method="post" action={`${base}/revoke`}>
          <CsrfField token={props.csrf} />
          <label class="check">
            <input type="checkbox" name="confirm" value="yes" required />
            Stop every Platform token of {props.tenantName}
          </label>
          <button class="btn btn-danger" type="submit" data-action="revoke-platform-token">
            Revoke token
          </button>
        </form>
      )}
    </section>
  );
}

/** The one page that ever shows a Platform token: right after it was issued or rotated. */
export function PlatformTokenOncePage(props: {
  tenantName: string;
  issued: PlatformTokenWithSecret;
  csrf: string;
  origin: string;
}) {
  const { issued } = props;
  const title = `Platform token for ${props.tenantName}`;
  return (
    <Layout title={title} area="admin" viewer={{ name: "admin", csrf: props.csrf }}>
      <div class="page-head">
        <div>
          <h1>{title}</h1>
          <p class="lede">
            Hand this token to the tenant: it authenticates <code>/v3</code> requests as{" "}
            <code>Authorization: Bearer &lt;token&gt;</code>.
          </p>
        </div>
      </div>
      <Banner tone="warn" title="Copy the token now">
        It is shown only on this page. It is stored as a hash and cannot be shown again; if it is lost, issue
        a new one.
      </Banner>
      {issued.previous_token_expires_at && (
        <Banner tone="ok">
          The old token keeps working until {dateTime(Date.parse(issued.previous_token_expires_at))}.
        </Banner>
      )}
      <section class="card section">
        <div class="secret-label">Token</div>
        <div class="secret-box">
          <code id="new-platform-token" data-figure="new-platform-token">
            {issued.token}
          </code>
          <button class="btn btn-small btn-quiet copy" type="button" data-copy="new-platform-token" hidden>
            Copy
          </button>
        </div>
        <p class="hint">Try it (any organization id is accepted; the edge uses its own upstream's):</p>
        <pre class="snippet">
          <code>{`curl -H "Authorization: Bearer ${issued.token}" \\\n  ${props.origin}/v3/global/asset/host/8.8.8.8`}</code>
        </pre>
        <div class="actions">
          <a class="btn" href={`/admin/console/tenants/${issued.tenant_id}`}>
            Back to {props.tenantName}
          </a>
        </div>
      </section>
    </Layout>
  );
}
