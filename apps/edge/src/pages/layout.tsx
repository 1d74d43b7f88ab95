import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { ASSET_PATHS, ICON_SHAPES } from "./assets";

export type Area = "tenant" | "admin";

/** Each area's name in the top bar and its home page; its sign-in and sign-out forms are below it. */
export const AREAS = {
  tenant: { name: "Quota dashboard", home: "/dashboard" },
  admin: { name: "Admin console", home: "/admin" },
} as const;

export interface Viewer {
  /** Shown in the top bar. */
  name: string;
  /** The session's CSRF token, for the sign-out form. */
  csrf: string;
}

/** The HTML document every page shares: top bar (with sign-out when signed in), content, footer. */
export function Layout(props: { title: string; area: Area; viewer?: Viewer | undefined; children: Child }) {
  const { name, home } = AREAS[props.area];
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
            <a class="brand" href={home}>
              <svg viewBox="0 0 32 32" aria-hidden="true">
                {raw(ICON_SHAPES)}
              </svg>
              scangate
            </a>
            <span class="area">{name}</span>
            <span class="spacer" />
            {props.viewer && (
              <span class="who">
                <span class="who-name">
                  Signed in as <strong>{props.viewer.name}</strong>
                </span>
                <PostForm action={`${home}/logout`} csrf={props.viewer.csrf}>
                  <button class="btn btn-quiet btn-small" type="submit">
                    Sign out
                  </button>
                </PostForm>
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

/** A card titled by its heading (`name` ids it for aria-labelledby), with an optional note beside the title. */
export function Card(props: {
  name: string;
  title: Child;
  note?: Child;
  class?: string;
  id?: string;
  children?: Child;
}) {
  const heading = <h2 id={`${props.name}-title`}>{props.title}</h2>;
  return (
    <section class={props.class ?? "card"} id={props.id} aria-labelledby={`${props.name}-title`}>
      {props.note === undefined ? (
        heading
      ) : (
        <div class="card-head">
          {heading}
          <span class="muted">{props.note}</span>
        </div>
      )}
      {props.children}
    </section>
  );
}

/** A table that scrolls sideways on a narrow screen; the headings from `numericFrom` on head figures. */
export function Table(props: {
  name: string;
  headings: readonly string[];
  numericFrom?: number;
  children: Child;
}) {
  const numericFrom = props.numericFrom ?? props.headings.length;
  return (
    <div class="table-scroll">
      <table data-table={props.name}>
        <thead>
          <tr>
            {props.headings.map((heading, i) => (
              <th class={i >= numericFrom ? "num" : undefined}>{heading}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** A form of a signed-in page: posted to `action`, carrying the session's CSRF token. */
export function PostForm(props: { action: string; csrf: string; children: Child }) {
  return (
    <form method="post" action={props.action}>
      <input type="hidden" name="csrf" value={props.csrf} />
      {props.children}
    </form>
  );
}

/** A labelled form control; `id` is the control's, which the label names. */
export function Field(props: { id: string; label: string; children: Child }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children}
    </div>
  );
}
