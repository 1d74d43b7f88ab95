import { AREAS, Banner, Field, Layout, type Area } from "./layout";

export interface SignInProps {
  area: Area;
  /** A clear refusal (wrong credentials, too many attempts). */
  error?: string | undefined;
  /** Neutral news (signed out, session ended). */
  notice?: string | undefined;
  /** The API id typed last time (never the secret). */
  apiId?: string | undefined;
}

const COPY = {
  tenant: {
    title: "Sign in to your dashboard",
    lede: "See your quota, usage and errors. Use the API ID and secret your administrator gave you.",
    note: "Sessions last 12 hours. Your API credentials keep working as before.",
  },
  admin: {
    title: "Admin console",
    lede: "Sign in with the endpoint's admin token to manage tenants.",
    note: "Admin sessions last 2 hours.",
  },
} as const;

/** The sign-in form of the tenant dashboard or of the admin console. */
export function SignInPage(props: SignInProps) {
  const copy = COPY[props.area];
  return (
    <Layout title={copy.title} area={props.area}>
      <div class="auth">
        <div class="card">
          <h1>{copy.title}</h1>
          <p class="lede">{copy.lede}</p>
          {props.error && <Banner tone="error">{props.error}</Banner>}
          {props.notice && <Banner tone="info">{props.notice}</Banner>}
          <form method="post" action={`${AREAS[props.area].home}/login`} autocomplete="on">
            {props.area === "tenant" ? (
              <>
                <Field id="api_id" label="API ID">
                  <input
                    id="api_id"
                    name="api_id"
                    type="text"
                    required
                    autocomplete="username"
                    spellcheck={false}
                    autocapitalize="none"
                    value={props.apiId ?? ""}
                  />
                </Field>
                <Field id="secret" label="Secret">
                  <input id="secret" name="secret" type="password" required autocomplete="current-password" />
                </Field>
              </>
            ) : (
              <Field id="token" label="Admin token">
                <input id="token" name="token" type="password" required autocomplete="current-password" />
              </Field>
            )}
            <button class="btn btn-block" type="submit">
              Sign in
            </button>
          </form>
        </div>
        <p class="auth-foot">{copy.note}</p>
      </div>
    </Layout>
  );
}
