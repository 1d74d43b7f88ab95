import { ERROR_TABLE, type ErrorKind, MAX_REQUEST_BODY_BYTES } from "@scangate/core";
import type { Context, Handler } from "hono";
import type { JSX } from "hono/jsx/jsx-runtime";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../app-env";
import { AREAS, Layout, type Area } from "./layout";

/** The context every page route and page helper works on. */
export type PageContext = Context<AppEnv>;

/** A refusal a page route raises; rendered as an HTML error page with the status of core's error table. */
export class PageError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

export async function renderPage(
  c: PageContext,
  page: JSX.Element,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const html: string = await page;
  return c.html(`<!doctype html>${html}`, status);
}

/** What a page says when it fails unexpectedly (the cause goes to the log, never to the page). */
const PAGE_FAILED = new PageError(
  "internal",
  "Something went wrong",
  "The page could not be built. Try again in a moment.",
);

/** A refusal or failure, said plainly, with the way back. */
export function errorPage(c: PageContext, area: Area, error: PageError): Promise<Response> {
  const status = ERROR_TABLE[error.kind].v2.status as ContentfulStatusCode;
  const page = (
    <Layout title={error.title} area={area}>
      <div class="auth">
        <div class="card">
          <p class="muted small">Error {status}</p>
          <h1>{error.title}</h1>
          <p class="lede">{error.message}</p>
          <p>
            <a class="btn btn-secondary" href={AREAS[area].home}>
              Back to the {area === "tenant" ? "dashboard" : "console"}
            </a>
          </p>
        </div>
      </div>
    </Layout>
  );
  return renderPage(c, page, status);
}

/** Wraps a page handler so refusals and failures become HTML pages, never a JSON body or a bare 500. */
export function pageHandler(area: Area, handler: (c: PageContext) => Promise<Response>): Handler<AppEnv> {
  return async (c) => {
    try {
      return await handler(c);
    } catch (error) {
      if (error instanceof PageError) return errorPage(c, area, error);
      console.error(
        `page ${c.req.method} ${c.req.path} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return errorPage(c, area, PAGE_FAILED);
    }
  };
}

/** The fields of a posted form (application/x-www-form-urlencoded, what our forms send). */
export async function readForm(c: PageContext): Promise<URLSearchParams> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    throw new PageError(
      "unsupported_media_type",
      "Unsupported form",
      "Send the form from the page (application/x-www-form-urlencoded).",
    );
  }
  const declared = Number(c.req.header("content-length") ?? "0");
  const tooLarge = new PageError(
    "payload_too_large",
    "Form too large",
    "That form is larger than any of ours.",
  );
  if (declared > MAX_REQUEST_BODY_BYTES) throw tooLarge;
  const text = await c.req.text();
  if (text.length > MAX_REQUEST_BODY_BYTES) throw tooLarge;
  return new URLSearchParams(text);
}

/**
 * The notice a `?notice=` code names, looked up by own key: `notice=constructor` names none
 * (an inherited name would otherwise render a function).
 */
export function noticeNamed(
  notices: Readonly<Record<string, string>>,
  code: string | undefined,
): string | undefined {
  return code !== undefined && Object.hasOwn(notices, code) ? notices[code] : undefined;
}
