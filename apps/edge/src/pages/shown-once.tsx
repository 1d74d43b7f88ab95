import type { PlatformTokenWithSecret, TenantWithSecret } from "@scangate/core";
import type { Child } from "hono/jsx";
import { dateTime } from "./display-format";
import { Banner, Layout } from "./layout";

/** A credential in a box of its own, with a copy button (the page script shows it). */
function Credential(props: { label: string; id: string; value: string }) {
  return (
    <>
      <div class="secret-label">{props.label}</div>
      <div class="secret-box">
        <code id={props.id} data-figure={props.id}>
          {props.value}
        </code>
        <button class="btn btn-small btn-quiet copy" type="button" data-copy={props.id} hidden>
          Copy
        </button>
      </div>
    </>
  );
}

/** The one page that ever shows a new credential: it is stored as a hash, never to be shown again. */
function ShownOncePage(props: {
  title: string;
  lede: Child;
  csrf: string;
  /** The credential's name, and what to do when it is lost. */
  what: "secret" | "token";
  ifLost: string;
  notice?: Child;
  children: Child;
}) {
  return (
    <Layout title={props.title} area="admin" viewer={{ name: "admin", csrf: props.csrf }}>
      <div class="page-head">
        <div>
          <h1>{props.title}</h1>
          <p class="lede">{props.lede}</p>
        </div>
      </div>
      <Banner tone="warn" title={`Copy the ${props.what} now`}>
        {`It is shown only on this page. It is stored as a hash and cannot be shown again; if it is lost, ${props.ifLost}.`}
      </Banner>
      {props.notice}
      <section class="card section">{props.children}</section>
    </Layout>
  );
}

/** A tenant's secret: after creating the tenant or rotating it. */
export function SecretOncePage(props: {
  tenant: TenantWithSecret;
  event: "created" | "rotated";
  csrf: string;
  origin: string;
}) {
  const { tenant } = props;
  return (
    <ShownOncePage
      title={props.event === "created" ? `Tenant ${tenant.name} created` : `New secret for ${tenant.name}`}
      lede="Hand these credentials to the tenant. They also sign in to the dashboard with them."
      csrf={props.csrf}
      what="secret"
      ifLost="rotate it"
    >
      <Credential label="API ID" id="new-api-id" value={tenant.api_id} />
      <Credential label="Secret" id="new-secret" value={tenant.api_secret} />
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
    </ShownOncePage>
  );
}

/** A Platform token: right after it was issued or rotated. */
export function PlatformTokenOncePage(props: {
  tenantName: string;
  issued: PlatformTokenWithSecret;
  csrf: string;
  origin: string;
}) {
  const { issued } = props;
  return (
    <ShownOncePage
      title={`Platform token for ${props.tenantName}`}
      lede={
        <>
          Hand this token to the tenant: it authenticates <code>/v3</code> requests as{" "}
          <code>Authorization: Bearer &lt;token&gt;</code>.
        </>
      }
      csrf={props.csrf}
      what="token"
      ifLost="issue a new one"
      notice={
        issued.previous_token_expires_at && (
          <Banner tone="ok">
            The old token keeps working until {dateTime(Date.parse(issued.previous_token_expires_at))}.
          </Banner>
        )
      }
    >
      <Credential label="Token" id="new-platform-token" value={issued.token} />
      <p class="hint">Try it (any organization id is accepted; the edge uses its own upstream's):</p>
      <pre class="snippet">
        <code>{`curl -H "Authorization: Bearer ${issued.token}" \\\n  ${props.origin}/v3/global/asset/host/8.8.8.8`}</code>
      </pre>
      <div class="actions">
        <a class="btn" href={`/admin/console/tenants/${issued.tenant_id}`}>
          Back to {props.tenantName}
        </a>
      </div>
    </ShownOncePage>
  );
}
