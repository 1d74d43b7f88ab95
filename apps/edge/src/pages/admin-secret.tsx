import type { TenantWithSecret } from "@scangate/core";
import { Banner, Layout } from "./layout";

/** The one page that ever shows a tenant's secret: after creating the tenant or rotating it. */
export function SecretOncePage(props: {
  tenant: TenantWithSecret;
  event: "created" | "rotated";
  csrf: string;
  origin: string;
}) {
  const { tenant } = props;
  const title = props.event === "created" ? `Tenant ${tenant.name} created` : `New secret for ${tenant.name}`;
  return (
    <Layout title={title} area="admin" viewer={{ name: "admin", csrf: props.csrf }}>
      <div class="page-head">
        <div>
          <h1>{title}</h1>
          <p class="lede">
            Hand these credentials to the tenant. They also sign in to the dashboard with them.
          </p>
        </div>
      </div>
      <Banner tone="warn" title="Copy the secret now">
        It is shown only on this page. It is stored as a hash and cannot be shown again; if it is lost, rotate
        it.
      </Banner>
      <section class="card section">
        <div class="secret-label">API ID</div>
        <div class="secret-box">
          <code id="new-api-id" data-figure="new-api-id">
            {tenant.api_id}
          </code>
          <button class="btn btn-small btn-quiet copy" type="button" data-copy="new-api-id" hidden>
            Copy
          </button>
        </div>
        <div class="secret-label">Secret</div>
        <div class="secret-box">
          <code id="new-secret" data-figure="new-secret">
            {tenant.api_secret}
          </code>
          <button class="btn btn-small btn-quiet copy" type="button" data-copy="new-secret" hidden>
            Copy
          </button>
        </div>
        <p class="hint">Try it:</p>
        <pre class="snippet">
          <code>{`curl -u "${tenant.api_id}:${tenant.api_secret}" \\\n  ${props.origin}/api/v1/account`}</code>
        </pre>
        <div class="actions">
          <a class="btn" href={`/admin/console/tenants/${tenant.id}`}>
            Open {tenant.name}
          </a>
          <a class="btn btn-secondary" href="/admin">
            Back to all tenants
          </a>
        </div>
      </section>
    </Layout>
  );
}
