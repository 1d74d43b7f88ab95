import type { Child } from "hono/jsx";
import { ASSET_PATHS } from "./assets";

export type Area = "tenant" | "admin";

const AREA_NAMES: Record<Area, string> = { tenant: "Quota dashboard", admin: "Admin console" };
const HOME: Record<Area, string> = { tenant: "/dashboard", admin: "/admin" };
const SIGN_OUT: Record<Area, string> = { tenant: "/dashboard/logout", admin: "/admin/logout" };

export function BrandMark() {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path
        d="M8 21.5a8 8 0 0 1 16 0"
        fill="none"
        stroke="#c7d2fe"
        stroke-width="3.2"
        stroke-linecap="round"
      />
      <path
        d="M8 21.5a8 8 0 0 1 11.2-7.3"
        fill="none"
        stroke="#fff"
        stroke-width="3.2"
        stroke-linecap="round"
      />
      <circle cx="16" cy="21.5" r="2.2" fill="#fff" />
    </svg>
  );
}

export interface Viewer {
  /** Shown in the top bar. */
  name: string;
  /** The session's CSRF token, for the sign-out form. */
  csrf: string;
}

/** The HTML document every page shares: top bar (with sign-out when signed in), content, footer. */
export function Layout(props: { title: string; area: Area; viewer?: Viewer | undefined; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${props.title} · scangate`}</title>
        <link rel="stylesheet" href={ASSET_PATHS.stylesheet} />
        <link rel="icon" type="image/svg+xml" href={ASSET_PATHS.icon} />
        <script src={ASSET_PATHS.script} defer />
      </head>
      <body>
        <header class="topbar">
          <div class="wrap topbar-inner">
            <a class="brand" href={HOME[props.area]}>
              <BrandMark />
              scangate
            </a>
            <span class="area">{AREA_NAMES[props.area]}</span>
            <span class="spacer" />
            {props.viewer && (
              <span class="who">
                <span class="who-name">
                  Signed in as <strong>{props.viewer.name}</strong>
                </span>
                <form method="post" action={SIGN_OUT[props.area]}>
                  <input type="hidden" name="csrf" value={props.viewer.csrf} />
                  <button class="btn btn-quiet btn-small" type="submit">
                    Sign out
                  </button>
                </form>
              </span>
            )}
          </div>
        </header>
        <main class="wrap">{props.children}</main>
        <footer class="wrap">scangate edge · all times UTC</footer>
      </body>
    </html>
  );
}

export function Banner(props: { tone: "error" | "ok" | "info" | "warn"; title?: string; children?: Child }) {
  return (
    <div class={`banner banner-${props.tone}`} role={props.tone === "error" ? "alert" : "status"}>
      {props.title && <strong>{props.title}</strong>}
      {props.children}
    </div>
  );
}
